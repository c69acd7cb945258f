// Bans in the store (the admin API), against both backends: kept across a reopen,
// banned again with a new reason, lifted; and copied by --migrate-from.
#include <doctest/doctest.h>

#include "storage/backends.hpp"
#include "storage/backends/sqlite_to_postgres.hpp"

using namespace sparts;
using namespace sparts::storage;
using sparts::test::PostgresBackend;
using sparts::test::SqliteBackend;

namespace bans_store_test {

void commit(Store& store, Batch batch) {
    store.submit(std::move(batch), nullptr);
    REQUIRE(store.flush(std::chrono::seconds(60)));
}

bool same(const std::vector<StoredBan>& got, const std::vector<StoredBan>& want) {
    if (got.size() != want.size()) return false;
    for (std::size_t i = 0; i < got.size(); ++i)
        if (got[i].player != want[i].player || got[i].reason != want[i].reason || got[i].at != want[i].at) return false;
    return true;
}

}  // namespace bans_store_test

using namespace bans_store_test;

TEST_CASE_TEMPLATE("bans: kept across a reopen, banned again with the new reason, lifted for good", Backend, SqliteBackend,
                   PostgresBackend) {
    const Backend db("bans");
    {
        auto store = db.open();
        CHECK(store->bans().empty());
        commit(*store, {PutBan{"p00000000000000b2", "spam", 1000}, PutBan{"p00000000000000a1", "", 2000}});
        commit(*store, {PutBan{"p00000000000000c3", "cheating", 3000}});
        // Again: the new reason and time, one row still.
        commit(*store, {PutBan{"p00000000000000b2", "spam, again", 4000}});
        commit(*store, {RemoveBan{"p00000000000000c3"}});
        // Lifting a ban there is not changes nothing.
        commit(*store, {RemoveBan{"p0000000000000000"}});
    }
    auto store = db.open();
    CHECK(same(store->bans(), {{"p00000000000000a1", "", 2000}, {"p00000000000000b2", "spam, again", 4000}}));
    CHECK(db.count("SELECT count(*) FROM bans") == 2);
}

TEST_CASE("bans: --migrate-from copies them into PostgreSQL") {
    const SqliteBackend file("bans-migrate");
    {
        auto store = file.open();
        commit(*store, {PutBan{"p00000000000000b2", "spam", 1000}, PutBan{"p00000000000000a1", "cheating", 2000}});
    }
    const PostgresBackend pg("bans_migrate");
    const auto copied = copy_sqlite_to_postgres(file.location(), pg.location());
    REQUIRE_MESSAGE(copied, (copied ? "" : copied.error()));
    auto store = pg.open();
    CHECK(same(store->bans(), {{"p00000000000000a1", "cheating", 2000}, {"p00000000000000b2", "spam", 1000}}));
}
