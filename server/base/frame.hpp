// One message as it goes on the wire, shared by every connection it is sent to.
#pragma once

#include <memory>
#include <string>

namespace sparts::server {

using Frame = std::shared_ptr<const std::string>;

}  // namespace sparts::server
