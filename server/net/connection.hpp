// A client's connection as the parts above the network see it: the lobby, a
// table and a replay send it frames, close it, and read who it speaks for,
// without knowing the socket behind it (net/session.hpp is the WebSocket one).
//
// send(), close(), joined() and hello_done() are thread-safe: they post to the
// connection's own strand, so a table's strand or the lobby's may call them.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>
#include "server/base/frame.hpp"
#include "server/base/player.hpp"
#include "server/net/close_code.hpp"

namespace sparts::server {

// Something a connection follows once it sits or watches there (a table): told
// when the connection goes, so that it may look again at who is still there.
class Followed {
public:
    virtual ~Followed() = default;
    virtual const std::string& id() const = 0;
    // A connection following it went away. Thread-safe.
    virtual void connections_changed() = 0;
};

class Connection {
public:
    virtual ~Connection() = default;

    virtual void send(Frame frame) = 0;
    void send(std::string text) { send(std::make_shared<const std::string>(std::move(text))); }
    // Several frames, in order, in one hop to the connection's strand.
    virtual void send(std::vector<Frame> frames) = 0;
    virtual void close(CloseCode code, std::string reason) = 0;

    // From the lobby, when it has answered a hello: who the connection speaks for
    // (null: the hello was refused). The connection reads again only after this.
    virtual void hello_done(PlayerRef player) = 0;
    // From a table: the connection now follows it (a seat or a spectator).
    virtual void joined(std::shared_ptr<Followed> followed) = 0;

    // Who the connection speaks for. Set once, before the connection sends a table any
    // request (which happens after, through a post): a table may read it on its strand.
    virtual const PlayerRef& player() const = 0;
    virtual std::uint64_t serial() const = 0;
    // The client's address key (net/client_address.hpp), as the limits count it.
    virtual const std::string& address() const = 0;
};

}  // namespace sparts::server
