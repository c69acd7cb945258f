#include <doctest/doctest.h>

#include "protocol/deal_commitment.hpp"

using namespace sparts;

TEST_CASE("deal commitment: SHA-256 of salt, a colon and the seed in decimal, as sha256sum prints it") {
    // printf '%s' "00112233445566778899aabbccddeeff:1234567890123" | sha256sum
    CHECK(deal_commitment(1234567890123ULL, "00112233445566778899aabbccddeeff") ==
          "d63aa1ae87f1d4465700ed940d33208716a5579f07fe500a50c7f4cd06e386b4");
    // The largest seed is written in full, unsigned (not as a negative 64-bit number).
    CHECK(deal_commitment(18446744073709551615ULL, "00112233445566778899aabbccddeeff") ==
          "7b7de8949fc22965028a5971d44162bad5fc62dad183bba540fc26daefb1900c");
    CHECK(deal_commitment(1, "00112233445566778899aabbccddeeff") != deal_commitment(2, "00112233445566778899aabbccddeeff"));
    CHECK(deal_commitment(1, "00112233445566778899aabbccddeeff") != deal_commitment(1, "00112233445566778899aabbccddeefe"));
}

TEST_CASE("deal commitment: salts and commitments are lowercase hex of their length") {
    CHECK(is_deal_salt("00112233445566778899aabbccddeeff"));
    CHECK_FALSE(is_deal_salt("00112233445566778899AABBCCDDEEFF"));
    CHECK_FALSE(is_deal_salt("00112233445566778899aabbccddeef"));
    CHECK_FALSE(is_deal_salt("00112233445566778899aabbccddeeffa"));
    CHECK_FALSE(is_deal_salt("0011223344556677889-aabbccddeeff"));
    CHECK(is_deal_commitment("d63aa1ae87f1d4465700ed940d33208716a5579f07fe500a50c7f4cd06e386b4"));
    CHECK_FALSE(is_deal_commitment("d63aa1ae87f1d4465700ed940d33208716a5579f07fe500a50c7f4cd06e386b"));
}
