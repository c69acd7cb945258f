// Fuzz target: Game::apply over action sequences. The input picks a preset and
// one of its variants (tests/support/variants.hpp), a seed, then a sequence of
// steps, each one of
//   - a legal action of a waiting seat, chosen by the bytes;
//   - any action of any seat (0..12 or the table), built from the bytes;
//   - one of the random-play harness's probes;
//   - up to 256 actions of the harness's player (to reach later hands and the end);
//   - every card, bid and choice tried for the seat to act;
//   - the table's clock running out.
// The oracle is the random-play harness's (tests/support/play_checks.hpp): an
// action is accepted exactly when legal_moves() lists it, a refused one leaves
// the state unchanged, Game::check_invariants holds after every action, no
// event or view for a viewer shows a card it may not know, and replaying the
// accepted actions from the seed gives identical events. Any violation aborts.
#include <bit>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "engine/game.hpp"
#include "engine/random_policy.hpp"
#include "engine/rng.hpp"
#include "support/fnv.hpp"
#include "support/harness_policy.hpp"
#include "support/play_checks.hpp"
#include "support/variants.hpp"

using namespace sparts;
using namespace sparts::testing;

namespace {

[[noreturn]] void fail(const std::string& what) {
    std::fprintf(stderr, "game_apply fuzz target: %s\n", what.c_str());
    std::abort();
}

// The input, a byte at a time; zeros once it is used up.
class Bytes {
public:
    Bytes(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}
    bool done() const { return at_ >= size_; }
    std::uint8_t u8() { return at_ < size_ ? data_[at_++] : 0; }
    std::uint64_t u64() {
        std::uint64_t v = 0;
        for (int i = 0; i < 8; ++i) v = v << 8 | u8();
        return v;
    }

private:
    const std::uint8_t* data_;
    std::size_t size_;
    std::size_t at_ = 0;
};

const std::vector<std::vector<Variant>>& all_variants() {
    static const std::vector<std::vector<Variant>> v = {variants_of("bga-sparts"), variants_of("sparts"),
                                                        variants_of("spartsel"), variants_of("spades"),
                                                        variants_of("worldwinner-spades")};
    return v;
}

// A card of `hand` (when it has any and the byte says so), else any card id below 128.
Card card_from(std::uint8_t b, CardSet hand) {
    if (b >= 128 && !hand.empty()) return hand.nth(b % hand.size());
    return Card::from_id(static_cast<std::uint8_t>(b & 127));
}

// A legal action of one of the seats the game waits for, chosen by the bytes.
std::pair<Seat, Action> legal_from(const Game& g, Bytes& in) {
    const std::uint16_t waiting = g.waiting_for();
    if (waiting == 0) fail("the game waits for nobody before its end");
    std::uint16_t w = waiting;
    for (int k = in.u8() % std::popcount(waiting); k > 0; --k) w &= static_cast<std::uint16_t>(w - 1);
    const Seat seat = static_cast<Seat>(std::countr_zero(w));
    const LegalMoves m = g.legal_moves(seat);
    if (!m.any) fail("a seat the game waits for has no legal move: seat " + std::to_string(seat));
    const std::uint8_t b = in.u8();
    switch (m.kind) {
        case ActionKind::play: return {seat, Action::play(m.cards.nth(b % m.cards.size()))};
        case ActionKind::bid: {
            std::uint32_t bids = m.bids;
            for (int k = b % std::popcount(bids); k > 0; --k) bids &= bids - 1;
            return {seat, Action::make_bid(std::countr_zero(bids))};
        }
        case ActionKind::choose:
            return {seat, Action::choose(m.choose_spades && (!m.choose_hearts || b % 2 == 0) ? HandKind::spades
                                                                                              : HandKind::hearts)};
        default: {
            Rng rng(b, in.u8());
            return {seat, random_action(m, rng)};
        }
    }
}

// Any action of any seat (0..12, or the table), built from the bytes.
std::pair<Seat, Action> any_from(const Game& g, Bytes& in) {
    const std::uint8_t s = in.u8() % 14;
    const Seat seat = s == 13 ? kTableSeat : static_cast<Seat>(s);
    const CardSet hand = seat < g.rules().seats ? g.state().hands[seat] : CardSet();
    switch (in.u8() % 5) {
        case 0: return {seat, Action::choose(static_cast<HandKind>(in.u8() % 4))};
        case 1: {
            CardSet cards, back;
            for (int n = in.u8() % 6; n > 0; --n) cards.insert(card_from(in.u8(), hand));
            for (int n = in.u8() % 3; n > 0; --n) back.insert(card_from(in.u8(), hand));
            return {seat, Action::pass(cards, back)};
        }
        case 2: return {seat, Action::make_bid(static_cast<std::int8_t>(in.u8()))};
        case 3: return {seat, Action::play(card_from(in.u8(), hand))};
        default: return {seat, Action::clock_expired()};
    }
}

class Run {
public:
    explicit Run(const Ruleset& rules, std::uint64_t seed)
        : rules_(rules), seed_(seed), game_(create(rules, seed)), viewers_(viewers(rules.seats)), knowledge_(rules.seats),
          player_(seed, 1) {
        hash_ = observe(game_.start(), fnv1a(""));
    }

    Game& game() { return game_; }
    Rng& player() { return player_; }

    // The harness's agreement check; a legal action is then applied for good.
    void attempt(Seat seat, const Action& a) {
        const Agreement agreed = agreement(game_, seat, a);
        if (!agreed.failure.empty()) fail(agreed.failure);
        if (agreed.legal) apply(seat, a);
    }

    void apply(Seat seat, const Action& a) {
        const auto r = game_.apply(seat, a);
        if (!r) fail("a legal action was refused: " + r.error().message);
        actions_.emplace_back(seat, a);
        hash_ = observe(*r, hash_);
        if (const auto broken = game_.check_invariants(); !broken.empty())
            fail("invariant broken after " + std::to_string(actions_.size()) + " actions: " + broken);
        if (auto f = view_failure(game_, knowledge_, viewers_); !f.empty()) fail(f);
    }

    std::size_t actions() const { return actions_.size(); }

    // Replayed from the seed, the same actions give the same events.
    void check_replay() const {
        Game again = create(rules_, seed_);
        std::uint64_t h = hash_events(again.start(), fnv1a(""));
        for (const auto& [seat, a] : actions_) {
            const auto r = again.apply(seat, a);
            if (!r) fail("the replay refused a recorded action: " + r.error().message);
            h = hash_events(*r, h);
        }
        if (h != hash_) fail("the replay gave different events");
    }

private:
    static Game create(const Ruleset& rules, std::uint64_t seed) {
        auto created = Game::create(rules, seed);
        if (!created) fail("a variant's game cannot be created: " + created.error().message);
        return std::move(*created);
    }

    std::uint64_t observe(std::span<const Event> events, std::uint64_t h) {
        for (const Event& e : events) {
            knowledge_.learn(e);
            if (auto f = event_failure(e, knowledge_, viewers_, rules_); !f.empty()) fail(f);
        }
        return hash_events(events, h);
    }

    Ruleset rules_;
    std::uint64_t seed_;
    Game game_;
    std::vector<Viewer> viewers_;
    Knowledge knowledge_;
    Rng player_;
    std::uint64_t hash_ = 0;
    std::vector<std::pair<Seat, Action>> actions_;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    Bytes in(data, size);
    const auto& presets = all_variants();
    const auto& variants = presets[in.u8() % presets.size()];
    const Variant& variant = variants[in.u8() % variants.size()];
    const auto rules = make_ruleset(variant.preset, variant.options);
    if (!rules) fail("a variant is refused: " + rules.error().message);
    Run run(*rules, in.u64());
    Game& g = run.game();

    while (!in.done() && !g.over()) {
        const std::uint8_t op = in.u8() % 16;
        if (op < 6) {
            const auto [seat, a] = legal_from(g, in);
            run.attempt(seat, a);
        } else if (op < 9) {
            const auto [seat, a] = any_from(g, in);
            run.attempt(seat, a);
        } else if (op < 11) {
            Rng rng(in.u8(), in.u8());
            Seat seat = 0;
            const Action a = random_probe(g, seat, rng);
            run.attempt(seat, a);
        } else if (op < 14) {
            for (int n = in.u8() + 1; n > 0 && !g.over(); --n) {
                const Seat seat = next_actor(g);
                if (seat == kNoSeat) fail("the game waits for nobody before its end");
                const Action a = harness_action(g, seat, run.player());
                if (!g.legal_moves(seat).contains(a)) fail("the harness chose an action legal_moves does not list");
                run.apply(seat, a);
            }
        } else if (op == 14) {
            long probes = 0, refused = 0;
            const Seat seat = next_actor(g);
            if (auto f = exhaustive_probe_failure(g, seat, probes, refused); !f.empty()) fail(f);
        } else {
            run.attempt(kTableSeat, Action::clock_expired());
        }
    }
    run.check_replay();
    return 0;
}
