// Fuzz target: Game::apply over action sequences. The input picks a preset and
// one of its variants (tests/support/variants.hpp) or options of its own (any
// of the option table's, with values drawn from what each accepts), a seed,
// then a sequence of steps, each one of
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
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/game.hpp"
#include "engine/option.hpp"
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

// What an option accepts, read from its `values` text ("0 | 1-250", "sparts: 4-6;
// spartsel: 2-10", "true | false"): words, and ranges of whole numbers.
struct Accepts {
    std::vector<std::string> words;
    std::vector<std::pair<int, int>> ranges;
};

Accepts accepts(std::string_view values) {
    Accepts a;
    std::size_t i = 0;
    while (i < values.size()) {
        const std::size_t j = values.find_first_of(" |;:,", i);
        const std::string_view word = values.substr(i, j == std::string_view::npos ? values.size() - i : j - i);
        i = j == std::string_view::npos ? values.size() : j + 1;
        if (word.empty() || (j != std::string_view::npos && values[j] == ':')) continue;  // "sparts:" names a family
        int lo = 0, hi = 0;
        const auto dash = word.find('-', 1);
        const char* end = word.data() + word.size();
        if (dash != std::string_view::npos && std::from_chars(word.data(), word.data() + dash, lo).ptr == word.data() + dash &&
            std::from_chars(word.data() + dash + 1, end, hi).ptr == end)
            a.ranges.emplace_back(lo, hi);
        else
            a.words.emplace_back(word);
    }
    return a;
}

// A value for `option` drawn from the bytes: one it accepts, mostly.
std::string option_value(const OptionInfo& option, Bytes& in) {
    const std::uint8_t b = in.u8();
    if (std::string_view(option.name) == "partner_plan") {  // "comma-separated team counts, each 0 or 2-5"
        std::string plan;
        for (int n = b % 4 + 1; n > 0; --n) plan += (plan.empty() ? "" : ",") + std::to_string("02345"[in.u8() % 5] - '0');
        return plan;
    }
    const Accepts a = accepts(option.values);
    const std::size_t choices = a.words.size() + a.ranges.size();
    if (choices == 0 || b == 255) return std::to_string(static_cast<std::int8_t>(in.u8()));  // anything
    const std::size_t k = b % choices;
    if (k < a.words.size()) return a.words[k];
    const auto [lo, hi] = a.ranges[k - a.words.size()];
    const int high = in.u8();
    const int pick = high << 8 | in.u8();
    return std::to_string(lo + pick % (hi - lo + 1));
}

// Up to 7 options of the table that apply to `preset`'s family, from the bytes.
std::vector<OptionSetting> options_from(std::string_view preset, Bytes& in) {
    const auto base = make_ruleset(preset, {});
    if (!base) fail("a preset is refused: " + base.error().message);
    std::vector<const OptionInfo*> applicable;
    for (const OptionInfo& o : option_table())
        if (option_applies(o, base->family())) applicable.push_back(&o);
    std::vector<OptionSetting> options;
    for (int n = in.u8() % 8; n > 0 && !applicable.empty(); --n) {
        const OptionInfo& o = *applicable[in.u8() % applicable.size()];
        options.push_back({o.name, option_value(o, in)});
    }
    return options;
}

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
        // make_ruleset validated the ruleset: the server creates games of it without a second look.
        if (!created) fail("a validated ruleset's game cannot be created: " + created.error().message);
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
    // Byte 1: below 192 one of the preset's variants, else options of the input's own.
    const std::uint8_t pick = in.u8();
    const Variant variant = pick < 192 ? variants[pick % variants.size()]
                                       : Variant{variants[0].preset, options_from(variants[0].preset, in)};
    const auto rules = make_ruleset(variant.preset, variant.options);
    if (!rules) {
        if (pick < 192) fail("a variant is refused: " + rules.error().message);
        return 0;  // options that do not go together
    }
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
            const std::uint8_t seed = in.u8();
            Rng rng(seed, in.u8());
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
