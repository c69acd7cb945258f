// A handler's last net. A client's request, an admin's call, an archive read:
// each runs inside guarded(), so that a defect of ours (an exception) is
// counted (sparts_handler_exceptions_total), logged with where it happened,
// and answered by `failed` with an internal error, while the strand or thread
// it ran on goes on with its next handler. The process never ends for a
// request.
#pragma once
#include <exception>
#include <utility>
#include <fmt/format.h>
#include <spdlog/spdlog.h>
#include "server/base/metrics.hpp"

namespace sparts::server {

// `where` (with `args`) is formatted only when `f` throws.
template <class F, class Failed, class... Args>
void guarded(Metrics& metrics, F&& f, Failed&& failed, fmt::format_string<Args...> where, Args&&... args) {
    try {
        std::forward<F>(f)();
    } catch (const std::exception& e) {
        metrics.handler_exceptions.fetch_add(1, std::memory_order_relaxed);
        spdlog::error("{} threw: {}", fmt::format(where, std::forward<Args>(args)...), e.what());
        std::forward<Failed>(failed)();
    }
}

}  // namespace sparts::server
