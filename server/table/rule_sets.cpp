#include "server/table/rule_sets.hpp"
#include "server/base/ids.hpp"
#include "storage/file_sync.hpp"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "protocol/json_text.hpp"
#include "protocol/ruleset_json.hpp"

namespace sparts::server {

namespace {

// 1 to 48 characters (UTF-8 counted by code points), none a control character.
bool good_label(const std::string& s) {
    std::size_t points = 0;
    for (unsigned char c : s) {
        if (c < 0x20 || c == 0x7f) return false;
        if ((c & 0xc0) != 0x80) ++points;
    }
    return points >= 1 && points <= 48 && s.front() != ' ' && s.back() != ' ';
}

}  // namespace

Outcome<RuleSets, std::string> RuleSets::parse(std::string_view text) {
    auto doc = parse_json_text(text);
    if (!doc) return std::string("not JSON: ") + doc.error().message();
    if (!doc->is_array()) return std::string("expected a JSON array of rule sets like [{\"name\":\"street-spades\",\"label\":\"Street Spades\",\"ruleset\":{\"preset\":\"spades\",\"options\":{}}}]");
    if (doc->size() > kMaxRuleSets) return "at most " + std::to_string(kMaxRuleSets) + " rule sets, not " + std::to_string(doc->size());
    RuleSets out;
    std::set<std::string> names;
    std::map<std::string, std::string> keys;  // the rules' text -> the rule set's name
    for (std::size_t i = 0; i < doc->size(); ++i) {
        const nlohmann::json& e = (*doc)[i];
        const std::string where = "rule set " + std::to_string(i + 1);
        if (!e.is_object()) return where + ": expected an object with name, label and ruleset";
        for (const auto& [member, value] : e.items())
            if (member != "name" && member != "label" && member != "ruleset")
                return where + ": unknown member \"" + member + "\" (expected name, label, ruleset)";
        RuleSet set;
        if (!e.contains("name") || !e["name"].is_string() || !is_rule_set_name(e["name"].get<std::string>()))
            return where + ": name: 1 to 32 of a-z, 0-9 and '-' (not first), like \"street-spades\"";
        set.name = e["name"].get<std::string>();
        const std::string named = "rule set \"" + set.name + "\"";
        if (!e.contains("label") || !e["label"].is_string() || !good_label(e["label"].get<std::string>()))
            return named + ": label: 1 to 48 characters, no control characters, no space at either end";
        set.label = e["label"].get<std::string>();
        if (!e.contains("ruleset")) return named + ": ruleset: missing";
        auto rules = ruleset_from_json(e["ruleset"]);
        if (!rules) return named + ": ruleset: " + rules.error().message();
        set.rules = *rules;
        set.ruleset = sparts::to_json(set.rules);
        set.key = dump_text(set.ruleset);
        if (!names.insert(set.name).second) return named + ": the name is used twice";
        if (const auto [it, added] = keys.emplace(set.key, set.name); !added)
            return named + ": the same rules as an earlier rule set, \"" + it->second + "\"";
        out.sets_.push_back(std::move(set));
    }
    return out;
}

Outcome<RuleSets, std::string> RuleSets::read(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return "cannot read " + path;
    std::ostringstream text;
    text << in.rdbuf();
    auto sets = parse(text.str());
    if (!sets) return path + ": " + sets.error();
    return sets;
}

const RuleSet* RuleSets::of(const Ruleset& rules) const {
    if (sets_.empty()) return nullptr;
    return of_key(dump_text(sparts::to_json(rules)));
}

const RuleSet* RuleSets::find(const std::string& name) const {
    for (const RuleSet& s : sets_)
        if (s.name == name) return &s;
    return nullptr;
}

const RuleSet* RuleSets::of_key(const std::string& ruleset_text) const {
    for (const RuleSet& s : sets_)
        if (s.key == ruleset_text) return &s;
    return nullptr;
}

nlohmann::json RuleSets::to_json() const {
    nlohmann::json list = nlohmann::json::array();
    for (const RuleSet& s : sets_) list.push_back({{"name", s.name}, {"label", s.label}, {"ruleset", s.ruleset}});
    return list;
}

nlohmann::json RuleSets::to_json(const std::map<std::string, std::int64_t>& games) const {
    nlohmann::json list = to_json();
    for (nlohmann::json& set : list) {
        const auto it = games.find(set["name"].get<std::string>());
        set["games"] = it == games.end() ? 0 : it->second;
    }
    return list;
}

nlohmann::json RuleSets::brief(const RuleSet& set) { return {{"name", set.name}, {"label", set.label}}; }

Outcome<RuleSets, std::string> RuleSets::with(const std::string& name, const std::string& label,
                                              const std::string& ruleset_text) const {
    auto rules = parse_json_text(ruleset_text);
    if (!rules) return "rule set \"" + name + "\": ruleset: " + rules.error().message();
    nlohmann::json list = to_json();
    const nlohmann::json entry = {{"name", name}, {"label", label}, {"ruleset", *rules}};
    if (const RuleSet* known = find(name))
        list[static_cast<std::size_t>(known - sets_.data())] = entry;
    else
        list.push_back(entry);
    return parse(dump_text(list));
}

Outcome<RuleSets, std::string> RuleSets::without(const std::string& name) const {
    nlohmann::json list = nlohmann::json::array();
    for (const nlohmann::json& e : to_json())
        if (e["name"] != name) list.push_back(e);
    return parse(dump_text(list));
}

std::optional<std::string> RuleSets::write(const std::string& path) const {
    // A whole new file, synced, then renamed over the old and the folder synced: a crash leaves
    // the old file or the new, never half of one, and an edit answered is an edit kept.
    const std::string temporary = path + ".new";
    {
        std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
        out << to_json().dump(2) << "\n";
        out.flush();
        if (!out) return "cannot write " + temporary;
    }
    if (!storage::sync_path(temporary, false) || std::rename(temporary.c_str(), path.c_str()) != 0) {
        std::remove(temporary.c_str());
        return "cannot replace " + path;
    }
    const std::string folder = std::filesystem::path(path).parent_path().string();
    if (!storage::sync_path(folder.empty() ? "." : folder, true)) return "cannot sync the folder of " + path;
    return std::nullopt;
}

std::shared_ptr<const RuleSets> RuleSetShelf::now() const {
    std::lock_guard lock(mutex_);
    return sets_;
}

void RuleSetShelf::put(std::shared_ptr<const RuleSets> sets) {
    std::lock_guard lock(mutex_);
    sets_ = std::move(sets);
}

Outcome<std::shared_ptr<const RuleSets>, RuleSetShelf::EditError> RuleSetShelf::edit(
    const std::function<Outcome<RuleSets, std::string>(const RuleSets&)>& change) {
    std::lock_guard edits(edit_mutex_);
    if (file_.empty()) return EditError{EditError::Kind::no_file, "no --rule-sets file"};
    const std::shared_ptr<const RuleSets> before = now();
    auto after = change(before ? *before : RuleSets());
    if (!after) return EditError{EditError::Kind::refused, after.error()};
    if (auto problem = after->write(file_)) return EditError{EditError::Kind::not_saved, "cannot save: " + *problem};
    auto made = std::make_shared<const RuleSets>(std::move(*after));
    put(made);
    return made;
}

}  // namespace sparts::server
