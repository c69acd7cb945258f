// Fuzz target: the server's settings file (--config FILE; server/base/config.hpp),
// `name = value` lines as an operator writes them. The input is the file.
//   - read_config answers, and never throws: a setting it refuses is an error
//     naming what is wrong;
//   - settings it accepts are within their ranges (the limits a stranger meets
//     are never zero or negative) and describe() writes them out;
//   - the same file reads the same twice.
// Any violation aborts.
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <string_view>

#include "server/base/config.hpp"

using namespace sparts::server;

namespace {

[[noreturn]] void fail(const char* what, std::string_view detail = {}) {
    std::fprintf(stderr, "settings_file fuzz target: %s: %.*s\n", what, static_cast<int>(detail.size()), detail.data());
    std::abort();
}

const std::string& file() {
    static const std::string path = "/tmp/sparts-fuzz-settings-" + std::to_string(::getpid()) + ".conf";
    return path;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    {
        std::ofstream out(file(), std::ios::binary | std::ios::trunc);
        out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
    }
    const auto config = read_config({"--config", file()}, {});
    const auto again = read_config({"--config", file()}, {});
    if (bool(config) != bool(again)) fail("two readings differ");
    if (!config) {
        if (config.error().empty()) fail("a refusal without a message");
        if (config.error() != again.error()) fail("two refusals differ", config.error());
        return 0;
    }
    const Config& c = *config;
    if (c.messages_per_second < 1 || c.tables_per_player < 1 || c.tables_per_address < 1 || c.max_tables < 1 ||
        c.connections_per_address < 1 || c.max_connections < 1 || c.write_queue_bytes < 4096 ||
        c.archive_reads_per_minute < 1 || c.players_per_address_per_minute < 1 || c.webhook_concurrency < 1 ||
        c.webhook_queue < 1)
        fail("a limit out of its range was accepted", describe(c));
    if (describe(c) != describe(*again)) fail("two readings describe differently");
    return 0;
}
