#include "server/base/log_setup.hpp"

#include <spdlog/pattern_formatter.h>
#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

namespace sparts::server {

namespace {

// %j: the message as a JSON string body (quotes, backslashes and control
// characters escaped), so that every line stays valid JSON.
class JsonMessage final : public spdlog::custom_flag_formatter {
public:
    void format(const spdlog::details::log_msg& msg, const std::tm&, spdlog::memory_buf_t& dest) override {
        static constexpr char kHex[] = "0123456789abcdef";
        for (char c : std::string_view(msg.payload.data(), msg.payload.size())) {
            const auto u = static_cast<unsigned char>(c);
            if (c == '"' || c == '\\') {
                dest.push_back('\\');
                dest.push_back(c);
            } else if (u < 0x20) {
                const char esc[] = {'\\', 'u', '0', '0', kHex[u >> 4], kHex[u & 15]};
                dest.append(esc, esc + 6);
            } else {
                dest.push_back(c);
            }
        }
    }
    std::unique_ptr<custom_flag_formatter> clone() const override { return std::make_unique<JsonMessage>(); }
};

}  // namespace

void setup_logging(const std::string& level, bool json) {
    auto logger = std::make_shared<spdlog::logger>("sparts", std::make_shared<spdlog::sinks::stderr_sink_mt>());
    if (json) {
        auto formatter = std::make_unique<spdlog::pattern_formatter>();
        formatter->add_flag<JsonMessage>('j').set_pattern(
            R"({"time":"%Y-%m-%dT%H:%M:%S.%e%z","level":"%l","thread":%t,"message":"%j"})");
        logger->set_formatter(std::move(formatter));
    } else {
        logger->set_pattern("[%Y-%m-%d %H:%M:%S.%e] [%l] %v");
    }
    logger->set_level(spdlog::level::from_str(level));
    spdlog::set_default_logger(std::move(logger));
}

}  // namespace sparts::server
