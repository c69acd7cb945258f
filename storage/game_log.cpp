#include "storage/game_log.hpp"

#include <array>
#include <set>
#include <utility>
#include <variant>

#include "engine/game.hpp"
#include "protocol/action_json.hpp"
#include "protocol/event_json.hpp"
#include "protocol/json_text.hpp"
#include "protocol/ruleset_json.hpp"

namespace sparts::storage {

namespace {

constexpr std::uint8_t kFormat = 1;
constexpr std::uint8_t kVerbatimFlag = 1;

// An entry's tag: what it is, and how its cause is written.
enum Tag : std::uint8_t {
    kDeal = 0,               // engine events with no cause
    kEngineAction = 1,       // engine events, caused by an action in binary
    kEngineActionText = 2,   // engine events, caused by an action as JSON text
    kTableEvent = 3,         // a table event, no cause
    kTableEventAction = 4,   // a table event with the action in binary (verbatim logs)
    kTableEventActionText = 5,
};

void put_varint(std::string& out, std::uint64_t v) {
    while (v >= 0x80) {
        out += static_cast<char>(static_cast<std::uint8_t>(v) | 0x80);
        v >>= 7;
    }
    out += static_cast<char>(v);
}

// Times may step back (the wall clock is set back): signed deltas, zigzagged.
std::uint64_t zigzag(std::int64_t v) { return (static_cast<std::uint64_t>(v) << 1) ^ static_cast<std::uint64_t>(v >> 63); }
std::int64_t unzigzag(std::uint64_t v) { return static_cast<std::int64_t>(v >> 1) ^ -static_cast<std::int64_t>(v & 1); }

void put_string(std::string& out, std::string_view s) {
    put_varint(out, s.size());
    out += s;
}

void put_action(std::string& out, const Action& action) {
    out += static_cast<char>(action.kind);
    switch (action.kind) {
        case ActionKind::play:
            out += static_cast<char>(action.card.id());
            break;
        case ActionKind::bid:
            // A blind nil is the byte -1: a bid of its own, never a number of tricks.
            out += static_cast<char>(action.blind ? std::int8_t{-1} : action.bid);
            break;
        case ActionKind::choose:
            out += static_cast<char>(action.choice);
            break;
        case ActionKind::moon:
            out += static_cast<char>(action.subtract ? 1 : 0);
            break;
        case ActionKind::pass:
            put_varint(out, action.cards.lo());
            put_varint(out, action.cards.hi());
            put_varint(out, action.back.lo());
            put_varint(out, action.back.hi());
            break;
        case ActionKind::clock_expired:
        case ActionKind::show_cards:
            break;
    }
}

class Reader {
public:
    explicit Reader(std::string_view bytes, std::size_t at = 0) : bytes_(bytes), at_(at) {}
    bool done() const { return at_ >= bytes_.size(); }
    std::size_t at() const { return at_; }
    bool failed() const { return failed_; }

    std::uint8_t byte() {
        if (at_ >= bytes_.size()) return fail(), 0;
        return static_cast<std::uint8_t>(bytes_[at_++]);
    }
    std::uint64_t varint() {
        std::uint64_t v = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            const std::uint8_t b = byte();
            if (failed_) return 0;
            v |= static_cast<std::uint64_t>(b & 0x7f) << shift;
            if (!(b & 0x80)) return v;
        }
        return fail(), 0;
    }
    std::string string() {
        const std::uint64_t n = varint();
        if (failed_ || n > bytes_.size() - at_) return fail(), std::string();
        std::string s(bytes_.substr(at_, n));
        at_ += n;
        return s;
    }
    Action action() {
        Action a;
        a.kind = static_cast<ActionKind>(byte());
        switch (a.kind) {
            case ActionKind::play: {
                const Card c = Card::from_id(byte());
                if (!c.valid()) return fail(), Action{};
                a.card = c;
                break;
            }
            case ActionKind::bid:
                a.bid = static_cast<std::int8_t>(byte());
                if (a.bid == -1) a = Action::blind_nil();
                break;
            case ActionKind::choose:
                a.choice = static_cast<HandKind>(byte());
                if (a.choice != HandKind::spades && a.choice != HandKind::hearts) return fail(), Action{};
                break;
            case ActionKind::moon: {
                const std::uint8_t subtract = byte();
                if (subtract > 1) return fail(), Action{};
                a.subtract = subtract == 1;
                break;
            }
            case ActionKind::pass: {
                const std::uint64_t lo = varint(), hi = varint(), back_lo = varint(), back_hi = varint();
                a.cards = CardSet(lo, hi);
                a.back = CardSet(back_lo, back_hi);
                break;
            }
            case ActionKind::clock_expired:
            case ActionKind::show_cards:
                break;
            default:
                return fail(), Action{};
        }
        return a;
    }

private:
    void fail() { failed_ = true; }
    std::string_view bytes_;
    std::size_t at_ = 0;
    bool failed_ = false;
};

template <std::size_t... I>
std::set<std::string, std::less<>> engine_event_names(std::index_sequence<I...>) {
    return {event_name(Event(std::in_place_index<I>))...};
}

}  // namespace

bool is_engine_event(std::string_view type) {
    static const auto names = engine_event_names(std::make_index_sequence<std::variant_size_v<Event>>());
    return names.contains(type);
}

std::string encode_action(const Action& action) {
    std::string out;
    put_action(out, action);
    return out;
}

std::optional<Action> decode_action(std::string_view bytes) {
    Reader in(bytes);
    const Action a = in.action();
    if (in.failed() || !in.done()) return std::nullopt;
    return a;
}

void append_action(std::string& out, const Action& action) { put_action(out, action); }

std::optional<Action> read_action(std::string_view bytes, std::size_t& at) {
    Reader in(bytes, at);
    const Action a = in.action();
    if (in.failed()) return std::nullopt;
    at = in.at();
    return a;
}

void append_count(std::string& out, std::uint64_t count) { put_varint(out, count); }

std::optional<std::uint64_t> read_count(std::string_view bytes, std::size_t& at) {
    Reader in(bytes, at);
    const std::uint64_t n = in.varint();
    if (in.failed()) return std::nullopt;
    at = in.at();
    return n;
}

Cause cause_from_text(int seat, const std::string& text) {
    Cause c;
    c.seat = seat;
    auto doc = parse_json_text(text);
    auto action = doc ? action_from_json(*doc) : Parsed<Action>(ParseError{});
    if (action) c.action = *action;
    if (!action || dump_text(to_json(*action)) != text) c.text = text;
    return c;
}

std::string action_text(const Cause& cause) { return cause.text.empty() ? dump_text(to_json(cause.action)) : cause.text; }

GameLogEncoder::GameLogEncoder(bool verbatim) {
    bytes_ += static_cast<char>(kFormat);
    bytes_ += static_cast<char>(verbatim ? kVerbatimFlag : 0);
}

void GameLogEncoder::add(const GameLogEntry& e) {
    const bool binary = e.cause && e.cause->text.empty();
    std::uint8_t tag = 0;
    if (e.kind == GameLogEntry::Kind::engine)
        tag = !e.cause ? kDeal : binary ? kEngineAction : kEngineActionText;
    else
        tag = !e.cause ? kTableEvent : binary ? kTableEventAction : kTableEventActionText;
    put_varint(bytes_, tag);
    // Seqs run on without a gap within a table; a gap (events of another game between) costs a byte or two.
    put_varint(bytes_, zigzag(static_cast<std::int64_t>(e.seq - next_seq_)));
    put_varint(bytes_, zigzag(e.at - last_at_));
    const std::uint32_t count = e.kind == GameLogEntry::Kind::engine ? e.events : 1;
    if (e.kind == GameLogEntry::Kind::engine) {
        put_varint(bytes_, count);
    } else {
        put_string(bytes_, e.type);
        put_string(bytes_, e.payload);
    }
    if (e.cause) {
        put_varint(bytes_, static_cast<std::uint64_t>(e.cause->seat));
        if (binary)
            put_action(bytes_, e.cause->action);
        else
            put_string(bytes_, e.cause->text);
    }
    next_seq_ = e.seq + count;
    last_at_ = e.at;
}

std::string encode(const GameLog& log) {
    GameLogEncoder out(log.verbatim);
    for (const GameLogEntry& e : log.entries) out.add(e);
    return out.bytes();
}

Outcome<GameLog, std::string> decode_game_log(std::string_view bytes) {
    Reader in(bytes);
    GameLog log;
    const std::uint8_t format = in.byte();
    const std::uint8_t flags = in.byte();
    if (in.failed() || format != kFormat) return std::string("not a game log of format 1");
    log.verbatim = (flags & kVerbatimFlag) != 0;
    std::uint64_t next_seq = 0;
    Millis last_at = 0;
    while (!in.done()) {
        GameLogEntry e;
        const auto tag = in.varint();
        if (tag > kTableEventActionText) return "unknown entry tag " + std::to_string(tag);
        e.kind = tag <= kEngineActionText ? GameLogEntry::Kind::engine : GameLogEntry::Kind::table_event;
        e.seq = next_seq + static_cast<std::uint64_t>(unzigzag(in.varint()));
        e.at = last_at + unzigzag(in.varint());
        if (e.kind == GameLogEntry::Kind::engine) {
            e.events = static_cast<std::uint32_t>(in.varint());
        } else {
            e.type = in.string();
            e.payload = in.string();
        }
        if (tag != kDeal && tag != kTableEvent) {
            const int seat = static_cast<int>(in.varint());
            if (tag == kEngineAction || tag == kTableEventAction) {
                Cause c;
                c.seat = seat;
                c.action = in.action();
                e.cause = std::move(c);
            } else {
                e.cause = cause_from_text(seat, in.string());
            }
        }
        if (in.failed()) return "entry " + std::to_string(log.entries.size()) + " is cut short or malformed";
        next_seq = e.seq + e.events;
        last_at = e.at;
        log.entries.push_back(std::move(e));
    }
    return log;
}

std::vector<StoredAction> actions_of(const GameLog& log) {
    std::vector<StoredAction> out;
    for (const GameLogEntry& e : log.entries)
        if (e.cause) out.push_back({e.cause->seat, action_text(*e.cause), e.seq});
    return out;
}

Outcome<Ruleset, std::string> ruleset_of(const std::string& ruleset) {
    auto doc = parse_json_text(ruleset);
    if (!doc) return "the ruleset is not JSON: " + doc.error().message();
    auto rules = ruleset_from_json(*doc);
    if (!rules) return "the ruleset is refused: " + rules.error().message();
    return std::move(*rules);
}

Outcome<bool, std::string> play_log(const GameLog& log, const Ruleset& rules, std::uint64_t seed, const LogVisitor& visit) {
    if (log.verbatim) return std::string("a verbatim log: its events are not the engine's to play");
    auto created = Game::create(rules, seed);
    if (!created) return "the game cannot be created: " + created.error().message;
    Game g = std::move(*created);
    bool dealt = false;
    for (std::size_t i = 0; i < log.entries.size(); ++i) {
        const GameLogEntry& e = log.entries[i];
        if (e.kind == GameLogEntry::Kind::table_event) {
            // An event kept as stored (a game in progress when version 4 was migrated) may carry
            // its action: the engine applies it, to go on in step, and its events are not rendered.
            std::span<const Event> caused;
            if (e.cause) {
                if (!dealt) return "entry " + std::to_string(i) + ": an action before the deal";
                auto applied = g.apply(static_cast<Seat>(e.cause->seat), e.cause->action);
                if (!applied) return "entry " + std::to_string(i) + ": the engine refuses the action: " + applied.error().message;
                caused = *applied;
            }
            visit.table(e, caused);
            continue;
        }
        std::span<const Event> events;
        if (!e.cause) {
            if (dealt) return "entry " + std::to_string(i) + ": a second deal";
            dealt = true;
            events = g.start();
        } else {
            if (!dealt) return "entry " + std::to_string(i) + ": an action before the deal";
            Action action = e.cause->action;
            if (!e.cause->text.empty()) {
                auto text = parse_json_text(e.cause->text);
                if (!text) return "entry " + std::to_string(i) + ": the action is not JSON";
                auto parsed = action_from_json(*text);
                if (!parsed) return "entry " + std::to_string(i) + ": " + parsed.error().message();
                action = *parsed;
            }
            auto applied = g.apply(static_cast<Seat>(e.cause->seat), action);
            if (!applied) return "entry " + std::to_string(i) + ": the engine refuses the action: " + applied.error().message;
            events = *applied;
        }
        if (events.size() != e.events)
            return "entry " + std::to_string(i) + ": the engine gives " + std::to_string(events.size()) +
                   " events where the log has " + std::to_string(e.events);
        visit.engine(e, events);
    }
    return true;
}

Outcome<RenderedGame, std::string> render(const GameLog& log, const std::string& ruleset, std::uint64_t seed, int game) {
    RenderedGame out;
    out.actions = actions_of(log);
    auto verbatim = [&](const GameLogEntry& e) {
        out.events.push_back({e.seq, game, e.type, e.payload, e.at});
    };
    if (log.verbatim) {
        for (const GameLogEntry& e : log.entries) {
            if (e.kind != GameLogEntry::Kind::table_event) return std::string("an engine entry in a verbatim log");
            verbatim(e);
        }
        return out;
    }
    LogVisitor visit;
    visit.engine = [&](const GameLogEntry& e, std::span<const Event> events) {
        for (std::size_t k = 0; k < events.size(); ++k)
            out.events.push_back({e.seq + k, game, event_name(events[k]), dump_text(archive_json(events[k])), e.at});
    };
    visit.table = [&](const GameLogEntry& e, std::span<const Event>) { verbatim(e); };
    const auto rules = ruleset_of(ruleset);
    if (!rules) return rules.error();
    auto played = play_log(log, *rules, seed, visit);
    if (!played) return played.error();
    return out;
}

Outcome<RenderedGame, std::string> render_record(std::string_view record, const std::string& ruleset, std::uint64_t seed,
                                                 int game) {
    auto log = decode_game_log(record);
    if (!log) return "its record is unreadable: " + log.error();
    auto rendered = render(*log, ruleset, seed, game);
    if (!rendered) return "its record does not play back: " + rendered.error();
    return std::move(*rendered);
}

}  // namespace sparts::storage
