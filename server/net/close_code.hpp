// The WebSocket close codes this server uses (4000-4999 are for applications;
// PROTOCOL.md lists them for clients).
#pragma once
#include <cstdint>

namespace sparts::server {

enum class CloseCode : std::uint16_t {
    going_away = 1001,       // the server shuts down
    too_big = 1009,          // a frame over max_frame_bytes (sent by Beast)
    rate_limited = 4001,     // kept flooding after rate_limited errors
    too_slow = 4002,         // its write queue went over write_queue_bytes
    too_many_connections = 4003,
    hello_timeout = 4004,    // no hello within hello_timeout_seconds
    table_moved = 4005,      // a table it followed moved to another node of a cluster: reconnect
    banned = 4006,           // its player was banned (the admin API): a hello with its token is refused
};

}  // namespace sparts::server
