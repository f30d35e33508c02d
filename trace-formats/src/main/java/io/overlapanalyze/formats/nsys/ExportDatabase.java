package io.overlapanalyze.formats.nsys;

import io.overlapanalyze.formats.input.TraceFormatException;
import io.overlapanalyze.formats.sqlite.ReadOnlySqlite;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;

/**
 * A read-only connection to an Nsight export plus what its schema holds (nsys.md §11–§12).
 *
 * <p>Opened by {@link ReadOnlySqlite}, the opener every SQLite reader shares: nothing is written or
 * locked beside the file, a write-ahead log or hot journal is applied in a private copy, memory
 * mapping is off (a file cut while it is read is an error, not a crash), and only stored tables
 * count as tables. Tables and columns are looked up case-insensitively (as SQLite does) and only
 * on demand, one {@code PRAGMA table_info} per table.
 */
final class ExportDatabase implements AutoCloseable {
    private final ReadOnlySqlite db;

    private ExportDatabase(ReadOnlySqlite db) {
        this.db = db;
    }

    /**
     * Opens {@code file} read-only and lists its tables; refuses it when one of {@code readTables}
     * is a view or a virtual table.
     */
    static ExportDatabase open(Path file, io.overlapanalyze.formats.input.InputLimits limits, String... readTables)
            throws SQLException, TraceFormatException, IOException {
        ReadOnlySqlite db = ReadOnlySqlite.open(file, limits);
        try {
            db.requireTablesOnly(readTables);
        } catch (TraceFormatException e) {
            db.close();
            throw e;
        }
        return new ExportDatabase(db);
    }

    /** A second connection to the same database (see {@link ReadOnlySqlite#another}). */
    ExportDatabase another() throws SQLException {
        return new ExportDatabase(db.another());
    }

    boolean hasTable(String table) {
        return db.hasTable(table);
    }

    int tableCount() {
        return db.tableNames().size();
    }

    /** The declared name of {@code column} in {@code table}, or {@code null} when either is absent. */
    String column(String table, String column) throws SQLException {
        Map<String, String> cols = db.columns(table);
        return cols == null ? null : cols.get(column.toLowerCase(java.util.Locale.ROOT));
    }

    /** The first of {@code candidates} that {@code table} has, or {@code null}. */
    String firstColumn(String table, String... candidates) throws SQLException {
        for (String c : candidates) {
            String found = column(table, c);
            if (found != null) {
                return found;
            }
        }
        return null;
    }

    /** The declared name of {@code table} (for SQL), assuming {@link #hasTable}. */
    String table(String table) {
        return db.table(table);
    }

    Statement statement() throws SQLException {
        Statement st = db.connection().createStatement();
        st.setFetchSize(4096);
        return st;
    }

    PreparedStatement prepare(String sql) throws SQLException {
        return db.connection().prepareStatement(sql);
    }

    /** An identifier quoted for SQL (names come from the file's own schema). */
    static String quote(String identifier) {
        return ReadOnlySqlite.quote(identifier);
    }

    /** {@code quote(column)} or {@code NULL} when the column is absent: keeps result positions fixed. */
    static String columnOrNull(String column) {
        return column == null ? "NULL" : quote(column);
    }

    @Override
    public void close() throws SQLException {
        db.close();
    }
}
