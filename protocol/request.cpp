#include "protocol/request.hpp"

#include "protocol/action_json.hpp"
#include "protocol/chat_text.hpp"
#include "protocol/display_name.hpp"
#include "protocol/json_fields.hpp"
#include "protocol/json_text.hpp"
#include "protocol/ruleset_json.hpp"

namespace sparts {

using nlohmann::json;

namespace {

constexpr const char* kTypes =
    "one of \"hello\", \"list_tables\", \"create_table\", \"sit\", \"leave\", \"watch\", \"add_bot\", "
    "\"start\", \"again\", \"act\", \"resume\", \"ping\", \"replay\", \"replay_control\", \"chat\", \"mute\", "
    "\"quick_play\", \"quick_play_cancel\"";
constexpr const char* kTableExpected = "a table id like \"t1\"";
constexpr std::size_t kMaxTableIdLength = 32;
constexpr std::size_t kMaxInviteLength = 32;

using Body = Parsed<RequestBody>;

// A required string member of bounded, non-zero length.
Parsed<std::string> text_member(const json& j, std::string_view key, std::size_t max, std::string_view what) {
    const json* v = member(j, key);
    if (!v) return missing(std::string(key), what);
    if (!v->is_string()) return expected(std::string(key), what, *v);
    const auto& s = v->get_ref<const std::string&>();
    if (s.empty() || s.size() > max) return expected(std::string(key), what, *v);
    return s;
}

Parsed<std::string> table_of(const json& j) { return text_member(j, "table", kMaxTableIdLength, kTableExpected); }

Parsed<std::optional<int>> optional_seat(const json& j) {
    const json* v = member(j, "seat");
    if (!v) return std::optional<int>{};
    auto n = whole_number(*v, 0, kMaxSeats - 1, "a seat number from 0 to 9");
    if (!n) return inside("seat", n.error());
    return std::optional<int>{static_cast<int>(*n)};
}

Parsed<std::string> optional_invite(const json& j) {
    const json* v = member(j, "invite");
    if (!v) return std::string{};
    if (!v->is_string() || v->get_ref<const std::string&>().size() > kMaxInviteLength)
        return expected("invite", "an invite code (a string)", *v);
    return v->get<std::string>();
}

Body hello_from(const json& j) {
    if (auto e = refuse_unknown_members(j, "a hello", {"type", "id", "protocol", "name", "token", "login", "batch"}))
        return *e;
    Hello h;
    const json* p = member(j, "protocol");
    if (!p) return missing("protocol", "the protocol version, 1");
    auto version = whole_number(*p, 1, 1000, "the protocol version, a whole number (this server speaks 1)");
    if (!version) return inside("protocol", version.error());
    h.protocol = static_cast<int>(*version);
    constexpr const char* kName =
        "a display name: 1 to 32 characters that show, no control or bidirectional control characters, "
        "no leading or trailing space";
    const json* name = member(j, "name");
    if (!name) return missing("name", kName);
    if (!name->is_string() || !valid_display_name(name->get_ref<const std::string&>())) return expected("name", kName, *name);
    h.name = name->get<std::string>();
    if (const json* t = member(j, "token")) {
        // Tokens and logins are secrets: a refusal says what is wrong with one, never quotes it.
        if (!t->is_string()) return expected("token", "a player token from an earlier hello (a string)", *t);
        if (t->get_ref<const std::string&>().size() > 128)
            return ParseError{"token", "expected a player token from an earlier hello, got a string of " +
                                           std::to_string(t->get_ref<const std::string&>().size()) +
                                           " bytes (a token is 32)"};
        h.token = t->get<std::string>();
    }
    if (const json* l = member(j, "login")) {
        if (!l->is_string() || l->get_ref<const std::string&>().empty())
            return expected("login", "a login your host's site gave you (a JWT, at most 4096 characters)", *l);
        if (l->get_ref<const std::string&>().size() > kMaxLoginLength)
            return ParseError{"login", "expected a login your host's site gave you (a JWT, at most " +
                                           std::to_string(kMaxLoginLength) + " characters), got a string of " +
                                           std::to_string(l->get_ref<const std::string&>().size()) + " bytes"};
        if (h.token) return ParseError{"login", "give a login or a token, not both"};
        h.login = l->get<std::string>();
    }
    if (const json* b = member(j, "batch")) {
        if (!b->is_boolean()) return expected("batch", "true (several messages a WebSocket message, one a line) or false", *b);
        h.batch = b->get<bool>();
    }
    return RequestBody{std::move(h)};
}

Body list_tables_from(const json& j) {
    if (auto e = refuse_unknown_members(j, "a list_tables request",
                                        {"type", "id", "preset", "seats", "open", "limit", "after"}))
        return *e;
    ListTables l;
    if (const json* p = member(j, "preset")) {
        constexpr const char* kPreset = "a preset name: bga-sparts, sparts, spartsel, spades, worldwinner-spades or hearts";
        if (!p->is_string()) return expected("preset", kPreset, *p);
        auto preset = parse_preset(p->get_ref<const std::string&>());
        if (!preset) return expected("preset", kPreset, *p);
        l.preset = *preset;
    }
    if (const json* s = member(j, "seats")) {
        auto n = whole_number(*s, 2, kMaxSeats, "a seat count from 2 to 10");
        if (!n) return inside("seats", n.error());
        l.seats = static_cast<int>(*n);
    }
    if (const json* o = member(j, "open")) {
        if (!o->is_boolean()) return expected("open", "true (only tables with a free seat) or false (all)", *o);
        l.open_only = o->get<bool>();
    }
    if (const json* n = member(j, "limit")) {
        auto limit = whole_number(*n, 1, kListTablesMaxLimit, "a number of tables from 1 to 100");
        if (!limit) return inside("limit", limit.error());
        l.limit = static_cast<int>(*limit);
    }
    if (const json* a = member(j, "after")) {
        // The `next` of an earlier reply: a table id ("t42"); the list goes on from the table after it.
        constexpr const char* kCursor = "the next of an earlier list_tables reply (a table id such as \"t42\")";
        if (!a->is_string()) return expected("after", kCursor, *a);
        const std::string& t = a->get_ref<const std::string&>();
        std::uint64_t number = 0;
        bool digits = t.size() >= 2 && t.size() <= 20 && t[0] == 't' && t[1] != '0';
        for (std::size_t i = 1; digits && i < t.size(); ++i) {
            if (t[i] < '0' || t[i] > '9') digits = false;
            else if (number > (UINT64_MAX - 9) / 10) digits = false;
            else number = number * 10 + static_cast<std::uint64_t>(t[i] - '0');
        }
        if (!digits) return expected("after", kCursor, *a);
        l.after = number;
    }
    return RequestBody{l};
}

Body sit_from(const json& j) {
    if (auto e = refuse_unknown_members(j, "a sit request", {"type", "id", "table", "seat", "invite"})) return *e;
    auto table = table_of(j);
    if (!table) return table.error();
    auto seat = optional_seat(j);
    if (!seat) return seat.error();
    auto invite = optional_invite(j);
    if (!invite) return invite.error();
    return RequestBody{Sit{std::move(*table), *seat, std::move(*invite)}};
}

Body watch_from(const json& j) {
    if (auto e = refuse_unknown_members(j, "a watch request", {"type", "id", "table", "invite"})) return *e;
    auto table = table_of(j);
    if (!table) return table.error();
    auto invite = optional_invite(j);
    if (!invite) return invite.error();
    return RequestBody{Watch{std::move(*table), std::move(*invite)}};
}

Body add_bot_from(const json& j) {
    if (auto e = refuse_unknown_members(j, "an add_bot request", {"type", "id", "table", "seat", "level"})) return *e;
    auto table = table_of(j);
    if (!table) return table.error();
    auto seat = optional_seat(j);
    if (!seat) return seat.error();
    std::string level = "basic";
    if (const json* l = member(j, "level")) {
        const std::string name = l->is_string() ? l->get<std::string>() : std::string();
        if (name != "random" && name != "basic" && name != "strong")
            return expected("level", "one of \"random\", \"basic\", \"strong\"", *l);
        level = name;
    }
    return RequestBody{AddBot{std::move(*table), *seat, std::move(level)}};
}

// leave, start, again: a table and nothing else.
template <class T>
Body table_only_from(const json& j, std::string_view what) {
    if (auto e = refuse_unknown_members(j, what, {"type", "id", "table"})) return *e;
    auto table = table_of(j);
    if (!table) return table.error();
    return RequestBody{T{std::move(*table)}};
}

Body act_from(const json& j) {
    if (auto e = refuse_unknown_members(j, "an act request", {"type", "id", "table", "action"})) return *e;
    auto table = table_of(j);
    if (!table) return table.error();
    const json* a = member(j, "action");
    if (!a) return missing("action", "an action object like {\"type\":\"play\",\"card\":\"QS\"}");
    auto action = action_from_json(*a);
    if (!action) return inside("action", action.error());
    if (action->kind == ActionKind::clock_expired)
        return expected("action.type", "one of \"play\", \"bid\", \"pass\", \"choose\", \"show_cards\", \"moon\" (the clock is the server's)",
                        (*a)["type"]);
    return RequestBody{Act{std::move(*table), *action}};
}

Body resume_from(const json& j) {
    if (auto e = refuse_unknown_members(j, "a resume request", {"type", "id", "table", "seq"})) return *e;
    auto table = table_of(j);
    if (!table) return table.error();
    const json* s = member(j, "seq");
    if (!s) return missing("seq", "the last seq received from this table (0: none)");
    auto seq = whole_number(*s, 0, std::int64_t{1} << 53, "the last seq received from this table (0: none)");
    if (!seq) return inside("seq", seq.error());
    return RequestBody{Resume{std::move(*table), static_cast<std::uint64_t>(*seq)}};
}

Parsed<double> speed_of(const json& v) {
    constexpr const char* kSpeed = "a speed in events a second, from 0 (paused) to 1000";
    if (!v.is_number()) return expected("speed", kSpeed, v);
    const double d = v.get<double>();
    if (!(d >= 0 && d <= 1000)) return expected("speed", kSpeed, v);
    return d;
}

Body replay_from(const json& j) {
    if (auto e = refuse_unknown_members(j, "a replay request", {"type", "id", "table", "game", "speed"})) return *e;
    auto table = table_of(j);
    if (!table) return table.error();
    ReplayOpen r;
    r.table = *table;
    const json* g = member(j, "game");
    if (!g) return missing("game", "the game's number at its table, from 1");
    auto game = whole_number(*g, 1, 1000000, "the game's number at its table, from 1");
    if (!game) return inside("game", game.error());
    r.game = static_cast<int>(*game);
    if (const json* s = member(j, "speed")) {
        auto speed = speed_of(*s);
        if (!speed) return speed.error();
        r.speed = *speed;
    }
    return RequestBody{std::move(r)};
}

Body replay_control_from(const json& j) {
    if (auto e = refuse_unknown_members(j, "a replay_control request",
                                        {"type", "id", "action", "speed", "position", "hand", "trick"}))
        return *e;
    constexpr const char* kActions = "one of \"pause\", \"play\", \"step\", \"seek\"";
    const json* a = member(j, "action");
    if (!a) return missing("action", kActions);
    ReplayControl c;
    const std::string name = a->is_string() ? a->get<std::string>() : std::string();
    if (name == "pause") c.kind = ReplayControl::Kind::pause;
    else if (name == "play") c.kind = ReplayControl::Kind::play;
    else if (name == "step") c.kind = ReplayControl::Kind::step;
    else if (name == "seek") c.kind = ReplayControl::Kind::seek;
    else return expected("action", kActions, *a);
    if (const json* s = member(j, "speed")) {
        auto speed = speed_of(*s);
        if (!speed) return speed.error();
        c.speed = *speed;
    }
    auto index = [&](const char* key, std::optional<int>& out, std::int64_t lo, const char* what) -> std::optional<ParseError> {
        const json* v = member(j, key);
        if (!v) return std::nullopt;
        auto n = whole_number(*v, lo, 1000000, what);
        if (!n) return inside(key, n.error());
        out = static_cast<int>(*n);
        return std::nullopt;
    };
    if (auto e = index("position", c.position, 0, "an event index, from 0")) return *e;
    if (auto e = index("hand", c.hand, 1, "a hand number, from 1")) return *e;
    if (auto e = index("trick", c.trick, 1, "a trick number, from 1")) return *e;
    if (c.kind == ReplayControl::Kind::seek && !c.position && !c.hand)
        return missing("position", "seek needs a position, or a hand (and a trick)");
    if (c.trick && !c.hand) return missing("hand", "a trick is counted within a hand: give the hand too");
    return RequestBody{c};
}

Body ping_from(const json& j) {
    if (auto e = refuse_unknown_members(j, "a ping", {"type", "id"})) return *e;
    return RequestBody{Ping{}};
}

Body mute_from(const json& j) {
    if (auto e = refuse_unknown_members(j, "a mute request", {"type", "id", "table", "seat", "muted"})) return *e;
    auto table = table_of(j);
    if (!table) return table.error();
    Mute m;
    m.table = std::move(*table);
    constexpr const char* kWho = "a seat number from 0 to 9, or \"spectators\"";
    const json* s = member(j, "seat");
    if (!s) return missing("seat", kWho);
    if (s->is_string() && s->get_ref<const std::string&>() == "spectators") {
        m.seat = Mute::kSpectators;
    } else {
        auto n = whole_number(*s, 0, kMaxSeats - 1, kWho);
        if (!n) return inside("seat", n.error());
        m.seat = static_cast<int>(*n);
    }
    constexpr const char* kMuted = "true (their chat no longer reaches you) or false (it does again)";
    const json* muted = member(j, "muted");
    if (!muted) return missing("muted", kMuted);
    if (!muted->is_boolean()) return expected("muted", kMuted, *muted);
    m.muted = muted->get<bool>();
    return RequestBody{std::move(m)};
}

}  // namespace

// chat is apart too: what is wrong with its text has codes of its own.
static Outcome<Chat, RequestError> chat_from(const json& j) {
    auto bad = [](ParseError e) { return RequestError{"bad_message", std::move(e), {}, "chat"}; };
    if (auto e = refuse_unknown_members(j, "a chat message", {"type", "id", "table", "text"})) return bad(*e);
    auto table = table_of(j);
    if (!table) return bad(table.error());
    constexpr const char* kText = "the text to say, one line of 1 to 300 characters";
    const json* t = member(j, "text");
    if (!t) return bad(missing("text", kText));
    if (!t->is_string()) return bad(expected("text", kText, *t));
    auto said = chat_text(t->get_ref<const std::string&>());
    if (!said) return RequestError{said.error().code, ParseError{"text", said.error().message}, {}, "chat"};
    return Chat{std::move(*table), std::move(*said)};
}

// create_table is apart: a bad ruleset has its own error code.
// quick_play {preset, options?}: the ruleset's two members at the top level.
static Outcome<QuickPlay, RequestError> quick_play_from(const json& j) {
    if (auto e = refuse_unknown_members(j, "a quick_play request", {"type", "id", "preset", "options"}))
        return RequestError{"bad_message", *e, {}, "quick_play"};
    if (!member(j, "preset"))
        return RequestError{"bad_message", missing("preset", "a ruleset preset, like \"spades\""), {}, "quick_play"};
    json ruleset = {{"preset", j.at("preset")}};
    if (const json* o = member(j, "options")) ruleset["options"] = *o;
    auto rules = ruleset_from_json(ruleset);
    if (!rules) return RequestError{"bad_ruleset", rules.error(), {}, "quick_play"};
    return QuickPlay{*rules};
}

static Outcome<CreateTable, RequestError> create_table_from(const json& j) {
    auto bad = [](ParseError e) { return RequestError{"bad_message", std::move(e), {}, "create_table"}; };
    if (auto e = refuse_unknown_members(j, "a create_table request", {"type", "id", "ruleset", "private", "turn_seconds"}))
        return bad(*e);
    CreateTable c;
    const json* r = member(j, "ruleset");
    if (!r) return bad(missing("ruleset", "a ruleset like {\"preset\":\"spades\",\"options\":{}}"));
    auto rules = ruleset_from_json(*r);
    if (!rules) {
        // Anything wrong with the ruleset, malformed or refused by the engine
        // (an unknown option, a value out of range), is a bad_ruleset.
        return RequestError{"bad_ruleset", inside("ruleset", rules.error()), {}, "create_table"};
    }
    c.rules = *rules;
    if (const json* p = member(j, "private")) {
        if (!p->is_boolean()) return bad(expected("private", "true or false", *p));
        c.is_private = p->get<bool>();
    }
    if (const json* t = member(j, "turn_seconds")) {
        auto n = whole_number(*t, 0, kMaxTurnSeconds, "the turn time limit in seconds, 0 to 3600 (0: none)");
        if (!n) return bad(inside("turn_seconds", n.error()));
        c.turn_seconds = static_cast<int>(*n);
    }
    return c;
}

Outcome<Request, RequestError> parse_request(std::string_view text) {
    auto doc = parse_json_text(text);
    if (!doc) return RequestError{"bad_json", doc.error(), {}, {}};
    const json& j = *doc;
    if (!j.is_object()) return RequestError{"bad_message", expected("", "a request object like {\"type\":\"ping\"}", j), {}, {}};

    RequestId id;
    if (const json* i = member(j, "id")) {
        const bool ok_number = i->is_number_integer();
        const bool ok_string = i->is_string() && i->get_ref<const std::string&>().size() <= kMaxIdLength;
        if (!ok_number && !ok_string)
            return RequestError{"bad_message", expected("id", "a whole number or a string of up to 64 characters", *i), {}, {}};
        id = *i;
    }
    const json* type = member(j, "type");
    if (!type) return RequestError{"bad_message", missing("type", kTypes), id, {}};
    if (!type->is_string()) return RequestError{"bad_message", expected("type", kTypes, *type), id, {}};
    const std::string& t = type->get_ref<const std::string&>();

    auto done = [&](Body body) -> Outcome<Request, RequestError> {
        if (!body) return RequestError{"bad_message", body.error(), id, t};
        return Request{id, std::move(*body)};
    };
    if (t == "hello") return done(hello_from(j));
    if (t == "list_tables") return done(list_tables_from(j));
    if (t == "create_table") {
        auto c = create_table_from(j);
        if (!c) {
            RequestError e = c.error();
            e.id = id;
            return e;
        }
        return Request{id, RequestBody{std::move(*c)}};
    }
    if (t == "sit") return done(sit_from(j));
    if (t == "leave") return done(table_only_from<Leave>(j, "a leave request"));
    if (t == "watch") return done(watch_from(j));
    if (t == "add_bot") return done(add_bot_from(j));
    if (t == "start") return done(table_only_from<Start>(j, "a start request"));
    if (t == "again") return done(table_only_from<Again>(j, "an again request"));
    if (t == "act") return done(act_from(j));
    if (t == "resume") return done(resume_from(j));
    if (t == "ping") return done(ping_from(j));
    if (t == "replay") return done(replay_from(j));
    if (t == "replay_control") return done(replay_control_from(j));
    if (t == "chat") {
        auto c = chat_from(j);
        if (!c) {
            RequestError e = c.error();
            e.id = id;
            return e;
        }
        return Request{id, RequestBody{std::move(*c)}};
    }
    if (t == "mute") return done(mute_from(j));
    if (t == "quick_play") {
        auto q = quick_play_from(j);
        if (!q) {
            RequestError e = q.error();
            e.id = id;
            return e;
        }
        return Request{id, RequestBody{std::move(*q)}};
    }
    if (t == "quick_play_cancel") {
        if (auto e = refuse_unknown_members(j, "a quick_play_cancel request", {"type", "id"}))
            return RequestError{"bad_message", *e, id, t};
        return Request{id, RequestBody{QuickPlayCancel{}}};
    }
    return RequestError{"unknown_type", expected("type", kTypes, *type), id, {}};
}

RequestId request_id_of(std::string_view text) {
    auto doc = parse_json_text(text);
    if (!doc || !doc->is_object()) return std::nullopt;
    const json* i = member(*doc, "id");
    if (!i) return std::nullopt;
    if (i->is_number_integer() || (i->is_string() && i->get_ref<const std::string&>().size() <= kMaxIdLength)) return *i;
    return std::nullopt;
}

namespace {

struct Name {
    const char* operator()(const Hello&) const { return "hello"; }
    const char* operator()(const ListTables&) const { return "list_tables"; }
    const char* operator()(const CreateTable&) const { return "create_table"; }
    const char* operator()(const Sit&) const { return "sit"; }
    const char* operator()(const Leave&) const { return "leave"; }
    const char* operator()(const Watch&) const { return "watch"; }
    const char* operator()(const AddBot&) const { return "add_bot"; }
    const char* operator()(const Start&) const { return "start"; }
    const char* operator()(const Again&) const { return "again"; }
    const char* operator()(const Act&) const { return "act"; }
    const char* operator()(const Resume&) const { return "resume"; }
    const char* operator()(const Ping&) const { return "ping"; }
    const char* operator()(const ReplayOpen&) const { return "replay"; }
    const char* operator()(const ReplayControl&) const { return "replay_control"; }
    const char* operator()(const Chat&) const { return "chat"; }
    const char* operator()(const Mute&) const { return "mute"; }
    const char* operator()(const QuickPlay&) const { return "quick_play"; }
    const char* operator()(const QuickPlayCancel&) const { return "quick_play_cancel"; }
};

template <class T, class Variant>
struct is_alternative;
template <class T, class... Ts>
struct is_alternative<T, std::variant<Ts...>> : std::bool_constant<(std::is_same_v<T, Ts> || ...)> {};

template <class T>
constexpr int groups_of() {
    return int(is_alternative<T, LobbyRequestBody>::value) + int(is_alternative<T, TableRequestBody>::value) +
           int(is_alternative<T, ReplayRequestBody>::value);
}

}  // namespace

const char* request_type(const RequestBody& body) { return std::visit(Name{}, body); }
const char* request_type(const LobbyRequestBody& body) { return std::visit(Name{}, body); }
const char* request_type(const TableRequestBody& body) { return std::visit(Name{}, body); }
const char* request_type(const ReplayRequestBody& body) { return std::visit(Name{}, body); }

const std::string& table_of(const TableRequestBody& body) {
    return std::visit([](const auto& b) -> const std::string& { return b.table; }, body);
}

RoutedRequest by_destination(Request r) {
    return std::visit(
        [&](auto& body) -> RoutedRequest {
            using T = std::decay_t<decltype(body)>;
            static_assert(groups_of<T>() == 1, "every request goes to exactly one place (request.hpp)");
            if constexpr (is_alternative<T, LobbyRequestBody>::value)
                return LobbyRequest{std::move(r.id), std::move(body)};
            else if constexpr (is_alternative<T, TableRequestBody>::value)
                return TableRequest{std::move(r.id), std::move(body)};
            else
                return ReplayRequest{std::move(r.id), std::move(body)};
        },
        r.body);
}

}  // namespace sparts
