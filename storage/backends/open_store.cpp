#include "storage/backends/open_store.hpp"

#include "storage/postgres/pg.hpp"

namespace sparts::storage {

Outcome<std::unique_ptr<Store>, std::string> open_store(const std::string& database, const StoreOptions& options) {
    if (pg::is_url(database)) {
        auto opened = PgStore::open(database, options.postgres);
        if (!opened) return opened.error();
        return std::unique_ptr<Store>(std::move(*opened));
    }
    auto opened = SqliteStore::open(database, options.sqlite);
    if (!opened) return opened.error();
    return std::unique_ptr<Store>(std::move(*opened));
}

}  // namespace sparts::storage
