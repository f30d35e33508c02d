package io.overlapanalyze.formats.ascend;

import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteOpenMode;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;

/**
 * Opens a user's SQLite file strictly read-only. {@code immutable=1} tells SQLite the file cannot
 * change, so it takes no locks and never creates {@code -wal}/{@code -shm}/{@code -journal} side
 * files: some Ascend exports are in WAL mode, where even a read-only ordinary connection writes
 * them next to the user's data (and fails on a read-only folder).
 */
final class ReadOnlySqlite {
    private ReadOnlySqlite() {
    }

    static Connection open(Path file) throws SQLException {
        // A file: URI, percent-encoded by Path.toUri, so odd characters in the path cannot act as
        // URI syntax.
        String uri = file.toAbsolutePath().toUri().toString() + "?immutable=1&mode=ro";
        SQLiteConfig config = new SQLiteConfig();
        config.setReadOnly(true);
        config.setOpenMode(SQLiteOpenMode.OPEN_URI);
        // Connection settings only, nothing is written: mapped reads, a larger page cache, and the one
        // ORDER BY (COMMUNICATION_OP, small) sorted in memory rather than in a temp file.
        config.setPragma(SQLiteConfig.Pragma.MMAP_SIZE, Long.toString(1L << 30));
        config.setCacheSize(-65536);
        config.setTempStore(SQLiteConfig.TempStore.MEMORY);
        return config.createConnection("jdbc:sqlite:" + uri);
    }

    /** Table names, upper-cased. */
    static Set<String> tables(Connection c) throws SQLException {
        Set<String> out = new HashSet<>();
        try (Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT name FROM sqlite_master WHERE type = 'table'")) {
            while (rs.next()) {
                out.add(rs.getString(1).toUpperCase(Locale.ROOT));
            }
        }
        return out;
    }

    /** Column names of a table, upper-cased. */
    static Set<String> columns(Connection c, String table) throws SQLException {
        Set<String> out = new HashSet<>();
        try (Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("PRAGMA table_info(\"" + table + "\")")) {
            while (rs.next()) {
                out.add(rs.getString("name").toUpperCase(Locale.ROOT));
            }
        }
        return out;
    }
}
