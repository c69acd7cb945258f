#include "server/app/recompute_ratings.hpp"

#include <chrono>
#include <cstdio>
#include <iostream>

#include "storage/backends/open_store.hpp"
#include "storage/rating_rebuild.hpp"

namespace sparts::server {

int recompute_ratings(const Config& config) {
    if (config.database == "none") {
        std::cerr << "--recompute-ratings needs a --database: with none there is no archive\n";
        return 2;
    }
    // Opened as one server alone (no --node-id): refused while any server, or any node of a
    // cluster, uses the database, so that no game ends while the rows are replaced.
    auto store = storage::open_store(config.database, storage::StoreOptions{});
    if (!store) {
        std::cerr << "cannot open the database: " << store.error() << "\n";
        return 1;
    }
    const storage::RebuiltRatings rebuilt = storage::rebuild_ratings(**store);
    for (const auto& why : rebuilt.skipped) std::cout << "skipped " << why << "\n";
    const std::size_t rows = rebuilt.rows.size();
    (*store)->submit({storage::ReplaceRatings{rebuilt.rows}}, nullptr);
    if (!(*store)->flush(std::chrono::seconds(60))) {
        std::cerr << "the ratings could not be written (see the log)\n";
        return 1;
    }
    std::printf("%llu finished games read, %llu rated, %llu skipped: %zu rating rows written\n",
                static_cast<unsigned long long>(rebuilt.games), static_cast<unsigned long long>(rebuilt.rated),
                static_cast<unsigned long long>(rebuilt.skipped.size()), rows);
    return 0;
}

}  // namespace sparts::server
