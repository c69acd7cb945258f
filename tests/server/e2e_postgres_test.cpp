// End to end on PostgreSQL: sparts-server with --database postgresql://…
// refuses at start, with a message that says why and without the URL's
// password, a server that does not answer, a bad URL, a database of a newer
// schema or holding tables not ours; and it plays, stores and serves games
// on one it can use, as on SQLite.
#include <doctest/doctest.h>

#include "http_client.hpp"
#include "support/postgres.hpp"
#include "test_client.hpp"
#include "test_server.hpp"

using namespace sparts::e2e;
using sparts::test::TempPgDatabase;

namespace {

void refused(const std::string& url, const std::vector<std::string>& said) {
    const ServerRun run = run_server({"--port", "0", "--database", url});
    const std::string all = run.out + run.err;
    CAPTURE(all);
    REQUIRE(run.status.has_value());
    CHECK(*run.status == 1);
    CHECK(run.out.find("listening on") == std::string::npos);
    for (const auto& s : said) CHECK_MESSAGE(all.find(s) != std::string::npos, s);
    CHECK(all.find("hunter2") == std::string::npos);  // the password is never written out
}

}  // namespace

TEST_CASE("e2e on PostgreSQL: a server that does not answer, a bad URL, a newer schema and a database not ours are "
          "refused at start") {
    refused("postgresql://sparts:hunter2@/sparts?host=/nonexistent-socket-dir&connect_timeout=2",
            {"cannot start", "cannot connect to PostgreSQL", "sparts:***@"});
    refused("postgresql://sparts:hunter2@127.0.0.1:1/sparts?connect_timeout=2",
            {"cannot start", "cannot connect to PostgreSQL", "127.0.0.1"});
    refused("postgresql://sparts:hunter2@/sparts?host=/tmp&sslmode=sometimes", {"cannot start", "invalid sslmode value"});
    refused("postgres://sparts:hunter2@[::1/x", {"cannot start", "not a PostgreSQL URL", "IPv6 host address"});

    TempPgDatabase newer("e2enewer");
    {
        TestServer server({"--database", newer.url()});  // makes the schema
    }
    newer.exec("UPDATE sparts_schema SET version = version + 1");
    refused(newer.url(), {"cannot start", "newer than this server's"});

    TempPgDatabase theirs("e2etheirs");
    theirs.exec("CREATE TABLE orders (id integer)");
    refused(theirs.url(), {"cannot start", "not sparts's", "orders"});

    // And one that is fine, in use by a first server: the second is refused.
    TempPgDatabase used("e2eused");
    TestServer first({"--database", used.url()});
    refused(used.url(), {"cannot start", "in use by another sparts-server"});
    CHECK(first.running());
}
