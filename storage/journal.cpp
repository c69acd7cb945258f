#include "storage/journal.hpp"

#include <sqlite3.h>

namespace sparts::storage {

void run_write(SQLite::Statement& st) {
    try {
        st.exec();
    } catch (const SQLite::Exception&) {
        st.tryReset();
        st.clearBindings();
        throw;
    }
    st.reset();
    st.clearBindings();
}

JournalRow journal_row(SQLite::Statement& q) {
    JournalRow r;
    r.id = q.getColumn(0).getInt64();
    r.table = q.getColumn(1).getString();
    r.game = q.getColumn(2).getInt();
    GameLogEntry& e = r.entry;
    e.seq = static_cast<std::uint64_t>(q.getColumn(3).getInt64());
    e.at = q.getColumn(4).getInt64();
    e.events = static_cast<std::uint32_t>(q.getColumn(5).getInt64());
    if (const auto action = q.getColumn(7); action.isBlob()) {
        // The compact form (game_log.hpp); a row written before it holds the JSON text.
        const auto decoded = decode_action(std::string_view(static_cast<const char*>(action.getBlob()),
                                                            static_cast<std::size_t>(action.getBytes())));
        if (!decoded)
            throw SQLite::Exception("journal row " + std::to_string(r.id) + ": its action is unreadable", SQLITE_CORRUPT);
        e.cause = Cause{q.getColumn(6).getInt(), *decoded, {}};
    } else if (!action.isNull()) {
        e.cause = cause_from_text(q.getColumn(6).getInt(), action.getString());
    }
    if (!q.getColumn(8).isNull()) {
        e.kind = GameLogEntry::Kind::table_event;
        e.type = q.getColumn(8).getString();
        e.payload = q.getColumn(9).getString();
    }
    return r;
}

JournalInsert::JournalInsert(SQLite::Database& db)
    : db_(db),
      insert_(db, "INSERT INTO journal (table_id, game, seq, at_ms, events, seat, action, type, payload) "
                  "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)") {}

std::int64_t JournalInsert::insert(const std::string& table, int game, const GameLogEntry& e) {
    insert_.bind(1, table);
    insert_.bind(2, game);
    insert_.bind(3, static_cast<std::int64_t>(e.seq));
    insert_.bind(4, e.at);
    insert_.bind(5, static_cast<std::int64_t>(e.events));
    std::string action;  // bound without a copy: it lives until exec()
    if (e.cause) {
        insert_.bind(6, e.cause->seat);
        if (e.cause->text.empty()) {
            action = encode_action(e.cause->action);
            insert_.bindNoCopy(7, static_cast<const void*>(action.data()), static_cast<int>(action.size()));
        } else {
            insert_.bind(7, e.cause->text);
        }
    } else {
        insert_.bind(6);
        insert_.bind(7);
    }
    if (e.kind == GameLogEntry::Kind::table_event) {
        insert_.bind(8, e.type);
        insert_.bind(9, e.payload);
    } else {
        insert_.bind(8);
        insert_.bind(9);
    }
    run_write(insert_);
    return db_.getLastInsertRowid();
}

}  // namespace sparts::storage
