#include "tools/bot_client/seat_player.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <stdexcept>
#include <type_traits>

#include "engine/game.hpp"
#include "engine/view.hpp"
#include "protocol/action_json.hpp"
#include "protocol/card_json.hpp"
#include "protocol/ruleset_json.hpp"

namespace sparts::botclient {

using nlohmann::json;

namespace {

int int_of(const json& j, const char* key, int otherwise = 0) {
    const auto it = j.find(key);
    return it != j.end() && it->is_number_integer() ? it->get<int>() : otherwise;
}

Seat seat_of(const json& j, const char* key) {
    const auto it = j.find(key);
    return it != j.end() && it->is_number_integer() ? static_cast<Seat>(it->get<int>()) : kNoSeat;
}

CardSet cards_of(const json& j, const char* key) {
    const auto it = j.find(key);
    if (it == j.end()) return {};  // a secret left out
    auto set = card_set_from_json(*it);
    return set ? *set : CardSet();
}

Card card_of(const json& j, const char* key) {
    const auto it = j.find(key);
    if (it == j.end()) throw std::runtime_error(std::string("an event without '") + key + "'");
    auto c = card_from_json(*it);
    if (!c) throw std::runtime_error("a card the bot cannot read: " + it->dump());
    return *c;
}

HandKind kind_of(const json& j) {
    const std::string k = j.value("kind", "undecided");
    if (k == "spades") return HandKind::spades;
    if (k == "hearts") return HandKind::hearts;
    if (k == "sparts") return HandKind::sparts;
    return HandKind::undecided;
}

std::uint16_t seat_mask(const json& seats) {
    std::uint16_t m = 0;
    if (seats.is_array())
        for (const auto& s : seats)
            if (s.is_number_integer()) m = static_cast<std::uint16_t>(m | (1u << s.get<int>()));
    return m;
}

// The engine event behind a wire event, for the events a bot's memory reads
// (the others are not needed and give nothing).
std::optional<Event> event_from_json(const json& e) {
    const std::string type = e.value("type", "");
    if (type == "hand_started")
        return HandStarted{static_cast<std::uint8_t>(int_of(e, "hand")), seat_of(e, "dealer"), kind_of(e),
                           static_cast<std::uint8_t>(int_of(e, "hand_size")),
                           static_cast<std::uint8_t>(int_of(e, "center_size"))};
    if (type == "cards_dealt")
        return CardsDealt{seat_of(e, "seat"), static_cast<std::uint8_t>(int_of(e, "count")), cards_of(e, "cards")};
    if (type == "hand_kind_chosen") return HandKindChosen{seat_of(e, "seat"), kind_of(e)};
    if (type == "passing_started") {
        std::uint16_t seats = 0;
        if (e.contains("seats") && e["seats"].is_array())
            for (const auto& s : e["seats"])
                if (s.is_number_integer() && s.get<int>() >= 0 && s.get<int>() < 16)
                    seats = static_cast<std::uint16_t>(seats | (1u << s.get<int>()));
        return PassingStarted{static_cast<std::uint8_t>(int_of(e, "count")),
                              static_cast<std::uint8_t>(int_of(e, "distance")),
                              static_cast<std::uint8_t>(int_of(e, "round")),
                              static_cast<std::uint8_t>(int_of(e, "back_count")), seats};
    }
    if (type == "cards_passed")
        return CardsPassed{seat_of(e, "from"), seat_of(e, "to"), static_cast<std::uint8_t>(int_of(e, "count")),
                           cards_of(e, "cards")};
    if (type == "cards_received")
        return CardsReceived{seat_of(e, "seat"), seat_of(e, "from"), static_cast<std::uint8_t>(int_of(e, "count")),
                             cards_of(e, "cards")};
    if (type == "bid_made") {
        const auto it = e.find("bid");
        std::int8_t bid = kHiddenBid;
        bool nil = false, blind = false;
        if (it != e.end()) {
            if (it->is_string()) nil = true, bid = 0, blind = *it == "blind_nil";
            else if (it->is_number_integer()) bid = static_cast<std::int8_t>(it->get<int>());
        }
        return BidMade{seat_of(e, "seat"), bid, nil, e.value("secret", false), blind};
    }
    if (type == "bids_revealed") {
        BidsRevealed r{};
        const auto& bids = e.at("bids");
        r.count = static_cast<std::uint8_t>(bids.size());
        for (std::size_t i = 0; i < bids.size() && i < kMaxSeats; ++i)
            r.bids[i] = static_cast<std::int8_t>(bids[i].is_number_integer() ? bids[i].get<int>() : 0);
        return r;
    }
    if (type == "play_started") return PlayStarted{seat_of(e, "leader")};
    if (type == "card_played")
        return CardPlayed{seat_of(e, "seat"), card_of(e, "card"), static_cast<std::uint8_t>(int_of(e, "trick"))};
    if (type == "hearts_broken") return HeartsBroken{seat_of(e, "seat")};
    if (type == "spades_broken") return SpadesBroken{seat_of(e, "seat")};
    if (type == "trick_won") {
        TrickWon t{};
        t.trick = static_cast<std::uint8_t>(int_of(e, "trick"));
        t.leader = seat_of(e, "leader");
        t.winner = seat_of(e, "winner");
        const auto& cards = e.at("cards");
        for (std::size_t i = 0; i < cards.size() && i < kMaxSeats; ++i) {
            auto c = card_from_json(cards[i]);
            if (!c) throw std::runtime_error("a card the bot cannot read: " + cards[i].dump());
            t.cards[i] = *c;
        }
        t.count = static_cast<std::uint8_t>(std::min<std::size_t>(cards.size(), kMaxSeats));
        return t;
    }
    if (type == "center_taken")
        return CenterTaken{seat_of(e, "seat"), static_cast<std::uint8_t>(int_of(e, "count")), cards_of(e, "cards")};
    if (type == "hand_scored") {
        HandScored h{};
        h.hand = static_cast<std::uint8_t>(int_of(e, "hand"));
        h.kind = kind_of(e);
        h.reversed = e.value("reversed", false);
        const auto& sides = e.at("sides");
        h.sides.resize(std::min<std::size_t>(sides.size(), kMaxSeats));
        for (int i = 0; i < h.side_count(); ++i) {
            const json& s = sides[static_cast<std::size_t>(i)];
            h.sides[i].seats = seat_mask(s.value("seats", json::array()));
            h.sides[i].hand_total = int_of(s, "hand_total");
            h.sides[i].score = int_of(s, "score");
            h.sides[i].bags = static_cast<std::int16_t>(int_of(s, "bags"));
        }
        return h;
    }
    return std::nullopt;
}

std::optional<LegalMoves> legal_from_json(const json& j) {
    if (!j.is_object()) return std::nullopt;
    LegalMoves m;
    m.any = true;
    const std::string kind = j.value("kind", "");
    if (kind == "play") {
        m.kind = ActionKind::play;
        m.cards = cards_of(j, "cards");
    } else if (kind == "pass") {
        m.kind = ActionKind::pass;
        m.cards = cards_of(j, "cards");
        m.pass_count = int_of(j, "count");
        m.back_count = int_of(j, "back_count");
    } else if (kind == "bid") {
        m.kind = ActionKind::bid;
        for (const auto& b : j.value("bids", json::array())) {
            const int n = b.is_string() ? 0 : b.is_number_integer() ? b.get<int>() : -1;
            if (n >= 0 && n < 32) m.bids |= 1u << n;
        }
        // Blind nil: the cards face down, no bids yet.
        m.blind_nil = j.value("blind_nil", false);
        m.show_cards = j.value("show_cards", false);
    } else if (kind == "moon") {
        m.kind = ActionKind::moon;
        for (const auto& c : j.value("choices", json::array())) {
            m.moon_add |= c == "add";
            m.moon_subtract |= c == "subtract";
        }
    } else if (kind == "choose") {
        m.kind = ActionKind::choose;
        for (const auto& c : j.value("choices", json::array())) {
            m.choose_spades |= c == "spades";
            m.choose_hearts |= c == "hearts";
        }
    } else {
        return std::nullopt;
    }
    return m;
}

}  // namespace

SeatPlayer::SeatPlayer(BotLevel level, const BotOptions& options, std::uint64_t seed)
    : level_(level), options_(options), seed_(seed) {}

void SeatPlayer::start_game(const Ruleset& rules) {
    rules_ = rules;
    ++game_;
    if (seat_ >= 0) {
        memory_.emplace(rules, static_cast<Seat>(seat_));
        rng_.emplace(seed_ + static_cast<std::uint64_t>(game_), 0x626f74ULL + static_cast<std::uint64_t>(seat_));
    }
    trick_ = {};
    trick_number_ = 0;
    hearts_broken_ = spades_broken_ = false;
}

void SeatPlayer::on_engine_event(const json& e) {
    const std::string type = e.value("type", "");
    if (type == "game_started") {
        auto rules = ruleset_from_json(e.at("ruleset"));
        if (!rules) throw std::runtime_error("a ruleset the bot cannot read: " + rules.error().message());
        start_game(*rules);
        return;
    }
    if (type == "game_over") {
        ++games_over_;
        last_over_ = e;
    }
    const auto event = event_from_json(e);
    if (!event) return;
    if (memory_) memory_->observe(*event);
    if (const auto* h = std::get_if<HandStarted>(&*event)) {
        (void)h;
        trick_ = {};
        trick_number_ = 0;
        hearts_broken_ = spades_broken_ = false;
        blind_nils_ = 0;
        pass_count_ = pass_distance_ = pass_round_ = pass_back_count_ = 0;
    } else if (const auto* p = std::get_if<PassingStarted>(&*event)) {
        pass_count_ = p->count;
        pass_distance_ = p->distance;
        pass_round_ = p->round;
        pass_back_count_ = p->back_count;
    } else if (const auto* ps = std::get_if<PlayStarted>(&*event)) {
        trick_ = {};
        trick_.leader = ps->leader;
        trick_number_ = 1;
    } else if (const auto* c = std::get_if<CardPlayed>(&*event)) {
        if (trick_.count == 0 && trick_.leader == kNoSeat) trick_.leader = c->seat;
        if (trick_.count < kMaxSeats) trick_.cards[trick_.count++] = c->card;
        trick_number_ = c->trick;
    } else if (const auto* t = std::get_if<TrickWon>(&*event)) {
        trick_ = {};
        trick_.leader = t->winner;
        trick_number_ = t->trick + 1;
    } else if (const auto* b = std::get_if<BidMade>(&*event); b && b->blind) {
        blind_nils_ = static_cast<std::uint16_t>(blind_nils_ | (1u << b->seat));
    } else if (std::holds_alternative<HeartsBroken>(*event)) {
        hearts_broken_ = true;
    } else if (std::holds_alternative<SpadesBroken>(*event)) {
        spades_broken_ = true;
    }
}

void SeatPlayer::on_snapshot(const json& message) {
    if (message.contains("you") && message["you"].is_number_integer()) seat_ = message["you"].get<int>();
    const json& info = message.value("info", json::object());
    if (info.contains("ruleset")) {
        auto rules = ruleset_from_json(info["ruleset"]);
        if (rules) rules_ = *rules;
    }
    const auto view = message.find("view");
    if (view == message.end() || !view->is_object() || !rules_ || seat_ < 0) return;
    // Sat down with a game running: start this hand's memory from the snapshot.
    start_game(*rules_);
    const json& v = *view;
    memory_->observe(HandStarted{static_cast<std::uint8_t>(int_of(v, "hand_number")), seat_of(v, "dealer"), kind_of(v),
                                 static_cast<std::uint8_t>(rules_->hand_size),
                                 static_cast<std::uint8_t>(rules_->center_size())});
    const CardSet hand = cards_of(v, "hand");
    memory_->observe(CardsDealt{static_cast<Seat>(seat_), static_cast<std::uint8_t>(hand.size()), hand});
    const auto& bids = v.value("bids", json::array());
    blind_nils_ = 0;
    for (std::size_t s = 0; s < bids.size(); ++s) {
        if (bids[s].is_null()) continue;
        const bool blind = bids[s].is_string() && bids[s] == "blind_nil";
        const bool nil = blind || (bids[s].is_string() && bids[s] == "nil");
        const int bid = nil ? 0 : bids[s].is_number_integer() ? bids[s].get<int>() : kHiddenBid;
        memory_->observe(BidMade{static_cast<Seat>(s), static_cast<std::int8_t>(bid), nil, bid == kHiddenBid, blind});
        if (blind) blind_nils_ = static_cast<std::uint16_t>(blind_nils_ | (1u << s));
    }
    // This hand's pass, when it was one round to one seat: where the cards passed went. (A nil
    // pass's view has no distance once play starts: those cards stay unplaced, as does multi-pass.)
    const int n = rules_->seats;
    const CardSet passed = cards_of(v, "cards_passed"), received = cards_of(v, "cards_received");
    if (!passed.empty() && int_of(v, "pass_round") <= 1 && int_of(v, "pass_back_count") == 0 && int_of(v, "pass_distance") > 0) {
        const Seat to = static_cast<Seat>((seat_ + int_of(v, "pass_distance")) % n);
        memory_->observe(CardsPassed{static_cast<Seat>(seat_), to, static_cast<std::uint8_t>(passed.size()), passed});
        if (!received.empty())
            memory_->observe(CardsReceived{static_cast<Seat>(seat_), kNoSeat, static_cast<std::uint8_t>(received.size()), received});
    }
    // The center cards handed out so far: this seat's own, and how many went to others (with
    // two seats, each trick's winner takes some; with more, one seat takes them all at once).
    const int given = int_of(v, "center_given");
    const Seat taker = seat_of(v, "center_taker");
    const CardSet mine = cards_of(v, "center_cards");
    if (given > 0 && taker != kNoSeat) {
        const Seat me = static_cast<Seat>(seat_);
        const int others = given - mine.size();
        const auto took = [&](Seat seat, int count, CardSet cards) {
            if (count > 0) memory_->observe(CenterTaken{seat, static_cast<std::uint8_t>(count), cards});
        };
        // The view's taker, the last to take, is observed last.
        if (taker == me) {
            took(static_cast<Seat>((seat_ + 1) % n), others, CardSet());
            took(me, mine.size(), mine);
        } else {
            took(me, mine.size(), mine);
            took(taker, others, CardSet());
        }
    }
    // The hand's finished tricks and the trick on the table, card by card, as if watched:
    // who played what, who showed a void, who won which cards.
    const auto play = [&](Seat seat, Card card, int trick) {
        memory_->observe(CardPlayed{seat, card, static_cast<std::uint8_t>(trick)});
    };
    for (const auto& t : v.value("past_tricks", json::array())) {
        json won = t;
        won["type"] = "trick_won";
        const auto event = event_from_json(won);
        const auto* w = event ? std::get_if<TrickWon>(&*event) : nullptr;
        if (!w || w->leader == kNoSeat) continue;
        for (int i = 0; i < w->count; ++i) play(static_cast<Seat>((w->leader + i) % n), w->cards[i], w->trick);
        memory_->observe(*event);
    }
    const json& table_trick = v.value("trick", json::object());
    if (const Seat leader = seat_of(table_trick, "leader"); leader != kNoSeat) {
        const int number = int_of(v, "trick_number");
        for (const auto& c : table_trick.value("cards", json::array()))
            if (auto card = card_from_json(c.at("card"))) play(seat_of(c, "seat"), *card, number);
    }
    // The game so far, which no event will tell again: scores and bags (this hand's tricks were
    // told above, trick by trick).
    std::array<std::int32_t, kMaxSeats> scores{};
    std::array<std::int16_t, kMaxSeats> bag_counts{};
    const auto numbers = [&](const char* key, auto& out) {
        const json list = v.value(key, json::array());
        for (std::size_t i = 0; i < list.size() && i < out.size(); ++i)
            if (list[i].is_number_integer()) out[i] = static_cast<std::remove_reference_t<decltype(out[i])>>(list[i].get<int>());
    };
    numbers("scores", scores);
    numbers("bags", bag_counts);
    memory_->resume(scores, bag_counts);
    trick_ = {};
    const json& trick = v.value("trick", json::object());
    trick_.leader = seat_of(trick, "leader");
    for (const auto& c : trick.value("cards", json::array()))
        if (auto card = card_from_json(c.at("card")); card && trick_.count < kMaxSeats) trick_.cards[trick_.count++] = *card;
    trick_number_ = int_of(v, "trick_number");
    hearts_broken_ = v.value("hearts_broken", false);
    spades_broken_ = v.value("spades_broken", false);
    pass_count_ = int_of(v, "pass_count");
    pass_distance_ = int_of(v, "pass_distance");
    pass_round_ = int_of(v, "pass_round");
    pass_back_count_ = int_of(v, "pass_back_count");
}

std::optional<SeatView> SeatPlayer::view_for(const json& legal_json) const {
    if (!rules_ || !memory_ || seat_ < 0) return std::nullopt;
    const auto legal = legal_from_json(legal_json);
    if (!legal) return std::nullopt;
    const Ruleset& rules = *rules_;
    const BotMemory& m = *memory_;
    const Seat me = static_cast<Seat>(seat_);
    GameState st;
    switch (legal->kind) {
        case ActionKind::choose: st.phase = Phase::choosing; break;
        case ActionKind::pass: st.phase = Phase::passing; break;
        case ActionKind::bid: st.phase = Phase::bidding; break;
        case ActionKind::moon: st.phase = Phase::moon_choice; break;
        default: st.phase = Phase::playing; break;
    }
    st.hand = static_cast<std::uint8_t>(m.hand_number());
    st.dealer = m.dealer();
    st.turn = st.phase == Phase::passing ? kNoSeat : me;
    st.hand_rules = hand_rules(rules, m.kind(), m.hand_number(), m.hearts_hands_played());
    st.hearts_hands_played = static_cast<std::uint8_t>(m.hearts_hands_played());
    st.hands_scored = static_cast<std::uint8_t>(m.hands_scored());
    // The hand: dealt cards not passed, or passed and passed back (multi-pass A),
    // and cards received and not passed on.
    const CardSet dealt = m.dealt(), passed = m.passed(), received = m.received();
    st.hands[me] = (dealt & ~passed) | (dealt & passed & received) | (received & ~dealt & ~passed);
    st.hands[me] &= ~m.played_by(me);
    for (int s = 0; s < rules.seats; ++s) st.won[s] = m.won(static_cast<Seat>(s));
    st.won[me] |= m.center_cards();
    st.passed[me] = m.passed();
    st.received[me] = m.received();
    st.center_size = static_cast<std::uint8_t>(std::max(0, rules.center_size()));
    st.center_given = static_cast<std::uint8_t>(m.center_taken());
    st.center_taker = m.center_taker();
    int i = 0;
    for (Card c : m.center_cards())
        if (i < kMaxCenter) st.center[static_cast<std::size_t>(i++)] = c;
    for (int s = 0; s < rules.seats; ++s) {
        st.bids[s] = static_cast<std::int8_t>(m.bid(static_cast<Seat>(s)));
        st.bids_made = static_cast<std::uint8_t>(st.bids_made + (st.bids[s] != BotMemory::kNoBid));
    }
    st.blind = blind_nils_;
    st.trick = trick_;
    st.trick_number = static_cast<std::uint8_t>(st.phase == Phase::playing ? std::max(1, trick_number_) : 0);
    for (int s = 0; s < rules.seats; ++s) st.tricks[s] = static_cast<std::uint8_t>(m.tricks(static_cast<Seat>(s)));
    st.hearts_broken = hearts_broken_;
    st.spades_broken = spades_broken_;
    for (int side = 0; side < rules.sides(); ++side) {
        st.scores[side] = m.score(side);
        st.bags[side] = m.bags(side);
    }
    st.round_count = static_cast<std::uint8_t>(pass_count_);
    st.round_distance = static_cast<std::uint8_t>(pass_distance_);
    st.pass_round = static_cast<std::uint8_t>(pass_round_);
    st.round_back_count = static_cast<std::uint8_t>(pass_back_count_);
    const Game game = Game::resume(rules, 0, st);
    SeatView v = view_of(game, me);
    for (int s = 0; s < rules.seats; ++s)
        if (s != me) v.hand_sizes[s] = static_cast<std::uint8_t>(std::max(0, rules.hand_size - m.played_by(static_cast<Seat>(s)).size()));
    v.center_cards = m.center_cards();  // the state's center holds only these, the rest unknown
    v.waiting_for = static_cast<std::uint16_t>(1u << me);
    v.legal = *legal;
    return v;
}

std::vector<json> SeatPlayer::on_your_turn(const json& message) {
    if (message.value("table", "") != table_) return {};
    const auto view = view_for(message.value("legal", json()));
    if (!view) return {};
    // While passing, every seat still to pass gets a your_turn each time another
    // seat passes: a seat that has passed this round has nothing more to do.
    const int pass_key = game_ * 100000 + view->hand_number * 10 + view->pass_round;
    if (view->legal.kind == ActionKind::pass && pass_key == passed_key_) return {};
    if (!view->legal.any) return {};
    const Action a = decide(level_, *view, *memory_, *rng_, options_);
    ++decisions_;
    if (a.kind == ActionKind::pass) passed_key_ = pass_key;
    return {json{{"type", "act"}, {"table", table_}, {"id", "b" + std::to_string(decisions_)}, {"action", to_json(a)}}};
}

std::vector<json> SeatPlayer::on_message(const json& message) {
    const std::string type = message.value("type", "");
    if (type == "event") {
        if (message.value("table", "") == table_) on_engine_event(message.at("event"));
        return {};
    }
    if (type == "snapshot") {
        if (message.value("table", "") == table_) on_snapshot(message);
        return {};
    }
    if (type == "your_turn") return on_your_turn(message);
    if (type == "ok" && message.value("re", "") == "sit") {
        seat_ = message.value("seat", -1);
        return {};
    }
    if (type == "error" && message.value("re", "") == "act") {
        const std::string code = message.value("code", "");
        // A stale turn (protocol/PROTOCOL.md, your_turn): wait for the next one.
        if (code != "not_your_turn" && code != "wrong_phase" && code != "already_passed") {
            ++refused_;
            last_refusal_ = message.dump();
        }
    }
    return {};
}

}  // namespace sparts::botclient
