// Counts open connections (WebSocket and plain HTTP alike), in all and per
// remote address, so that one address cannot take every connection. Shared by
// the acceptor and every session; its owner is its mutex (a few operations per
// connection, never per frame).
//
// A connection holds a Ticket for as long as it is counted: the ticket gives
// its place back when it goes, so that no path can forget to. A connection
// from a trusted proxy is counted in the total only (its address is the
// proxy's, shared by every client behind it); once the proxy has named its
// client (a PROXY protocol header) the same ticket counts against the
// client's address too, and a WebSocket upgraded through the proxy (named by
// X-Forwarded-For) is counted against the client's address.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <unordered_map>
#include <utility>

namespace sparts::server {

class ConnectionLimits;

class Ticket {
  public:
    Ticket() = default;
    Ticket(Ticket&& other) noexcept
        : limits_(std::exchange(other.limits_, nullptr)),
          address_(std::move(other.address_)),
          refusal_(other.refusal_),
          refusal_id_(other.refusal_id_) {}
    Ticket& operator=(Ticket&& other) noexcept;
    Ticket(const Ticket&) = delete;
    Ticket& operator=(const Ticket&) = delete;
    ~Ticket() { reset(); }

    // Counted as an open connection (not a refusal in progress, not empty).
    bool admitted() const { return limits_ != nullptr && !refusal_; }
    explicit operator bool() const { return limits_ != nullptr; }
    void reset();

  private:
    friend class ConnectionLimits;
    Ticket(ConnectionLimits* limits, std::string address, bool refusal, std::uint64_t refusal_id = 0)
        : limits_(limits), address_(std::move(address)), refusal_(refusal), refusal_id_(refusal_id) {}
    ConnectionLimits* limits_ = nullptr;
    std::string address_;   // empty: counted in the total only
    bool refusal_ = false;  // holds one of the few places for refusals in flight
    std::uint64_t refusal_id_ = 0;
};

class ConnectionLimits {
  public:
    ConnectionLimits(int per_address, int total) : per_address_(per_address), total_limit_(total) {}

    // One more connection from `address` (empty: the total only), or an empty
    // ticket (nothing counted) when a limit is reached.
    Ticket admit(const std::string& address);
    int open() const;
    // Counts `ticket`, admitted in the total only, against `address` as well,
    // without counting it twice in the total; false, the ticket unchanged, when
    // `address` is at its limit (or the ticket is not such a ticket of ours).
    bool count_against(Ticket& ticket, const std::string& address);
    // Lowers the total limit (to what the process's file descriptors allow).
    void cap_total(int total);
    int total_limit() const;

    // A place for a connection refused at the door that is still being
    // answered (a 503, or a WebSocket close 4003), or an empty ticket: they are
    // few, so that a flood cannot hold file descriptors by being refused slowly.
    // When they are all taken, the oldest refusal still waiting for its request
    // (watch()) is cut short to make room, so that silent connections cannot
    // hold them all: a liveness probe's request arrives with its connection and
    // is answered at once, whatever the flood (/healthz answers 200 even to a
    // refused connection). Empty only when every place is answering a request.
    Ticket refusal();
    // While `refusal` waits for its request, `cut` may be called (from any
    // thread, once) to close its connection and give its place to a newer one.
    void watch(const Ticket& refusal, std::function<void()> cut);
    // The request of `refusal` has arrived: it is answered, never cut short.
    void settle(const Ticket& refusal);
    int refusing() const;

  private:
    friend class Ticket;
    void release(const std::string& address);
    void end_refusal(std::uint64_t id);

    mutable std::mutex mutex_;
    std::unordered_map<std::string, int> by_address_;
    int total_ = 0;
    int per_address_;
    int total_limit_;
    // The refusals in flight, oldest first, each with how to cut it short while it may be.
    std::map<std::uint64_t, std::function<void()>> refusing_;
    std::uint64_t next_refusal_ = 0;
};

}  // namespace sparts::server
