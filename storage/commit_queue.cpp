#include "storage/commit_queue.hpp"

#include <thread>

#include <spdlog/spdlog.h>

namespace sparts::storage {

void CommitQueue::submit(Pending p) {
    bool wake = false;
    {
        std::lock_guard lock(mutex_);
        queue_.push_back(std::move(p));
        ++submitted_;
        wake = waiting_ == Wait::any || (waiting_ == Wait::enough && queue_.size() >= enough_);
    }
    if (wake) wake_.notify_one();
}

bool CommitQueue::flush(std::optional<std::chrono::milliseconds> limit) {
    std::unique_lock lock(mutex_);
    const std::uint64_t target = submitted_;
    const auto done = [&] { return done_ >= target || (stopping_ && queue_.empty()); };
    if (!limit) {
        finished_.wait(lock, done);
        return true;
    }
    return finished_.wait_for(lock, *limit, done);
}

bool CommitQueue::next(std::deque<Pending>& group, std::optional<Clock::time_point> until) {
    std::unique_lock lock(mutex_);
    waiting_ = Wait::any;
    const auto something = [&] { return stopping_ || !queue_.empty(); };
    if (until) wake_.wait_until(lock, *until, something);
    else wake_.wait(lock, something);
    waiting_ = Wait::none;
    if (queue_.empty()) return !stopping_;  // stopping with everything written, or `until`
    const auto due = last_group_ + interval_;
    if (Clock::now() < due && queue_.size() < enough_) {
        waiting_ = Wait::enough;
        wake_.wait_until(lock, due, [&] { return stopping_ || queue_.size() >= enough_; });
        waiting_ = Wait::none;
    }
    group.swap(queue_);
    last_group_ = Clock::now();
    return true;
}

void CommitQueue::finished(std::uint64_t n) {
    {
        std::lock_guard lock(mutex_);
        done_ += n;
    }
    finished_.notify_all();
}

bool CommitQueue::idle() const {
    std::lock_guard lock(mutex_);
    return queue_.empty() && !stopping_;
}

std::size_t CommitQueue::size() const {
    std::lock_guard lock(mutex_);
    return queue_.size();
}

void CommitQueue::stop() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_all();
    finished_.notify_all();
}

bool CommitQueue::abandoned() const {
    std::lock_guard lock(mutex_);
    return stopping_;
}

std::size_t CommitQueue::drop_all() {
    std::size_t n = 0;
    {
        std::lock_guard lock(mutex_);
        n = queue_.size();
        queue_.clear();
    }
    finished_.notify_all();
    return n;
}

bool CommitQueue::write_group(std::deque<Pending>& group, const std::string& database, std::chrono::milliseconds retry,
                              const Writer& writer) {
    for (int attempt = 1;; ++attempt) {
        try {
            if (writer.commit()) break;
            continue;
        } catch (const std::exception& e) {
            {
                std::lock_guard lock(writer.stats_mutex);
                ++writer.stats.failed_commits;
            }
            if (writer.failed) writer.failed();
            if (abandoned()) {
                spdlog::error("database {}: stopping with {} table steps not committed ({}): no client was shown "
                              "them; they are lost",
                              database, group.size() + drop_all(), writer.explain(e));
                return false;
            }
            spdlog::error("database {}: commit of {} batches failed (attempt {}), retrying in {} ms: {}", database,
                          group.size(), attempt, retry.count(), writer.explain(e));
            std::this_thread::sleep_for(retry);
        }
    }
    std::uint64_t writes = 0;
    for (const Pending& p : group) writes += p.batch.size();
    for (Pending& p : group)
        if (p.done) p.done();
    {
        std::lock_guard lock(writer.stats_mutex);
        writer.stats.batches += group.size();
        writer.stats.writes += writes;
        ++writer.stats.commits;
    }
    finished(group.size());
    group.clear();
    return true;
}

}  // namespace sparts::storage
