// Who hears of a table's life from above it: the lobby, which lists the open
// tables and counts them against their players and addresses. A table tells it
// through this, never by name, so that the table knows nothing of the lobby.
// Both calls are thread-safe (the watcher posts to its own strand).
#pragma once
#include <string>
#include "server/table/table_summary.hpp"

namespace sparts::server {

class Table;

class TableWatcher {
public:
    virtual ~TableWatcher() = default;
    // What the lobby lists of the table changed.
    virtual void table_changed(TableSummary summary) = 0;
    // The table closed (or moved to another node); `table` tells this object from another
    // of the same id that may already be open here again.
    virtual void table_closed(std::string id, std::string creator, const Table* table) = 0;
};

}  // namespace sparts::server
