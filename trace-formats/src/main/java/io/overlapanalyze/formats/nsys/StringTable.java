package io.overlapanalyze.formats.nsys;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;

/**
 * {@code StringIds(id, value)} resolved lazily: only ids that rows actually reference are looked
 * up (one primary-key probe each, then cached). Exports can hold ~1.5 M strings (nsys.md §12), of
 * which a trace typically uses a few thousand.
 */
final class StringTable implements AutoCloseable {
    private final PreparedStatement lookup;
    private final Map<Long, String> cache = new HashMap<>();

    StringTable(ExportDatabase db) throws SQLException {
        String id = db.hasTable("StringIds") ? db.column("StringIds", "id") : null;
        String value = db.hasTable("StringIds") ? db.column("StringIds", "value") : null;
        lookup = id == null || value == null ? null
                : db.prepare("SELECT " + ExportDatabase.quote(value) + " FROM " + ExportDatabase.quote(db.table("StringIds"))
                        + " WHERE " + ExportDatabase.quote(id) + " = ?");
    }

    /** The string with this id; {@code null} for a NULL reference; a placeholder for a dangling one. */
    String get(Long id) throws SQLException {
        if (id == null) {
            return null;
        }
        String s = stored(id);
        return s == null ? placeholder(id) : s;
    }

    /** The string with this id, or {@code null} when the table lacks it (or there is no table). */
    String stored(long id) throws SQLException {
        String s = cache.get(id);
        if (s == null && !cache.containsKey(id)) {
            s = fetch(id);
            cache.put(id, s);
        }
        return s;
    }

    /** True when the export has a usable {@code StringIds(id, value)} table. */
    boolean present() {
        return lookup != null;
    }

    /** What a dangling id is named: trimmed exports may drop strings; the row is kept. */
    static String placeholder(long id) {
        return "(string " + id + ")";
    }

    private String fetch(long id) throws SQLException {
        if (lookup != null) {
            lookup.setLong(1, id);
            try (ResultSet rs = lookup.executeQuery()) {
                if (rs.next()) {
                    return rs.getString(1);
                }
            }
        }
        return null;
    }

    @Override
    public void close() throws SQLException {
        if (lookup != null) {
            lookup.close();
        }
    }
}
