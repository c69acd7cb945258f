#include <doctest/doctest.h>

#include "server/base/secret.hpp"

using namespace sparts::server;

TEST_CASE("tokens are 128 random bits, different each time") {
    const std::string a = random_hex(16), b = random_hex(16);
    CHECK(a.size() == 32);
    CHECK(a.find_first_not_of("0123456789abcdef") == std::string::npos);
    CHECK(a != b);
    CHECK(random_hex(6).size() == 12);
}
