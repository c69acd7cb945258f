// Fuzz target: the game-record reader, parse_game_record (protocol/game_record.hpp).
// A record that parses is
//   - written out again by record_text, which parses back to the same record
//     (and writes out the same text again);
//   - replayed as `sparts verify` does (tools/verify_command.cpp, protocol/replay.hpp):
//     the replay ends or stops at a refused action, with a message; a replay that
//     succeeds on a record with a result has reached the game's end;
//   - played again action by action under the random-play harness's checks
//     (tests/support/play_checks.hpp): its ruleset (any options a record may set)
//     makes a game unless its stacked deals are wrong, each action is accepted
//     exactly when legal_moves() lists it, a refused one changes nothing and is
//     the one replay() names, the invariants hold, and no event or view shows a
//     viewer a card it may not know.
// Any violation aborts.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <span>
#include <string>
#include <string_view>

#include "protocol/game_record.hpp"
#include "protocol/replay.hpp"
#include "support/play_checks.hpp"

using namespace sparts;
using namespace sparts::testing;

namespace {

[[noreturn]] void fail(const char* what, std::string_view detail = {}) {
    std::fprintf(stderr, "parse_game_record fuzz target: %s: %.*s\n", what, static_cast<int>(detail.size()),
                 detail.data());
    std::abort();
}

void checked_replay(const GameRecord& record, const Outcome<Replay, ReplayError>& replayed) {
    auto created = Game::create(record.rules, record.seed, record.deals);
    if (!created) {
        if (record.deals.empty()) fail("a record's validated ruleset makes no game", created.error().message);
        if (replayed) fail("replay() played stacked deals Game::create refuses", created.error().message);
        return;
    }
    Game& g = *created;
    const auto vs = viewers(record.rules.seats);
    Knowledge known(record.rules.seats);
    auto observe = [&](std::span<const Event> events) {
        for (const Event& e : events) {
            known.learn(e);
            if (auto f = event_failure(e, known, vs, record.rules); !f.empty()) fail("an event leaks", f);
        }
        if (auto broken = g.check_invariants(); !broken.empty()) fail("an invariant is broken", broken);
        if (auto f = view_failure(g, known, vs); !f.empty()) fail("a view leaks", f);
    };
    observe(g.start());
    std::size_t i = 0;
    for (; i < record.actions.size(); ++i) {
        const RecordedAction& a = record.actions[i];
        const Agreement agreed = agreement(g, a.seat, a.action);
        if (!agreed.failure.empty()) fail("apply and legal_moves disagree", agreed.failure);
        if (!agreed.legal) break;
        const auto events = g.apply(a.seat, a.action);
        if (!events) fail("a legal action was refused", events.error().message);
        observe(*events);
    }
    const auto* refused = replayed ? nullptr : &replayed.error().refused;
    if (i < record.actions.size() ? !refused || !*refused || (*refused)->index != i : refused && *refused)
        fail("replay() does not stop at the first action legal_moves refuses", replayed ? "" : replayed.error().message);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const auto record = parse_game_record(text);
    if (!record) {
        if (record.error().message().empty()) fail("a refusal with no message");
        return 0;
    }

    const std::string written = record_text(*record);
    const auto again = parse_game_record(written);
    if (!again) fail("record_text wrote a record that does not parse", again.error().message() + "\n" + written);
    if (to_json(*again) != to_json(*record)) fail("record_text does not give the same record back", written);
    if (record_text(*again) != written) fail("record_text is not stable", written);

    const auto replayed = replay(*record);
    checked_replay(*record, replayed);
    if (!replayed) {
        if (replayed.error().message.empty()) fail("a failed replay with no message");
        if (const auto& refused = replayed.error().refused; refused && refused->index >= record->actions.size())
            fail("a replay refused an action past the last", replayed.error().message);
        return 0;
    }
    if (record->result && !replayed->game_over) fail("a record with a result replayed without reaching the end", written);
    return 0;
}
