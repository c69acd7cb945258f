#include <doctest/doctest.h>

#include "engine/option.hpp"
#include "protocol/ruleset_json.hpp"

using namespace sparts;
using nlohmann::json;

namespace {

Ruleset parsed(const char* text) {
    const auto r = ruleset_from_json(json::parse(text));
    REQUIRE_MESSAGE(r, (r ? "" : r.error().message()));
    return *r;
}

std::string error_of(const char* text) {
    const auto r = ruleset_from_json(json::parse(text));
    REQUIRE_FALSE(r);
    return r.error().message();
}

// Every option's value, as the engine reads it back: two rulesets that agree
// here play the same game.
std::vector<std::string> option_values(const Ruleset& r) {
    std::vector<std::string> values{to_string(r.preset)};
    for (const OptionInfo& o : option_table()) values.push_back(o.get(r));
    return values;
}

}  // namespace

TEST_CASE("a preset with options becomes the engine's ruleset") {
    const Ruleset r = parsed(R"({"preset":"spades","options":{"target_score":250,"mercy_rule":true,"sandbag_penalty":"5"}})");
    CHECK(r.preset == Preset::spades);
    CHECK(r.target_score == 250);
    CHECK(r.mercy_score == -200);
    CHECK(r.bag_threshold == 5);
    CHECK(r.bag_points == 50);
    // Numbers may come as numbers or as the engine's text.
    CHECK(parsed(R"({"preset":"spades","options":{"sandbag_penalty":10}})").bag_threshold == 10);
    CHECK(parsed(R"({"preset":"sparts","options":{"seats":"5"}})").seats == 5);
    CHECK(parsed(R"({"preset":"worldwinner-spades"})").target_score == 250);
    CHECK(parsed(R"({"preset":"bga-sparts","options":{}})").choose_by_seven_of_diamonds);
}

TEST_CASE("a ruleset is written as its preset and the options that differ from the preset's defaults") {
    CHECK(to_json(preset_ruleset(Preset::spades)) == json::parse(R"({"preset":"spades","options":{}})"));
    const Ruleset r = parsed(R"({"preset":"spades","options":{"target_score":250,"mercy_rule":true,"nil_value":0}})");
    // nil_value 0 is the preset's own default, so it is not written.
    CHECK(to_json(r) == json::parse(R"({"preset":"spades","options":{"target_score":250,"mercy_rule":true}})"));
    CHECK(to_json(parsed(R"({"preset":"spades","options":{"sandbag_penalty":"bag-back"}})")) ==
          json::parse(R"({"preset":"spades","options":{"sandbag_penalty":"bag-back"}})"));
    CHECK(to_json(parsed(R"({"preset":"bga-sparts","options":{"game_length":400,"hearts_mode":"traditional"}})")) ==
          json::parse(R"({"preset":"bga-sparts","options":{"game_length":400,"hearts_mode":"traditional"}})"));
}

TEST_CASE("every preset, with and without options, reads back as the same ruleset") {
    std::vector<Ruleset> rulesets;
    for (int p = 0; p < kPresetCount; ++p) rulesets.push_back(preset_ruleset(static_cast<Preset>(p)));
    rulesets.push_back(parsed(R"({"preset":"sparts","options":{"seats":6,"hands":0,"target_score":300,"hand_cap":7}})"));
    rulesets.push_back(parsed(R"({"preset":"spartsel","options":{"seats":7,"scoring":"sparts","hands":3}})"));
    rulesets.push_back(parsed(R"({"preset":"worldwinner-spades","options":{"game_clock":0,"nil_value":100}})"));
    for (const Ruleset& r : rulesets) {
        const json j = to_json(r);
        INFO(j.dump());
        const auto back = ruleset_from_json(j);
        REQUIRE(back);
        CHECK(option_values(*back) == option_values(r));
        CHECK(back->seats == r.seats);
        CHECK(back->hand_size == r.hand_size);
    }
}

TEST_CASE("a bad ruleset says which field is wrong") {
    CHECK(error_of(R"("spades")") == R"(expected a ruleset object like {"preset":"spades","options":{}}, got "spades")");
    CHECK(error_of(R"({})") ==
          "field 'preset': missing; expected a preset name: bga-sparts, sparts, spartsel, spades, worldwinner-spades or hearts");
    CHECK(error_of(R"({"preset":4})") ==
          "field 'preset': expected a preset name: bga-sparts, sparts, spartsel, spades, worldwinner-spades or hearts, got 4");
    CHECK(error_of(R"({"preset":"bridge"})") ==
          "field 'preset': unknown preset 'bridge': expected one of bga-sparts, sparts, spartsel, spades, "
          "worldwinner-spades, hearts");
    CHECK(error_of(R"({"preset":"spades","rules":{}})") ==
          "field 'rules': unknown field in a ruleset; expected only preset, options");
    CHECK(error_of(R"({"preset":"spades","options":[]})") ==
          R"(field 'options': expected an object of option names and values like {"target_score":250}, got an empty array)");
    CHECK(error_of(R"({"preset":"spades","options":{"target_score":2.5}})") ==
          "field 'options.target_score': expected a whole number, true, false or a string, got 2.5");
    CHECK(error_of(R"({"preset":"spades","options":{"target_score":null}})") ==
          "field 'options.target_score': expected a whole number, true, false or a string, got null");
    CHECK(error_of(R"({"preset":"spades","options":{"trumps":"hearts"}})") ==
          "field 'options.trumps': unknown option 'trumps'");
    CHECK(error_of(R"({"preset":"spades","options":{"seats":5}})") ==
          "field 'options.seats': option 'seats' does not apply to spades");
    CHECK(error_of(R"({"preset":"spades","options":{"target_score":-5}})") ==
          "field 'options.target_score': option 'target_score' expects a whole number from 0 to 10000, got '-5'");
    CHECK(error_of(R"({"preset":"spades","options":{"mercy_rule":"maybe"}})") ==
          "field 'options.mercy_rule': option 'mercy_rule' expects true or false, got 'maybe'");
    // Each option valid on its own, the whole not: the game would never end.
    CHECK(error_of(R"({"preset":"sparts","options":{"hands":0}})") ==
          "field 'options': the game needs an end: a target score, a number of hands or a game clock");
}

TEST_CASE("option values are given to the engine as the text it reads") {
    CHECK(*option_text(json(250)) == "250");
    CHECK(*option_text(json(-3)) == "-3");
    CHECK(*option_text(json(true)) == "true");
    CHECK(*option_text(json(false)) == "false");
    CHECK(*option_text(json("bag-back")) == "bag-back");
    CHECK_FALSE(option_text(json::array()));
    CHECK(option_value_json("250") == json(250));
    CHECK(option_value_json("true") == json(true));
    CHECK(option_value_json("seats") == json("seats"));
    CHECK(option_value_json("") == json(""));
}
