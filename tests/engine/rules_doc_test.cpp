// docs/RULES.md is the reference a table host or a client author reads: it must
// name every option of the engine's option table and every preset.
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "engine/option.hpp"
#include "engine/ruleset.hpp"

using namespace sparts;

namespace {

std::string read_rules_doc() {
    std::ifstream in(std::string(SPARTS_SOURCE_DIR) + "/docs/RULES.md");
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

}  // namespace

TEST_CASE("rules doc names every option and every preset") {
    const std::string doc = read_rules_doc();
    REQUIRE_MESSAGE(!doc.empty(), "docs/RULES.md is missing or empty");

    REQUIRE(!option_table().empty());
    for (const OptionInfo& o : option_table()) {
        const std::string quoted = std::string("`") + o.name + "`";
        CHECK_MESSAGE(doc.find(quoted) != std::string::npos, "docs/RULES.md does not mention option " << quoted);
    }

    for (int i = 0; i < kPresetCount; ++i) {
        const std::string quoted = std::string("`") + to_string(static_cast<Preset>(i)) + "`";
        CHECK_MESSAGE(doc.find(quoted) != std::string::npos, "docs/RULES.md does not mention preset " << quoted);
    }
}
