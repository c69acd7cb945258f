// The table core (server/table/table_core.hpp) with no socket, thread or clock:
// connections that only say who they speak for, times the test chooses, and
// every effect read back as data (frames per connection, writes, timers, a
// strong bot's question). What the end-to-end tests reach through a real
// server, here one path at a time, each way into and out of a seat included.
#include <doctest/doctest.h>

#include <algorithm>
#include <bit>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>

#include "bots/bot.hpp"
#include "engine/random_policy.hpp"
#include "engine/ruleset.hpp"
#include "engine/view.hpp"
#include "protocol/action_json.hpp"
#include "protocol/deal_commitment.hpp"
#include "protocol/ruleset_json.hpp"
#include "server/table/table_core.hpp"

using namespace sparts;
using namespace sparts::server;
using nlohmann::json;

namespace {

// A connection with nobody behind it: the core only names connections in its effects.
class Seatless final : public Connection {
public:
    explicit Seatless(std::string id) : player_(std::make_shared<const Player>(Player{id, "Name " + id})) {}
    void send(Frame) override {}
    void send(std::vector<Frame>) override {}
    void close(CloseCode, std::string) override {}
    void hello_done(PlayerRef) override {}
    void joined(std::shared_ptr<Followed>) override {}
    const PlayerRef& player() const override { return player_; }
    std::uint64_t serial() const override { return serial_; }
    const std::string& address() const override { return address_; }

private:
    PlayerRef player_;
    std::uint64_t serial_ = 1;
    std::string address_ = "192.0.2.1";
};
using Conn = std::shared_ptr<Seatless>;

Conn person(const std::string& id) { return std::make_shared<Seatless>(id); }

// The frames `c` was sent in `fx`, parsed, in order.
std::vector<json> frames_to(const TableEffects& fx, const Conn& c) {
    std::vector<json> out;
    for (const auto& [to, frame] : fx.step.sends)
        if (to == c) out.push_back(json::parse(*frame));
    return out;
}

// The events (their bodies) among `frames`, of `type` when given.
std::vector<json> events_in(const std::vector<json>& frames, const std::string& type = {}) {
    std::vector<json> out;
    for (const auto& f : frames)
        if (f["type"] == "event" && (type.empty() || f["event"]["type"] == type)) out.push_back(f["event"]);
    return out;
}

const json* reply_in(const std::vector<json>& frames) {
    for (const auto& f : frames)
        if (f["type"] == "ok" || f["type"] == "error") return &f;
    return nullptr;
}

template <class W>
int writes_of(const TableEffects& fx) {
    return static_cast<int>(std::count_if(fx.step.batch.begin(), fx.step.batch.end(),
                                          [](const storage::Write& w) { return std::holds_alternative<W>(w); }));
}

struct Bench {
    Metrics metrics;
    TableSettings settings;
    Moment now{TableClock::time_point{} + std::chrono::hours(1), 1'800'000'000'000};
    std::uint64_t next_seed = 42;
    std::unique_ptr<TableCore> core;
    // The latest order per timer, as a shell keeps them: when each is due, and its generation.
    std::map<TableTimer, TableClock::time_point> due;
    std::map<TableTimer, std::uint64_t> gens;

    explicit Bench(Preset preset = Preset::spades, int turn_seconds = 0, bool is_private = false,
                   std::string creator = "creator")
        : Bench(preset_ruleset(preset), turn_seconds, is_private, std::move(creator)) {}
    Bench(Ruleset rules, int turn_seconds, bool is_private, std::string creator) {
        settings.stored = true;
        settings.webhook = true;
        settings.bot_delay_ms = 400;
        settings.absent_after_missed_turns = 2;
        settings.grace_seconds = 120;
        core = std::make_unique<TableCore>(settings, metrics,
                                           TableIdentity{"t1", 1, rules, is_private, "code",
                                                         turn_seconds, std::move(creator)},
                                           dice());
    }
    TableDice dice() {
        return {[this] { return next_seed++; }, [] { return std::string(kDealSaltLength, 'a'); }};
    }
    // Keeps the timer orders as the shell would: the latest wins.
    TableEffects note(TableEffects fx) {
        for (const auto& o : fx.timers) {
            if (o.stop) due.erase(o.timer);
            else due[o.timer] = o.at;
            gens[o.timer] = o.generation;
        }
        return fx;
    }
    TableEffects ask(const Conn& c, TableRequestBody body, int id = 1) {
        return note(core->request(c, c->player(), TableRequest{json(id), std::move(body)}, now));
    }
    // Lets time run to `t`'s deadline and fires it.
    TableEffects fire(TableTimer t) {
        REQUIRE(due.count(t) == 1);
        now.steady = std::max(now.steady, due[t]);
        now.wall += 1000;
        due.erase(t);
        return note(core->timer_fired(t, gens[t], now));
    }
    bool armed_now(TableTimer t) const { return due.count(t) == 1; }
    const Game& game() const {
        REQUIRE(core->game() != nullptr);
        return *core->game();
    }
    // A legal move for `seat` now.
    Action legal_for(int seat) {
        const Game& g = game();
        BotMemory memory(core->identity().rules, static_cast<Seat>(seat));
        Rng rng(7, static_cast<std::uint64_t>(seat));
        return decide(BotLevel::random, view_of(g, static_cast<Seat>(seat)), memory, rng);
    }
    int on_turn() const {
        const std::uint16_t w = core->game()->waiting_for();
        for (int s = 0; s < kMaxSeats; ++s)
            if ((w >> s) & 1) return s;
        return -1;
    }
};

// Four people at a Spades table, seats 0-3, the game started.
struct FourAtTable : Bench {
    std::vector<Conn> people{person("pa"), person("pb"), person("pc"), person("pd")};
    TableEffects started;
    explicit FourAtTable(int turn_seconds = 0) : Bench(Preset::spades, turn_seconds) {
        for (int i = 0; i < 4; ++i) ask(people[static_cast<std::size_t>(i)], Sit{"t1", i, ""});
        started = ask(people[0], Start{"t1"});
    }
};

}  // namespace

TEST_SUITE("table_core") {

TEST_CASE("a sit is answered, told to everyone following, stored, and changes the lobby's copy") {
    Bench b;
    auto ann = person("ann"), bob = person("bob");
    auto fx = b.ask(ann, Sit{"t1", std::nullopt, ""});
    auto mine = frames_to(fx, ann);
    REQUIRE(reply_in(mine));
    CHECK((*reply_in(mine))["type"] == "ok");
    CHECK((*reply_in(mine))["seat"] == 0);
    CHECK(events_in(mine, "seat_taken").size() == 1);
    CHECK(std::any_of(mine.begin(), mine.end(), [](const json& f) { return f["type"] == "snapshot"; }));
    CHECK(writes_of<storage::PutSeat>(fx) == 1);
    CHECK(writes_of<storage::AppendEvent>(fx) == 1);
    CHECK(fx.summary_changed);
    REQUIRE(fx.followed_by.size() == 1);
    CHECK(fx.followed_by[0] == ann);
    CHECK(b.core->seq() == 1);

    auto fx2 = b.ask(bob, Sit{"t1", std::nullopt, ""});
    // Ann hears of Bob's seat; Bob gets the next free seat.
    CHECK(events_in(frames_to(fx2, ann), "seat_taken").at(0)["seat"] == 1);
    CHECK((*reply_in(frames_to(fx2, bob)))["seat"] == 1);
    CHECK(b.core->summary().seat_players[1] == "bob");
}

TEST_CASE("refused sits change nothing: wrong invite, no such seat, a taken seat, a full table, a removed player") {
    Bench priv(Preset::spades, 0, true);
    auto ann = person("ann");
    auto fx = priv.ask(ann, Sit{"t1", std::nullopt, "nope"});
    CHECK((*reply_in(frames_to(fx, ann)))["code"] == "wrong_invite");
    CHECK(fx.step.batch.empty());
    CHECK(priv.core->seq() == 0);
    CHECK((*reply_in(frames_to(priv.ask(ann, Sit{"t1", 9, "code"}), ann)))["code"] == "bad_seat");
    CHECK((*reply_in(frames_to(priv.ask(ann, Sit{"t1", 2, "code"}), ann)))["seat"] == 2);

    Bench b;
    std::vector<Conn> four{person("a"), person("b"), person("c"), person("d")};
    for (auto& c : four) b.ask(c, Sit{"t1", std::nullopt, ""});
    auto late = person("e");
    CHECK((*reply_in(frames_to(b.ask(late, Sit{"t1", std::nullopt, ""}), late)))["code"] == "table_full");
    const auto seq = b.core->seq();
    auto taken = b.ask(late, Sit{"t1", 1, ""});
    CHECK((*reply_in(frames_to(taken, late)))["code"] == "seat_taken");
    CHECK(taken.step.batch.empty());
    CHECK(b.core->seq() == seq);
}

TEST_CASE("start needs a seat and every seat filled, the deal shows each seat only its own hand") {
    Bench b;
    auto ann = person("ann"), rail = person("rail");
    CHECK((*reply_in(frames_to(b.ask(ann, Start{"t1"}), ann)))["code"] == "not_seated");
    b.ask(ann, Sit{"t1", 0, ""});
    CHECK((*reply_in(frames_to(b.ask(ann, Start{"t1"}), ann)))["code"] == "seats_not_full");
    for (int s = 1; s < 4; ++s) b.ask(ann, AddBot{"t1", s, "basic"});
    b.ask(rail, Watch{"t1", ""});
    auto fx = b.ask(ann, Start{"t1"});
    CHECK((*reply_in(frames_to(fx, ann)))["type"] == "ok");
    CHECK(writes_of<storage::StartGame>(fx) == 1);
    CHECK(b.metrics.games_started.load() == 1);
    // The table moved from the gauge of waiting tables to the playing ones.
    CHECK(b.metrics.tables_waiting.load() == 0);
    CHECK(b.metrics.tables_playing.load() == 1);
    // One cards_dealt a seat; the seat's own names its cards, the others' and the spectator's do not.
    auto dealt = events_in(frames_to(fx, ann), "cards_dealt");
    REQUIRE(dealt.size() == 4);
    int with_cards = 0;
    for (const auto& e : dealt)
        if (e.contains("cards")) {
            ++with_cards;
            CHECK(e["seat"] == 0);
            CHECK(e["cards"].size() == 13);
        }
    CHECK(with_cards == 1);
    auto seen = events_in(frames_to(fx, rail), "cards_dealt");
    REQUIRE(seen.size() == 4);
    for (const auto& e : seen) CHECK_FALSE(e.contains("cards"));
    CHECK(events_in(frames_to(fx, rail)).size() == events_in(frames_to(fx, ann)).size());
    // The game's deal is committed to before a card is seen.
    auto started = events_in(frames_to(fx, ann), "game_started");
    REQUIRE(started.size() == 1);
    CHECK(started[0]["deal_commitment"] == deal_commitment(42, std::string(kDealSaltLength, 'a')));
    CHECK((*reply_in(frames_to(b.ask(ann, Start{"t1"}), ann)))["code"] == "already_started");
}

TEST_CASE("acts: the seat on turn plays, others are refused with the engine's code, spectators may not act") {
    FourAtTable t;
    int seat = t.on_turn();
    REQUIRE(seat >= 0);
    auto& c = t.people[static_cast<std::size_t>(seat)];
    auto prompts = frames_to(t.started, c);
    CHECK(std::any_of(prompts.begin(), prompts.end(), [](const json& f) { return f["type"] == "your_turn"; }));
    auto& other = t.people[static_cast<std::size_t>((seat + 1) % 4)];
    auto refused = t.ask(other, Act{"t1", t.legal_for(seat)});
    CHECK((*reply_in(frames_to(refused, other)))["code"] == "not_your_turn");
    CHECK(refused.step.batch.empty());
    auto rail = person("rail");
    t.ask(rail, Watch{"t1", ""});
    CHECK((*reply_in(frames_to(t.ask(rail, Act{"t1", t.legal_for(seat)}), rail)))["code"] == "spectator_cannot_act");
    const auto before = t.core->seq();
    t.now.steady += std::chrono::milliseconds(5);
    auto fx = t.ask(c, Act{"t1", t.legal_for(seat)});
    CHECK((*reply_in(frames_to(fx, c)))["seq"] == t.core->seq());
    CHECK(t.core->seq() > before);
    CHECK(writes_of<storage::EngineEvents>(fx) == 1);
    CHECK(fx.step.acted == t.now.steady);
    CHECK(t.metrics.actions.load() == 1);
    // Every follower gets every seq: the same count of events each.
    for (const auto& p : t.people) CHECK(events_in(frames_to(fx, p)).size() == t.core->seq() - before);
}

TEST_CASE("a turn that runs out is played by the absent seats' bot, after enough in a row the seat is absent") {
    FourAtTable t(30);
    REQUIRE(t.armed_now(TableTimer::turn));
    CHECK(t.due[TableTimer::turn] == t.now.steady + std::chrono::seconds(30));
    const int seat = t.on_turn();
    auto first = t.fire(TableTimer::turn);
    auto told = events_in(frames_to(first, t.people[0]), "turn_timed_out");
    REQUIRE(told.size() == 1);
    CHECK(told[0]["seat"] == seat);
    CHECK(writes_of<storage::EngineEvents>(first) == 1);  // the bot's move
    CHECK(t.metrics.turns_timed_out.load() == 1);
    CHECK(events_in(frames_to(first, t.people[0]), "seat_absent").empty());
    // Play the others until `seat` is on turn again, then let it run out once more.
    for (int guard = 0; guard < 8 && t.on_turn() != seat; ++guard) {
        const int s = t.on_turn();
        t.ask(t.people[static_cast<std::size_t>(s)], Act{"t1", t.legal_for(s)});
    }
    REQUIRE(t.on_turn() == seat);
    auto second = t.fire(TableTimer::turn);
    CHECK(events_in(frames_to(second, t.people[0]), "seat_absent").size() == 1);
    // Absent: the bot plays it at the bot pace, no longer on the turn clock, until its holder acts.
    for (int guard = 0; guard < 8 && t.on_turn() != seat; ++guard) {
        const int s = t.on_turn();
        t.ask(t.people[static_cast<std::size_t>(s)], Act{"t1", t.legal_for(s)});
    }
    REQUIRE(t.on_turn() == seat);
    CHECK(t.armed_now(TableTimer::bot));
    auto back = t.ask(t.people[static_cast<std::size_t>(seat)], Act{"t1", t.legal_for(seat)});
    CHECK(events_in(frames_to(back, t.people[0]), "seat_returned").size() == 1);
}

// Hearts with moon_scoring "choose": the deal comes from a seed the engine found, in which
// random play shoots the moon; the four people play exactly those actions.
TEST_CASE("hearts, the shooter chooses: moon_shot to everyone, your_turn to the shooter alone, its answer scores the hand") {
    const Ruleset rules = *make_ruleset("hearts", std::vector<OptionSetting>{{"moon_scoring", "choose"}, {"hand_cap", "1"}});
    std::uint64_t seed = 0;
    std::vector<std::pair<Seat, Action>> plan;
    for (std::uint64_t s = 1; s < 200000 && !seed; ++s) {
        Game g = std::move(*Game::create(rules, s));
        g.start();
        Rng rng(s, 5);
        plan.clear();
        while (g.phase() != Phase::moon_choice && !g.over()) {
            const std::uint16_t w = g.waiting_for();
            const Seat seat = static_cast<Seat>(std::countr_zero(w));
            const Action a = random_action(g.legal_moves(seat), rng);
            plan.emplace_back(seat, a);
            if (!g.apply(seat, a)) FAIL("random play was refused");
        }
        // the shooter played the hand's last card: its clock must start again for the choice
        if (g.phase() == Phase::moon_choice && plan.back().first == g.state().turn) seed = s;
    }
    REQUIRE(seed != 0);
    for (const bool timed_out : {false, true}) {
        CAPTURE(timed_out);
        Bench b(rules, 30, false, "pa");
        b.next_seed = seed;
        std::vector<Conn> people{person("pa"), person("pb"), person("pc"), person("pd")};
        for (int i = 0; i < 4; ++i) b.ask(people[static_cast<std::size_t>(i)], Sit{"t1", i, ""});
        b.ask(people[0], Start{"t1"});
        TableEffects last;
        for (std::size_t i = 0; i < plan.size(); ++i) {
            const auto& [seat, a] = plan[i];
            if (i + 1 == plan.size()) b.now.steady += std::chrono::seconds(25);  // the last card, late
            last = b.ask(people[seat], Act{"t1", a});
            REQUIRE((*reply_in(frames_to(last, people[seat])))["type"] == "ok");
        }
        // The choice is a decision of its own: the shooter's 30 s start again.
        REQUIRE(b.armed_now(TableTimer::turn));
        CHECK(b.due[TableTimer::turn] == b.now.steady + std::chrono::seconds(30));
        const int shooter = b.on_turn();
        REQUIRE(shooter >= 0);
        CHECK(b.game().phase() == Phase::moon_choice);
        for (const auto& p : people) {
            const auto shot = events_in(frames_to(last, p), "moon_shot");
            REQUIRE(shot.size() == 1);
            CHECK(shot[0] == json{{"type", "moon_shot"}, {"seat", shooter}, {"side", shooter}, {"points", 26}});
            CHECK(events_in(frames_to(last, p), "hand_scored").empty());
            // Only the shooter is asked, and with the two answers.
            bool asked = false;
            for (const auto& f : frames_to(last, p))
                if (f["type"] == "your_turn") asked = f["legal"] == json{{"kind", "moon"}, {"choices", {"add", "subtract"}}};
            CHECK(asked == (p == people[static_cast<std::size_t>(shooter)]));
        }
        auto& other = people[static_cast<std::size_t>((shooter + 1) % 4)];
        CHECK((*reply_in(frames_to(b.ask(other, Act{"t1", Action::moon(true)}), other)))["code"] == "not_your_turn");
        REQUIRE(b.armed_now(TableTimer::turn));
        const TableEffects answered = timed_out ? b.fire(TableTimer::turn)
                                                : b.ask(people[static_cast<std::size_t>(shooter)], Act{"t1", Action::moon(true)});
        const auto scored = events_in(frames_to(answered, people[0]), "hand_scored");
        REQUIRE(scored.size() == 1);
        for (int side = 0; side < 4; ++side) {
            CAPTURE(side);
            const json sheet = scored[0]["sides"][static_cast<std::size_t>(side)]["score_sheet"];
            // Answered: subtract. Timed out: the bot answers as `best` would; at 0 to 0 nothing ends, so add.
            const int moon = side == shooter ? (timed_out ? 0 : -26) : (timed_out ? 26 : 0);
            CHECK(sheet.value("moon", 0) == moon);
        }
        if (timed_out) CHECK(events_in(frames_to(answered, people[0]), "turn_timed_out").size() == 1);
        CHECK(b.game().over());
    }
}

TEST_CASE("a timer's firing from an earlier generation does nothing") {
    FourAtTable t(30);
    REQUIRE(t.armed_now(TableTimer::turn));
    const auto stale = t.gens[TableTimer::turn];
    const int seat = t.on_turn();
    t.ask(t.people[static_cast<std::size_t>(seat)], Act{"t1", t.legal_for(seat)});  // re-arms for the next seat
    const auto seq = t.core->seq();
    auto fx = t.core->timer_fired(TableTimer::turn, stale, t.now);
    CHECK(fx.step.empty());
    CHECK(fx.timers.empty());
    CHECK(t.core->seq() == seq);
}

TEST_CASE("bots play one move per delay, a strong bot's question goes off the strand and a stale answer is dropped") {
    Bench b;
    auto ann = person("ann");
    b.ask(ann, Sit{"t1", 0, ""});
    b.ask(ann, AddBot{"t1", 1, "strong"});
    b.ask(ann, AddBot{"t1", 2, "basic"});
    b.ask(ann, AddBot{"t1", 3, "basic"});
    b.ask(ann, Start{"t1"});
    // Play until seat 1 (the strong bot) is on turn, through the bot timer.
    for (int guard = 0; guard < 12 && b.on_turn() != 1; ++guard) {
        if (b.on_turn() == 0) b.ask(ann, Act{"t1", b.legal_for(0)});
        else {
            REQUIRE(b.armed_now(TableTimer::bot));
            CHECK(b.due[TableTimer::bot] >= b.now.steady);
            auto fx = b.fire(TableTimer::bot);
            CHECK(writes_of<storage::EngineEvents>(fx) == 1);  // one move a firing
        }
    }
    REQUIRE(b.on_turn() == 1);
    REQUIRE(b.armed_now(TableTimer::bot));
    auto asked = b.fire(TableTimer::bot);
    REQUIRE(asked.think);
    CHECK(asked.step.empty());  // nothing played yet
    CHECK(asked.think->seat == 1);
    const BotQuestion q = *asked.think;
    const auto seq = b.core->seq();
    // An answer about another moment of the seat (its action count moved) is not applied.
    auto stale = b.core->bot_decided({q.think, q.seat, q.game, q.seat_actions + 1, b.legal_for(1), q.rng}, b.now);
    CHECK(b.core->seq() == seq);
    CHECK(writes_of<storage::EngineEvents>(stale) == 0);
    // ...and with the question answered, the next one is asked again.
    b.note(std::move(stale));
    REQUIRE(b.armed_now(TableTimer::bot));
    auto again = b.fire(TableTimer::bot);
    REQUIRE(again.think);
    const BotQuestion q2 = *again.think;
    CHECK(q2.think > q.think);
    // An answer to the superseded question is dropped; the current one is applied.
    CHECK(b.core->bot_decided({q.think, q.seat, q.game, q.seat_actions, b.legal_for(1), q.rng}, b.now).step.empty());
    auto applied = b.core->bot_decided({q2.think, q2.seat, q2.game, q2.seat_actions, b.legal_for(1), q2.rng}, b.now);
    CHECK(writes_of<storage::EngineEvents>(applied) == 1);
    CHECK(b.core->seq() > seq);
}

TEST_CASE("leaving mid-game: a bot takes the seat, a person may take the bot seat, but not one who held another, "
          "and a snapshot tells that spectator which seat it held") {
    FourAtTable t;
    auto& cara = t.people[2];
    auto fx = t.ask(cara, Leave{"t1"});
    CHECK((*reply_in(frames_to(fx, cara)))["type"] == "ok");
    auto heard = events_in(frames_to(fx, t.people[0]));
    REQUIRE(heard.size() == 2);
    CHECK(heard[0]["type"] == "seat_left");
    CHECK(heard[1]["type"] == "seat_taken");
    CHECK(heard[1]["bot"] == true);
    CHECK(t.core->summary().seat_players[2] == "bot");
    // Ann holds seat 0: the bot's seat is not hers to take this game (she has seen another hand).
    auto ann = t.people[0];
    t.ask(ann, Leave{"t1"});
    CHECK((*reply_in(frames_to(t.ask(ann, Sit{"t1", 2, ""}), ann)))["code"] == "seat_change_mid_game");
    // Watching, she is told the seat she held, the one a client offers her to take over; a
    // newcomer watching is told none.
    auto snapshot_of = [](const std::vector<json>& frames) {
        for (const json& f : frames)
            if (f["type"] == "snapshot") return f;
        FAIL("no snapshot");
        return json();
    };
    CHECK(snapshot_of(frames_to(t.ask(ann, Watch{"t1", ""}), ann))["held_seat"] == 0);
    auto dan = person("dan");
    CHECK_FALSE(snapshot_of(frames_to(t.ask(dan, Watch{"t1", ""}), dan)).contains("held_seat"));
    // Cara may come back to her own seat, and a newcomer may take the other bot seat.
    CHECK((*reply_in(frames_to(t.ask(cara, Sit{"t1", 2, ""}), cara)))["seat"] == 2);
    auto eve = person("eve");
    auto took = t.ask(eve, Sit{"t1", 0, ""});
    CHECK((*reply_in(frames_to(took, eve)))["seat"] == 0);
    CHECK(t.core->summary().seat_players[0] == "eve");
}

TEST_CASE("grace: armed when no person is connected, stopped when one comes back, and the table closes when it runs out") {
    Bench b;
    auto ann = person("ann");
    b.ask(ann, Sit{"t1", 0, ""});
    CHECK_FALSE(b.armed_now(TableTimer::grace));
    std::weak_ptr<Seatless> gone = ann;
    ann.reset();  // the connection went away
    REQUIRE(gone.expired());
    b.note(b.core->connections_changed(b.now));
    REQUIRE(b.armed_now(TableTimer::grace));
    CHECK(b.due[TableTimer::grace] == b.now.steady + std::chrono::seconds(120));
    auto again = person("ann");
    {
        auto back = b.ask(again, Sit{"t1", std::nullopt, ""});
        CHECK((*reply_in(frames_to(back, again)))["seat"] == 0);  // her seat, taken over
        CHECK_FALSE(b.armed_now(TableTimer::grace));
    }  // (the step's frames hold the connection until a shell has sent them)
    again.reset();
    b.note(b.core->connections_changed(b.now));
    auto closed = b.fire(TableTimer::grace);
    CHECK(closed.closed);
    CHECK(b.core->closed());
    CHECK(writes_of<storage::CloseTable>(closed) == 1);
    CHECK(b.metrics.tables_closed.load() == 1);
    auto late = person("late");
    CHECK((*reply_in(frames_to(b.ask(late, Watch{"t1", ""}), late)))["code"] == "no_such_table");
}

TEST_CASE("resume: within the kept history the missed events come again, from further back, a snapshot") {
    FourAtTable t;
    auto& ann = t.people[0];
    const auto seen = t.core->seq();
    for (int i = 0; i < 3; ++i) {
        const int s = t.on_turn();
        t.ask(t.people[static_cast<std::size_t>(s)], Act{"t1", t.legal_for(s)});
    }
    auto fx = t.ask(ann, Resume{"t1", seen});
    auto got = frames_to(fx, ann);
    CHECK((*reply_in(got))["mode"] == "events");
    auto events = events_in(got);
    CHECK(events.size() == t.core->seq() - seen);
    std::uint64_t expected = seen + 1;
    for (const auto& f : got)
        if (f["type"] == "event") CHECK(f["seq"] == expected++);
    // From before the table's history (a restart, or too long ago): a snapshot of the seat's view.
    auto far = t.ask(ann, Resume{"t1", t.core->seq() + 5});
    auto snap = frames_to(far, ann);
    CHECK((*reply_in(snap))["mode"] == "snapshot");
    CHECK(std::any_of(snap.begin(), snap.end(), [&](const json& f) {
        return f["type"] == "snapshot" && f["you"] == 0 && f["seq"] == t.core->seq();
    }));
}

TEST_CASE("a whole game of bots: the deal revealed, the result stored with the webhook's summary in the same step") {
    Bench b;
    auto owner = person("creator");
    for (int s = 0; s < 4; ++s) b.ask(owner, AddBot{"t1", s, "basic"});
    auto rail = person("rail");
    b.ask(rail, Watch{"t1", ""});
    // The creator may add bots without a seat, but a game is started by a seat: bots start none.
    CHECK((*reply_in(frames_to(b.ask(owner, Start{"t1"}), owner)))["code"] == "not_seated");
    // A quick-play table is dealt at once instead.
    b.note(b.core->seat_matched({}, b.now));
    REQUIRE(b.core->game());
    TableEffects last;
    for (int guard = 0; guard < 5000 && !b.game().over(); ++guard) {
        REQUIRE(b.armed_now(TableTimer::bot));
        last = b.fire(TableTimer::bot);
    }
    REQUIRE(b.game().over());
    CHECK(writes_of<storage::FinishGame>(last) == 1);
    CHECK_FALSE(last.step.webhook.empty());
    auto summary = json::parse(last.step.webhook);
    CHECK(summary["type"] == "game_finished");
    CHECK(summary["deal"]["seed"] == "42");
    auto revealed = events_in(frames_to(last, rail), "deal_revealed");
    REQUIRE(revealed.size() == 1);
    CHECK(revealed[0]["seed"] == "42");
    CHECK(events_in(frames_to(last, rail), "game_over").size() == 1);
    CHECK(last.summary_changed);
    CHECK(b.metrics.games_finished.load() == 1);
    CHECK(b.metrics.tables_playing.load() == 0);
    CHECK(b.metrics.tables_over.load() == 1);
    CHECK_FALSE(b.armed_now(TableTimer::bot));
}

TEST_CASE("WorldWinner: the game clock ends the game, and the tournament standings follow the game's end") {
    Bench b(Preset::worldwinner_spades);
    auto ann = person("ann");
    b.ask(ann, Sit{"t1", 0, ""});
    for (int s = 1; s < 4; ++s) b.ask(ann, AddBot{"t1", s, "basic"});
    auto fx = b.ask(ann, Start{"t1"});
    const auto rules = preset_ruleset(Preset::worldwinner_spades);
    REQUIRE(rules.game_clock_seconds > 0);
    REQUIRE(b.armed_now(TableTimer::clock));
    CHECK(b.due[TableTimer::clock] == b.now.steady + std::chrono::seconds(rules.game_clock_seconds));
    CHECK(events_in(frames_to(fx, ann), "game_started").at(0)["clock_ms"] == rules.game_clock_seconds * 1000LL);
    auto over = b.fire(TableTimer::clock);
    REQUIRE(b.game().over());
    auto events = events_in(frames_to(over, ann));
    REQUIRE(events.size() >= 2);
    CHECK(events.back()["type"] == "standings");
    const auto& sides = events.back()["sides"];
    REQUIRE(sides.size() == 2);
    CHECK(sides[0]["seats"] == json::array({0, 2}));
    CHECK(sides[1]["seats"] == json::array({1, 3}));
    // Ended by the clock: no time bonus for anyone.
    CHECK(sides[0]["time_bonus"] == 0);
    CHECK(sides[1]["time_bonus"] == 0);
    CHECK_FALSE(b.armed_now(TableTimer::clock));
}

TEST_CASE("quick play: players take the first seats and bots the rest, dealt and prompted in one step") {
    Bench b;
    auto ann = person("ann"), bob = person("bob");
    auto fx = b.note(b.core->seat_matched({{ann, ann->player()}, {bob, bob->player()}, {nullptr, person("cy")->player()}},
                                          b.now));
    CHECK(b.core->summary().seat_players[0] == "ann");
    CHECK(b.core->summary().seat_players[2] == "cy");  // gone meanwhile: the seat is still theirs
    CHECK(b.core->summary().seat_players[3] == "bot");
    CHECK(writes_of<storage::PutSeat>(fx) == 4);
    CHECK(writes_of<storage::StartGame>(fx) == 1);
    auto to_ann = frames_to(fx, ann);
    REQUIRE(!to_ann.empty());
    // What came before the player connected is in the snapshot: the match, then the snapshot.
    CHECK(to_ann[0]["type"] == "quick_play_matched");
    CHECK(to_ann[0]["seat"] == 0);
    CHECK(to_ann[1]["type"] == "snapshot");
    CHECK(fx.followed_by.size() == 2);
    // Matched twice (a race with the lobby): the second changes nothing.
    CHECK(b.core->seat_matched({{bob, bob->player()}}, b.now).step.empty());
}

TEST_CASE("hand-off: requests are answered table_moved, nothing more is stored, and the followers are let go once") {
    FourAtTable t(30);
    auto rail = person("rail");
    t.ask(rail, Watch{"t1", ""});
    auto fx = t.note(t.core->hand_off(t.now));
    CHECK(fx.step.empty());
    CHECK(t.core->closed());
    CHECK(t.core->moved());
    CHECK_FALSE(t.armed_now(TableTimer::turn));
    CHECK(t.metrics.tables_handed_off.load() == 1);
    auto refused = t.ask(t.people[0], Act{"t1", Action::make_bid(3)});
    CHECK((*reply_in(frames_to(refused, t.people[0])))["code"] == "table_moved");
    CHECK(refused.step.batch.empty());
    auto followers = t.core->let_go();
    CHECK(followers.size() == 5);
    CHECK(t.core->let_go().empty());
}

TEST_CASE("the admin removes a player: a bot plays the seat mid-game and the player may not sit here again") {
    FourAtTable t;
    auto removal = t.core->admin_remove("pb", t.now);
    CHECK(removal.seat == 1);
    CHECK(removal.bot);
    auto told = events_in(frames_to(removal.effects, t.people[1]));
    REQUIRE(!told.empty());
    CHECK(told[0]["type"] == "seat_left");
    CHECK(told[0]["reason"] == "removed_by_admin");
    CHECK(t.core->summary().seat_players[1] == "bot");
    CHECK((*reply_in(frames_to(t.ask(t.people[1], Sit{"t1", 1, ""}), t.people[1])))["code"] == "removed_from_table");
    CHECK(t.core->admin_remove("nobody", t.now).seat == -1);
    auto view = t.core->admin_view();
    REQUIRE(view);
    CHECK(view->info["seats"][1]["bot"] == true);
    t.core->close("closed_by_admin", t.now);
    CHECK(t.core->admin_remove("pa", t.now).seat == -2);
    CHECK_FALSE(t.core->admin_view());
}

TEST_CASE("chat: while a game runs the rail talks among itself, the seats hear each other and the rail hears them") {
    FourAtTable t;
    auto rail = person("rail"), outsider = person("out");
    t.ask(rail, Watch{"t1", ""});
    CHECK((*reply_in(frames_to(t.ask(outsider, Chat{"t1", "hi"}), outsider)))["code"] == "not_at_table");
    const auto seq = t.core->seq();
    auto from_rail = t.ask(rail, Chat{"t1", "go north"});
    for (const auto& p : t.people) CHECK(frames_to(from_rail, p).empty());
    auto rail_hears = frames_to(from_rail, rail);
    CHECK(std::count_if(rail_hears.begin(), rail_hears.end(), [](const json& f) { return f["type"] == "chat"; }) == 1);
    auto from_seat = t.ask(t.people[0], Chat{"t1", "good luck"});
    for (const auto& p : t.people) CHECK(frames_to(from_seat, p).size() >= 1);
    CHECK(frames_to(from_seat, rail).size() == 1);
    CHECK(from_seat.step.batch.empty());  // never stored
    CHECK(t.core->seq() == seq);          // and never numbered
}

TEST_CASE("a table rebuilt from what it stored is the same table: seq, seats, and every seat's view") {
    FourAtTable t;
    std::vector<storage::Write> writes;
    auto keep = [&](const TableEffects& fx) {
        for (const auto& w : fx.step.batch) writes.push_back(w);
    };
    keep(t.started);
    for (int i = 0; i < 9; ++i) {
        const int s = t.on_turn();
        keep(t.ask(t.people[static_cast<std::size_t>(s)], Act{"t1", t.legal_for(s)}));
    }
    storage::OpenTableState stored;
    stored.table = t.core->record(t.now.wall);
    stored.seats.resize(4);
    for (const auto& w : writes) {
        if (const auto* g = std::get_if<storage::StartGame>(&w)) {
            stored.game = g->game;
            stored.seed = g->seed;
            stored.salt = g->salt;
            stored.players = g->players;
            stored.game_started = g->at;
        } else if (const auto* e = std::get_if<storage::EngineEvents>(&w)) {
            if (e->cause) stored.actions.push_back({e->cause->seat, to_json(e->cause->action).dump(), e->seq});
        }
    }
    for (int s = 0; s < 4; ++s) stored.seats[static_cast<std::size_t>(s)] = {"p" + std::string(1, "abcd"[s]), "", false, ""};
    stored.last_seq = t.core->seq();
    Metrics metrics;
    auto back = TableCore::recover(t.settings, metrics, t.dice(), stored, t.now);
    REQUIRE(back);
    CHECK(back->seq() == t.core->seq());
    REQUIRE(back->game());
    CHECK(back->game()->waiting_for() == t.core->game()->waiting_for());
    for (int s = 0; s < 4; ++s) {
        const auto v1 = view_of(*back->game(), static_cast<Seat>(s));
        const auto v2 = view_of(*t.core->game(), static_cast<Seat>(s));
        CHECK(v1.hand == v2.hand);
    }
    // A stored action the engine refuses makes the table unrecoverable, with the reason.
    stored.actions.push_back(stored.actions.front());
    auto broken = TableCore::recover(t.settings, metrics, t.dice(), stored, t.now);
    REQUIRE_FALSE(broken);
    CHECK(broken.error().find("refused on replay") != std::string::npos);
}

TEST_CASE("watching and leaving the rail: a spectator is told, sees no hand, and leaves, once") {
    FourAtTable t;
    auto rail = person("rail");
    auto fx = t.ask(rail, Watch{"t1", ""});
    auto got = frames_to(fx, rail);
    CHECK((*reply_in(got))["type"] == "ok");
    auto snap = std::find_if(got.begin(), got.end(), [](const json& f) { return f["type"] == "snapshot"; });
    REQUIRE(snap != got.end());
    CHECK((*snap)["you"].is_null());
    CHECK(t.core->summary().spectators == 1);
    // Seated players do not watch their own table.
    CHECK((*reply_in(frames_to(t.ask(t.people[0], Watch{"t1", ""}), t.people[0])))["code"] == "already_seated");
    CHECK((*reply_in(frames_to(t.ask(rail, Leave{"t1"}), rail)))["type"] == "ok");
    CHECK(t.core->summary().spectators == 0);
    CHECK((*reply_in(frames_to(t.ask(rail, Leave{"t1"}), rail)))["code"] == "not_at_table");
    // Gone from the rail: the next event reaches the seats only.
    const int s = t.on_turn();
    CHECK(frames_to(t.ask(t.people[static_cast<std::size_t>(s)], Act{"t1", t.legal_for(s)}), rail).empty());
}

TEST_CASE("add_bot: only a seat or the creator adds one, to a free seat, at its level") {
    Bench b(Preset::spades, 0, false, "owner");
    auto owner = person("owner"), stranger = person("stranger"), ann = person("ann");
    CHECK((*reply_in(frames_to(b.ask(stranger, AddBot{"t1", std::nullopt, "basic"}), stranger)))["code"] ==
          "not_seated");
    auto fx = b.ask(owner, AddBot{"t1", 2, "strong"});
    CHECK((*reply_in(frames_to(fx, owner)))["seat"] == 2);
    REQUIRE(writes_of<storage::PutSeat>(fx) == 1);
    for (const auto& w : fx.step.batch)
        if (const auto* seat = std::get_if<storage::PutSeat>(&w)) CHECK(seat->level == "strong");
    b.ask(ann, Sit{"t1", 0, ""});
    CHECK((*reply_in(frames_to(b.ask(ann, AddBot{"t1", 2, "basic"}), ann)))["code"] == "seat_taken");
    CHECK((*reply_in(frames_to(b.ask(ann, AddBot{"t1", 7, "basic"}), ann)))["code"] == "bad_seat");
    CHECK((*reply_in(frames_to(b.ask(ann, AddBot{"t1", std::nullopt, "basic"}), ann)))["seat"] == 1);
    CHECK((*reply_in(frames_to(b.ask(ann, AddBot{"t1", std::nullopt, "basic"}), ann)))["seat"] == 3);
    CHECK((*reply_in(frames_to(b.ask(ann, AddBot{"t1", std::nullopt, "basic"}), ann)))["code"] == "table_full");
}

TEST_CASE("again: refused before the game ends, and the next game deals once every person asked") {
    Ruleset one_hand = preset_ruleset(Preset::spades);
    one_hand.hand_limit = 1;
    Bench b(one_hand, 0, false, "creator");
    auto ann = person("ann"), bob = person("bob");
    b.ask(ann, Sit{"t1", 0, ""});
    b.ask(bob, Sit{"t1", 1, ""});
    b.ask(ann, AddBot{"t1", 2, "basic"});
    b.ask(ann, AddBot{"t1", 3, "basic"});
    b.ask(ann, Start{"t1"});
    CHECK((*reply_in(frames_to(b.ask(ann, Again{"t1"}), ann)))["code"] == "game_not_over");
    for (int guard = 0; guard < 5000 && !b.game().over(); ++guard) {
        const int s = b.on_turn();
        if (s == 0) b.ask(ann, Act{"t1", b.legal_for(0)});
        else if (s == 1) b.ask(bob, Act{"t1", b.legal_for(1)});
        else b.fire(TableTimer::bot);
    }
    REQUIRE(b.game().over());
    auto first = b.ask(ann, Again{"t1"});
    CHECK(events_in(frames_to(first, bob), "again_requested").size() == 1);
    CHECK(writes_of<storage::StartGame>(first) == 0);  // Bob has not asked yet; the bots always agree
    auto second = b.ask(bob, Again{"t1"});
    CHECK(writes_of<storage::StartGame>(second) == 1);
    CHECK(events_in(frames_to(second, ann), "game_started").at(0)["game"] == 2);
    CHECK_FALSE(b.game().over());
}

TEST_CASE("mute: only at the table, not one's own seat, and a muted seat's lines no longer reach the muter") {
    FourAtTable t;
    auto outsider = person("out");
    CHECK((*reply_in(frames_to(t.ask(outsider, Mute{"t1", 1, true}), outsider)))["code"] == "not_at_table");
    CHECK((*reply_in(frames_to(t.ask(t.people[0], Mute{"t1", 0, true}), t.people[0])))["code"] == "bad_seat");
    CHECK((*reply_in(frames_to(t.ask(t.people[0], Mute{"t1", 9, true}), t.people[0])))["code"] == "bad_seat");
    CHECK((*reply_in(frames_to(t.ask(t.people[0], Mute{"t1", 1, true}), t.people[0])))["muted"] == true);
    auto said = t.ask(t.people[1], Chat{"t1", "hello"});
    CHECK(frames_to(said, t.people[0]).empty());
    CHECK(frames_to(said, t.people[2]).size() == 1);
}

TEST_CASE("a closed table answers no_such_table and changes nothing, and closing twice does nothing") {
    FourAtTable t(30);
    auto fx = t.note(t.core->close("closed_by_admin", t.now));
    CHECK(fx.closed);
    CHECK(events_in(frames_to(fx, t.people[0]), "table_closed").at(0)["reason"] == "closed_by_admin");
    CHECK_FALSE(t.armed_now(TableTimer::turn));
    auto again = t.core->close("abandoned", t.now);
    CHECK(again.step.empty());
    CHECK_FALSE(again.closed);
    auto late = t.ask(t.people[0], Act{"t1", Action::make_bid(3)});
    CHECK((*reply_in(frames_to(late, t.people[0])))["code"] == "no_such_table");
    CHECK(late.step.batch.empty());
}

TEST_CASE("the last person seated says leave and only bots remain: the table closes at once, not after the grace") {
    Bench b;
    auto ann = person("ann"), rail = person("rail");
    b.ask(ann, Sit{"t1", 0, ""});
    for (int s = 1; s < 4; ++s) b.ask(ann, AddBot{"t1", s, "basic"});
    b.ask(ann, Start{"t1"});
    b.ask(rail, Watch{"t1", ""});
    auto fx = b.ask(ann, Leave{"t1"});
    CHECK((*reply_in(frames_to(fx, ann)))["type"] == "ok");
    CHECK(fx.closed);
    CHECK(b.core->closed());
    auto told = events_in(frames_to(fx, rail));
    REQUIRE(!told.empty());
    CHECK(told.back()["type"] == "table_closed");
    CHECK(told.back()["reason"] == "everyone_left");
    CHECK(writes_of<storage::CloseTable>(fx) == 1);
    CHECK_FALSE(b.armed_now(TableTimer::bot));
}

TEST_CASE("a table stays open while a person holds a seat, after a disconnection, and when nobody at all is left") {
    SUBCASE("another person still seated") {
        Bench b;
        auto ann = person("ann"), bob = person("bob");
        b.ask(ann, Sit{"t1", 0, ""});
        b.ask(bob, Sit{"t1", 1, ""});
        b.ask(ann, AddBot{"t1", 2, "basic"});
        CHECK_FALSE(b.ask(ann, Leave{"t1"}).closed);
        CHECK_FALSE(b.core->closed());
    }
    SUBCASE("only empty seats: the grace period decides, as before") {
        Bench b;
        auto ann = person("ann");
        b.ask(ann, Sit{"t1", 0, ""});
        CHECK_FALSE(b.ask(ann, Leave{"t1"}).closed);
        CHECK_FALSE(b.core->closed());
    }
    SUBCASE("disconnected, not gone: the grace period") {
        Bench b;
        auto ann = person("ann");
        b.ask(ann, Sit{"t1", 0, ""});
        b.ask(ann, AddBot{"t1", 1, "basic"});
        ann.reset();
        auto fx = b.note(b.core->connections_changed(b.now));
        CHECK_FALSE(fx.closed);
        CHECK(b.armed_now(TableTimer::grace));
    }
}

}  // TEST_SUITE
