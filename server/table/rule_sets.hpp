// Named rule sets (docs/OPERATING.md "Named rule sets"): the host's names for a
// preset and its options, such as "Street Spades" for Spades with Joker-Joker-
// Deuce-Deuce, a minimum side bid of 4, 10-for-200 and a target of 350. They are
// read once at start from --rule-sets FILE, a JSON array of
//
//   {"name": "street-spades", "label": "Street Spades",
//    "ruleset": {"preset": "spades", "options": {"joker_deck": "jjdd", ...}}}
//
// and are fixed while the server runs. A table belongs to a rule set when its
// ruleset is exactly the rule set's (the same preset and the same options that
// differ from the preset's), however it was created: there is nothing to store
// and nothing to go stale across a restart. The hello reply lists them, and a
// table's info and list entry name the rule set they belong to.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>
#include <vector>

#include "engine/ruleset.hpp"
#include "protocol/outcome.hpp"

namespace sparts::server {

inline constexpr std::size_t kMaxRuleSets = 50;

struct RuleSet {
    std::string name;       // [a-z0-9][a-z0-9-]{0,31}: in URLs and messages
    std::string label;      // what players read: 1 to 48 characters
    Ruleset rules;
    nlohmann::json ruleset;  // as the server writes rulesets: the preset and the options that differ
    std::string key;         // that JSON's text: the table's ruleset text matches it exactly
};

class RuleSets {
public:
    // The rule sets of a JSON text, or what is wrong (naming the entry and the member).
    static Outcome<RuleSets, std::string> parse(std::string_view text);
    // The rule sets of the file at `path`, or what is wrong with it.
    static Outcome<RuleSets, std::string> read(const std::string& path);

    // The rule set a table with these rules belongs to, if any.
    const RuleSet* of(const Ruleset& rules) const;
    const RuleSet* of_key(const std::string& ruleset_text) const;
    const std::vector<RuleSet>& all() const { return sets_; }
    // [{name, label, ruleset}], in the file's order: the hello reply's rule_sets.
    nlohmann::json to_json() const;
    // {name, label} of a rule set, for a table's info and list entry.
    static nlohmann::json brief(const RuleSet& set);

private:
    std::vector<RuleSet> sets_;
};

}  // namespace sparts::server
