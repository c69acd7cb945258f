#include "server/table/table_registry.hpp"

#include <mutex>
#include <vector>

namespace sparts::server {

std::shared_ptr<Table> TableRegistry::find(const std::string& id) const {
    std::shared_lock lock(mutex_);
    auto it = tables_.find(id);
    return it == tables_.end() ? nullptr : it->second;
}

void TableRegistry::add(const std::string& id, std::shared_ptr<Table> table) {
    std::unique_lock lock(mutex_);
    tables_[id] = std::move(table);
}

void TableRegistry::remove(const std::string& id) {
    std::unique_lock lock(mutex_);
    tables_.erase(id);
}

bool TableRegistry::remove(const std::string& id, const Table* table) {
    std::unique_lock lock(mutex_);
    auto it = tables_.find(id);
    if (it == tables_.end() || it->second.get() != table) return false;
    tables_.erase(it);
    return true;
}

std::size_t TableRegistry::size() const {
    std::shared_lock lock(mutex_);
    return tables_.size();
}

void TableRegistry::for_each(const std::function<void(const std::shared_ptr<Table>&)>& f) const {
    std::vector<std::shared_ptr<Table>> all;
    {
        std::shared_lock lock(mutex_);
        all.reserve(tables_.size());
        for (const auto& [id, t] : tables_) all.push_back(t);
    }
    for (const auto& t : all) f(t);
}

}  // namespace sparts::server
