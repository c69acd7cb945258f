// Who a connection speaks for, once it has said hello: the player's public id
// (shown to others) and display name. The token that proves it is never kept,
// only its hash, in the lobby.
#pragma once
#include <memory>
#include <string>

namespace sparts::server {

struct Player {
    std::string id;    // "p" + 16 hex digits; public
    std::string name;  // display name
};
using PlayerRef = std::shared_ptr<const Player>;

}  // namespace sparts::server
