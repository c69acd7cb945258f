// Where each thing a client asks goes (net/routes.hpp), in one place: a
// WebSocket request to the lobby, a table or a replay; an HTTP request to the
// admin API or to the archive and ratings.
#pragma once
#include <memory>
#include <string>
#include <string_view>
#include "server/net/hub.hpp"
#include "server/net/routes.hpp"

namespace sparts::server {

class AdminApi;
class ArchiveReader;

class ServerRoutes final : public Routes {
public:
    // `admin` is null without --admin-token-file: then no path is the admin API's.
    ServerRoutes(Hub& hub, ArchiveReader& archive, AdminApi* admin);

    std::unique_ptr<ConnectionRoutes> for_connection(Session& session) override;
    bool is_admin_path(std::string_view path) const override;
    void admin(const HttpRequest& request, const std::string& client, std::function<void(HttpAnswer)> done) override;
    HttpAnswer api(const std::string& target) override;
    std::string metrics_text(std::int64_t sessions_open) override;

private:
    Hub& hub_;
    ArchiveReader& archive_;
    AdminApi* admin_;
};

}  // namespace sparts::server
