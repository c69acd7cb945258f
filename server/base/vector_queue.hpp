// A first-in first-out queue on one vector: what a connection's write queue and
// a table's short lists need. std::deque in libstdc++ allocates a map and a
// 512-byte block as soon as it is constructed, empty or not: about 600 bytes
// for every connection's write queue and every table's three lists, most of
// them empty most of the time. This one holds nothing until used, and gives
// its memory back once emptied after a burst.
//
// References stay valid until the next push or pop (unlike std::deque's,
// which survive a push): callers use an element and then pop it.
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

namespace sparts::server {

template <class T>
class VectorQueue {
public:
    using iterator = typename std::vector<T>::iterator;
    using const_iterator = typename std::vector<T>::const_iterator;

    bool empty() const { return head_ == items_.size(); }
    std::size_t size() const { return items_.size() - head_; }

    T& front() { return items_[head_]; }
    const T& front() const { return items_[head_]; }
    T& back() { return items_.back(); }
    const T& back() const { return items_.back(); }

    iterator begin() { return items_.begin() + static_cast<std::ptrdiff_t>(head_); }
    iterator end() { return items_.end(); }
    const_iterator begin() const { return items_.begin() + static_cast<std::ptrdiff_t>(head_); }
    const_iterator end() const { return items_.end(); }

    void push_back(T item) { items_.push_back(std::move(item)); }

    void pop_front() {
        items_[head_] = T{};  // let go of what it holds now, not when the slot is reused
        if (++head_ == items_.size()) return clear();
        // Spent slots are reclaimed once they are half the vector: each element moves O(1) times.
        if (head_ * 2 >= items_.size() && head_ >= 16) {
            items_.erase(items_.begin(), items_.begin() + static_cast<std::ptrdiff_t>(head_));
            head_ = 0;
        }
    }
    void pop_back() {
        items_.pop_back();
        if (empty()) clear();
    }

    void clear() {
        items_.clear();
        head_ = 0;
        if (items_.capacity() > kKeptCapacity) std::vector<T>().swap(items_);  // a burst's room is not kept
    }

    template <class It>
    void assign(It first, It last) {
        clear();
        items_.assign(first, last);
    }

private:
    static constexpr std::size_t kKeptCapacity = 16;
    std::vector<T> items_;
    std::size_t head_ = 0;
};

}  // namespace sparts::server
