#include <doctest/doctest.h>

#include <regex>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "protocol/event_json.hpp"
#include "protocol/game_record.hpp"
#include "protocol/replay.hpp"
#include "tools/run_program.hpp"

using namespace sparts;
using nlohmann::json;
using test::run_sparts;

TEST_CASE("sparts --help lists every command, and each command has its own help") {
    const auto top = run_sparts("--help");
    CHECK(top.exit_code == 0);
    for (const char* command : {"play", "simulate", "record", "replay", "rules", "verify", "arena"}) {
        INFO(std::string(command));
        CHECK(top.out.find(std::string("  ") + command + " ") != std::string::npos);
        const auto help = run_sparts(std::string(command) + " --help");
        CHECK(help.exit_code == 0);
        CHECK(help.out.starts_with(std::string("usage: sparts ") + command));
    }
    const auto unknown = run_sparts("deal");
    CHECK(unknown.exit_code == 1);
    CHECK(unknown.err.starts_with("sparts: unknown command 'deal'"));
}

TEST_CASE("sparts simulate prints a JSON summary of the games it played") {
    const auto run = run_sparts("simulate --preset spades --option target_score=250 --games 7 --seed 5");
    REQUIRE(run.exit_code == 0);
    const json summary = json::parse(run.out);
    CHECK(summary.at("preset") == "spades");
    CHECK(summary.at("options") == json::parse(R"({"target_score":250})"));
    CHECK(summary.at("games") == 7);
    int reasons = 0;
    for (const auto& [reason, count] : summary.at("end_reasons").items()) reasons += count.get<int>();
    CHECK(reasons == 7);
    CHECK(summary.at("mean_final_score").size() == 2);
    CHECK(summary.at("wins").size() == 2);
    CHECK(summary.at("wins")[0].get<int>() + summary.at("wins")[1].get<int>() >= 7);  // ties share rank 1
    CHECK(summary.at("hands").get<double>() == doctest::Approx(7 * summary.at("mean_hands_per_game").get<double>()));
    CHECK(summary.at("actions").get<int>() > summary.at("hands").get<int>() * 52);
    CHECK(summary.at("elapsed_seconds").get<double>() >= 0);

    // The same seed plays the same games.
    json again = json::parse(run_sparts("simulate --preset spades --option target_score=250 --games 7 --seed 5").out);
    json first = summary;
    first.erase("elapsed_seconds");
    again.erase("elapsed_seconds");
    CHECK(first == again);

    const auto bad = run_sparts("simulate --preset spades --option seats=5");
    CHECK(bad.exit_code == 1);
    CHECK(bad.err.find("option 'seats' does not apply to spades") != std::string::npos);
    CHECK(run_sparts("simulate --games 0").exit_code == 1);
}

TEST_CASE("sparts simulate --records writes records that replay") {
    const auto dir = test::scratch_dir("simulate-records");
    const auto run = run_sparts("simulate --preset bga-sparts --games 3 --seed 9 --records " + test::quoted(dir.string()));
    REQUIRE(run.exit_code == 0);
    int hands = 0;
    for (int n = 1; n <= 3; ++n) {
        const auto record = parse_game_record(test::read_whole(dir / ("game-" + std::to_string(n) + ".json")));
        REQUIRE_MESSAGE(record, (record ? "" : record.error().message()));
        const auto replayed = replay(*record);
        REQUIRE(replayed);
        REQUIRE(replayed->game_over);
        hands += replayed->game_over->hands_played;
    }
    CHECK(hands == json::parse(run.out).at("hands"));
    CHECK_FALSE(std::filesystem::exists(dir / "game-4.json"));
}

TEST_CASE("sparts replay prints the events of a record written by sparts record") {
    const auto dir = test::scratch_dir("record-replay");
    const auto file = (dir / "game.json").string();
    REQUIRE(run_sparts("record --preset sparts --option seats=5 --seed 77 --out " + test::quoted(file)).exit_code == 0);

    const auto run = run_sparts("replay " + test::quoted(file));
    REQUIRE(run.exit_code == 0);
    CHECK(run.err.empty());
    const json out = json::parse(run.out);

    const auto record = parse_game_record(test::read_whole(file));
    REQUIRE(record);
    CHECK(record->seed == 77);
    CHECK(record->rules.seats == 5);
    const auto replayed = replay(*record);
    REQUIRE(replayed);
    REQUIRE(out.at("events").size() == replayed->events.size());
    for (std::size_t i = 0; i < replayed->events.size(); ++i) CHECK(out["events"][i] == to_json(replayed->events[i]));
    CHECK(out.at("game_over") == to_json(*replayed->game_over));
    CHECK(out.at("events").back().at("type") == "game_over");

    // From standard input too, and the same seed writes the same record.
    CHECK(run_sparts("replay -", test::read_whole(file)).out == run.out);
    CHECK(run_sparts("record --preset sparts --option seats=5 --seed 77").out == test::read_whole(file));
}

TEST_CASE("sparts replay of a broken record exits 2, names the first bad action and prints nothing") {
    const auto dir = test::scratch_dir("broken-record");
    const auto run = run_sparts("record --preset spades --seed 3");
    REQUIRE(run.exit_code == 0);
    json record = json::parse(run.out);
    // Action 31 (index 30) played by the wrong seat.
    json& action = record["actions"][30];
    const int seat = action["seat"].get<int>();
    action["seat"] = (seat + 2) % 4;
    const auto file = (dir / "broken.json").string();
    test::write_whole(file, record.dump());

    const auto broken = run_sparts("replay " + test::quoted(file));
    CHECK(broken.exit_code == 2);
    CHECK(broken.out.empty());
    CHECK(broken.err.find("action 31 (index 30) by seat " + std::to_string((seat + 2) % 4)) != std::string::npos);
    CHECK(broken.err.find("not_your_turn") != std::string::npos);

    const auto malformed = run_sparts("replay -", "{\"format\":\"sparts-game-record\",");
    CHECK(malformed.exit_code == 2);
    CHECK(malformed.out.empty());
    CHECK(malformed.err.find("invalid JSON") != std::string::npos);

    const auto bad_card = run_sparts("replay -", R"({"format":"sparts-game-record","version":1,
        "ruleset":{"preset":"spades"},"seed":"1","actions":[{"seat":0,"type":"play","card":"QX"}]})");
    CHECK(bad_card.exit_code == 2);
    CHECK(bad_card.err.find("field 'actions[0].card': expected a card like \"QS\", got \"QX\"") != std::string::npos);

    const auto missing = run_sparts("replay " + test::quoted((dir / "nothing.json").string()));
    CHECK(missing.exit_code == 1);
    CHECK(missing.err.find("cannot open") != std::string::npos);
}

TEST_CASE("sparts verify accepts a record whose replay ends as it says, and refuses one whose scores were changed") {
    const auto run = run_sparts("record --preset worldwinner-spades --seed 12");
    REQUIRE(run.exit_code == 0);
    const auto good = run_sparts("verify -", run.out);
    CHECK(good.exit_code == 0);
    CHECK(good.out.find("verified: worldwinner-spades") != std::string::npos);

    json record = json::parse(run.out);
    REQUIRE(record.contains("result"));
    record["result"]["scores"][0] = record["result"]["scores"][0].get<int>() + 1;
    const auto tampered = run_sparts("verify -", record.dump());
    CHECK(tampered.exit_code == 2);
    CHECK(tampered.out.find("differs from the replay's") != std::string::npos);

    record.erase("result");
    const auto unfinished = run_sparts("verify -", record.dump());
    CHECK(unfinished.exit_code == 2);
    CHECK(unfinished.out.find("records no result") != std::string::npos);
}

TEST_CASE("sparts verify checks a record's deal proof: its commitment, and the one a player was shown") {
    const auto run = run_sparts("record --preset spades --seed 18446744073709551615");
    REQUIRE(run.exit_code == 0);
    json record = json::parse(run.out);
    // printf '%s' "00112233445566778899aabbccddeeff:18446744073709551615" | sha256sum
    const std::string commitment = "7b7de8949fc22965028a5971d44162bad5fc62dad183bba540fc26daefb1900c";
    record["deal"] = {{"salt", "00112233445566778899aabbccddeeff"}, {"commitment", commitment}};
    const auto good = run_sparts("verify -", record.dump());
    CHECK(good.exit_code == 0);
    CHECK(good.out.find(", deals committed to\n") != std::string::npos);
    const auto shown = run_sparts("verify - --commitment " + commitment, record.dump());
    CHECK(shown.exit_code == 0);
    CHECK(shown.out.find("deals committed to as shown") != std::string::npos);

    const auto other = run_sparts("verify - --commitment " + std::string(64, 'a'), record.dump());
    CHECK(other.exit_code == 2);
    CHECK(other.out.find("not the one given with --commitment") != std::string::npos);
    const auto bad_flag = run_sparts("verify - --commitment xyz", record.dump());
    CHECK(bad_flag.exit_code == 1);

    // Another seed than the one committed to: the proof fails, however well the game replays.
    json reseeded = json::parse(run_sparts("record --preset spades --seed 7").out);
    reseeded["deal"] = record["deal"];
    const auto swapped = run_sparts("verify -", reseeded.dump());
    CHECK(swapped.exit_code == 2);
    CHECK(swapped.out.find("the deal proof fails: SHA-256 of its salt and seed is not its commitment") != std::string::npos);

    record.erase("deal");
    const auto none = run_sparts("verify - --commitment " + commitment, record.dump());
    CHECK(none.exit_code == 2);
    CHECK(none.out.find("holds no deal proof") != std::string::npos);
}

TEST_CASE("sparts play takes commands from standard input and ends cleanly at its end") {
    const auto dir = test::scratch_dir("play");
    const auto record_file = (dir / "played.json").string();
    const auto run = run_sparts("play --seed 5 --record " + test::quoted(record_file), "help\nbid 3\nQS\nfoo\nshow\n");
    CHECK(run.exit_code == 0);
    CHECK(run.out.find("Commands:") != std::string::npos);                          // help
    CHECK(run.out.find("Not allowed: cannot bid now: the hand is passing") != std::string::npos);
    CHECK(run.out.find("'foo' is not a command") != std::string::npos);
    CHECK(run.out.find("End of input") != std::string::npos);

    // The person at seat 0 is shown their own cards and no other seat's: before
    // anything is played, every card named is one seat 0 was dealt (no help
    // text this time: its examples name cards).
    const auto quiet = run_sparts("play --seed 5 --record " + test::quoted(record_file), "show\n");
    CHECK(quiet.exit_code == 0);
    const auto record = parse_game_record(test::read_whole(record_file));
    REQUIRE(record);
    const auto replayed = replay(*record);
    REQUIRE(replayed);
    CardSet mine;
    for (const Event& e : replayed->events)
        if (const auto* d = std::get_if<CardsDealt>(&e); d && d->seat == 0) mine = d->cards;
    REQUIRE(mine.size() == 13);
    const std::regex card_name("\\b[2-9TJQKA][CDHS]\\b");
    std::set<std::string> named;
    for (auto it = std::sregex_iterator(quiet.out.begin(), quiet.out.end(), card_name); it != std::sregex_iterator(); ++it)
        named.insert(it->str());
    CHECK(named.size() > 3);
    for (const std::string& c : named) {
        INFO(c);
        CHECK(mine.contains(*parse_card(c)));
    }
}

TEST_CASE("sparts play reaches the end of a game driven through standard input, showing no hidden card") {
    // Five players, so that two cards go to the center and someone takes them
    // unseen. Learn seat 0's hand, then pass three of its cards, bid 0, and offer
    // every card in turn at each prompt: the engine refuses the illegal ones.
    const std::string game = "play --seed 8 --option seats=5 --option hands=1";
    const auto first = run_sparts(game);
    REQUIRE(first.exit_code == 0);
    std::smatch dealt;
    REQUIRE(std::regex_search(first.out, dealt, std::regex("You are dealt: ([^\\n]*)")));
    std::istringstream hand(dealt[1].str());
    std::string a, b, c;
    hand >> a >> b >> c;
    std::string input = "pass " + a + " " + b + " " + c + "\nbid 0\n";
    for (int trick = 0; trick < 10; ++trick)
        for (Card card : CardSet::deck(1, 0)) input += to_string(card) + "\n";

    const auto run = run_sparts(game, input);
    CHECK(run.exit_code == 0);
    std::smatch passed;
    REQUIRE(std::regex_search(run.out, passed, std::regex("You pass ([^\\n]*) to seat 1\\.")));
    CHECK(std::regex_replace(passed[1].str(), std::regex(" +"), " ") == a + " " + b + " " + c);
    CHECK(run.out.find("You bid 0.") != std::string::npos);
    CHECK(run.out.find("Not allowed: ") != std::string::npos);
    CHECK(run.out.find("Hand 1 scored:") != std::string::npos);
    CHECK(run.out.find("=== Game over (hand_limit) after 1 hand(s) ===") != std::string::npos);
    CHECK(run.out.find("End of input") == std::string::npos);

    // Another seat's passed cards and center cards are told without the cards.
    std::smatch line;
    REQUIRE(std::regex_search(run.out, line, std::regex("Seat [1-4] takes the 2 center card\\(s\\)([^\\n]*)")));
    CHECK(line[1].str() == ".");
    REQUIRE(std::regex_search(run.out, line, std::regex("Seat [1-4] has passed([^\\n]*)")));
    CHECK(line[1].str() == ".");
}

TEST_CASE("sparts rules prints every option with its default in each preset") {
    const auto text = run_sparts("rules");
    CHECK(text.exit_code == 0);
    const auto markdown = run_sparts("rules --markdown");
    CHECK(markdown.exit_code == 0);
    CHECK(markdown.out.starts_with("| option | values | families | bga-sparts | sparts | spartsel | spades | worldwinner-spades |"));
    for (const char* name : {"seats", "target_score", "game_length", "sandbag_penalty", "mercy_rule", "hand_cap"}) {
        INFO(std::string(name));
        CHECK(("\n" + text.out).find(std::string("\n") + name + "\n") != std::string::npos);
        CHECK(markdown.out.find(std::string("| `") + name + "` |") != std::string::npos);
    }
    // target_score: none in bga-sparts (game_length instead), 500 in spades, 250 in worldwinner-spades.
    CHECK(text.out.find("defaults: bga-sparts -, sparts 0, spartsel 0, spades 500, worldwinner-spades 250") !=
          std::string::npos);
    CHECK(run_sparts("rules --json").exit_code == 1);
}

TEST_CASE("sparts arena compares bot levels over games, the same on any number of threads") {
    const auto run = run_sparts("arena --preset spades --option target_score=250 --games 6 --seed 2 --json");
    REQUIRE(run.exit_code == 0);
    const json summary = json::parse(run.out);
    CHECK(summary.at("preset") == "spades");
    CHECK(summary.at("games") == 6);
    const json& levels = summary.at("levels");
    REQUIRE(levels.size() == 2);
    CHECK(levels[0].at("level") == "basic");
    CHECK(levels[1].at("level") == "random");
    int wins = 0;
    for (const json& l : levels) {
        CHECK(l.at("games") == 6);  // two sides, two levels: both play every game
        CHECK(l.at("hands").get<int>() >= 6);
        const double mean = l.at("mean_score_per_hand");
        CHECK(l.at("ci95")[0].get<double>() <= mean);
        CHECK(mean <= l.at("ci95")[1].get<double>());
        CHECK(l.at("decisions").get<int>() > 0);
        wins += l.at("wins").get<int>();
    }
    CHECK(wins >= 6);
    CHECK(levels[0].at("mean_score_per_hand").get<double>() > levels[1].at("mean_score_per_hand").get<double>());

    // The same seed gives the same games, on one thread or two.
    auto scores = [](json s) {
        for (json& l : s["levels"]) l.erase("microseconds_per_decision");
        s.erase("elapsed_seconds");
        s.erase("threads");
        return s;
    };
    const json one = json::parse(run_sparts("arena --preset spades --option target_score=250 --games 6 --seed 2 --json --threads 1").out);
    CHECK(scores(one) == scores(summary));

    const auto text = run_sparts("arena --preset sparts --games 3 --levels basic,random,strong --budget-ms 1.5");
    REQUIRE(text.exit_code == 0);
    CHECK(text.out.starts_with("arena: sparts, 3 games, seed 1, strong budget 1.5 ms"));
    CHECK(text.out.find("score/hand") != std::string::npos);
    CHECK(text.out.find("\nstrong ") != std::string::npos);

    // Without the clock, strong's games are the same on any machine and thread count.
    const auto counted = [](const char* threads) {
        json s = json::parse(run_sparts(std::string("arena --preset sparts --games 2 --levels strong,basic --budget-ms 1 "
                                                    "--no-clock --json --threads ") + threads).out);
        CHECK(s.at("clock") == false);
        CHECK(s.at("budget_ms") == 1.0);
        for (json& l : s["levels"]) l.erase("microseconds_per_decision");
        s.erase("elapsed_seconds");
        s.erase("threads");
        return s;
    };
    CHECK(counted("1") == counted("2"));
    CHECK(run_sparts("arena --budget-ms 0").exit_code == 1);
    CHECK(run_sparts("arena --budget-ms fast").exit_code == 1);

    const auto bad = run_sparts("arena --levels basic,expert");
    CHECK(bad.exit_code == 1);
    CHECK(bad.err.find("--levels expects") != std::string::npos);
    CHECK(run_sparts("arena --games 0").exit_code == 1);
    CHECK(run_sparts("arena --preset spades --option seats=5").exit_code == 1);
}
