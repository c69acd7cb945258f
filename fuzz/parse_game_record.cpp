// Fuzz target: the game-record reader, parse_game_record (protocol/game_record.hpp).
// A record that parses is
//   - written out again by record_text, which parses back to the same record
//     (and writes out the same text again);
//   - replayed as `sparts verify` does (tools/verify_command.cpp, protocol/replay.hpp):
//     the replay ends or stops at a refused action, with a message; a replay that
//     succeeds on a record with a result has reached the game's end.
// Any violation aborts.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "protocol/game_record.hpp"
#include "protocol/replay.hpp"

using namespace sparts;

namespace {

[[noreturn]] void fail(const char* what, std::string_view detail = {}) {
    std::fprintf(stderr, "parse_game_record fuzz target: %s: %.*s\n", what, static_cast<int>(detail.size()),
                 detail.data());
    std::abort();
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
    if (!replayed) {
        if (replayed.error().message.empty()) fail("a failed replay with no message");
        if (const auto& refused = replayed.error().refused; refused && refused->index >= record->actions.size())
            fail("a replay refused an action past the last", replayed.error().message);
        return 0;
    }
    if (record->result && !replayed->game_over) fail("a record with a result replayed without reaching the end", written);
    return 0;
}
