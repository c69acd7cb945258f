// Open tables by id, for sessions to find the table a request names. Read on
// every first request to a table, written when one opens or closes; its owner
// is its shared mutex.
#pragma once
#include <functional>
#include <memory>
#include <shared_mutex>
#include <string>
#include <unordered_map>

namespace sparts::server {

class Table;

class TableRegistry {
public:
    std::shared_ptr<Table> find(const std::string& id) const;
    void add(const std::string& id, std::shared_ptr<Table> table);
    void remove(const std::string& id);
    // Removes `id` only if it is `table` (a table that moved away and came back is another
    // object under the same id); whether it did.
    bool remove(const std::string& id, const Table* table);
    std::size_t size() const;
    void for_each(const std::function<void(const std::shared_ptr<Table>&)>& f) const;

private:
    mutable std::shared_mutex mutex_;
    std::unordered_map<std::string, std::shared_ptr<Table>> tables_;
};

}  // namespace sparts::server
