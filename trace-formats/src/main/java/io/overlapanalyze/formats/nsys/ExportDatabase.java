package io.overlapanalyze.formats.nsys;

import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteOpenMode;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * A read-only connection to an SQLite file plus what its schema holds (nsys.md §11–§12).
 *
 * <p>The file is opened as a URI with {@code mode=ro&immutable=1}: SQLite then neither writes nor
 * locks it and creates no {@code -wal}/{@code -shm}/{@code -journal} file beside it, even for a
 * database in WAL mode (the Ascend DB export is one). Sorting spills go to SQLite's temp
 * directory, never next to the user's file. Tables and columns are looked up case-insensitively
 * (as SQLite does) and only on demand, one {@code PRAGMA table_info} per table.
 */
final class ExportDatabase implements AutoCloseable {
    private final Connection connection;
    /** lower-case table name → name as declared. */
    private final Map<String, String> tables = new HashMap<>();
    /** lower-case table name → (lower-case column → declared column), filled lazily. */
    private final Map<String, Map<String, String>> columns = new HashMap<>();

    private ExportDatabase(Connection connection) {
        this.connection = connection;
    }

    /** Opens {@code file} read-only and immutable, and lists its tables. */
    static ExportDatabase open(Path file) throws SQLException {
        SQLiteConfig config = new SQLiteConfig();
        config.setReadOnly(true);
        config.resetOpenMode(SQLiteOpenMode.CREATE);     // never create a missing file
        config.setOpenMode(SQLiteOpenMode.OPEN_URI);     // honour mode=ro&immutable=1
        // Connection settings only, nothing is written: map the file instead of copying pages through
        // the page cache, a larger cache, and any sort or temp B-tree in memory, not in a temp file.
        config.setPragma(SQLiteConfig.Pragma.MMAP_SIZE, Long.toString(1L << 30));
        config.setCacheSize(-65536);                      // KiB: 64 MiB
        config.setTempStore(SQLiteConfig.TempStore.MEMORY);
        // toUri() percent-encodes spaces, '?', '#' and non-ASCII, which SQLite URI names decode.
        String uri = file.toAbsolutePath().normalize().toUri().toASCIIString();
        Connection c = config.createConnection("jdbc:sqlite:" + uri + "?mode=ro&immutable=1");
        ExportDatabase db = new ExportDatabase(c);
        try {
            db.listTables();
        } catch (SQLException e) {
            db.close();
            throw e;
        }
        return db;
    }

    private void listTables() throws SQLException {
        try (Statement st = connection.createStatement();
             ResultSet rs = st.executeQuery("SELECT name FROM sqlite_master WHERE type IN ('table', 'view')")) {
            while (rs.next()) {
                String name = rs.getString(1);
                tables.put(name.toLowerCase(Locale.ROOT), name);
            }
        }
    }

    boolean hasTable(String table) {
        return tables.containsKey(table.toLowerCase(Locale.ROOT));
    }

    int tableCount() {
        return tables.size();
    }

    /** The declared name of {@code column} in {@code table}, or {@code null} when either is absent. */
    String column(String table, String column) throws SQLException {
        Map<String, String> cols = columnsOf(table);
        return cols == null ? null : cols.get(column.toLowerCase(Locale.ROOT));
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

    private Map<String, String> columnsOf(String table) throws SQLException {
        String key = table.toLowerCase(Locale.ROOT);
        String declared = tables.get(key);
        if (declared == null) {
            return null;
        }
        Map<String, String> cols = columns.get(key);
        if (cols == null) {
            cols = new LinkedHashMap<>();
            try (Statement st = connection.createStatement();
                 ResultSet rs = st.executeQuery("PRAGMA table_info(" + quote(declared) + ")")) {
                while (rs.next()) {
                    String name = rs.getString("name");
                    cols.put(name.toLowerCase(Locale.ROOT), name);
                }
            }
            columns.put(key, cols);
        }
        return cols;
    }

    /** The declared name of {@code table} (for SQL), assuming {@link #hasTable}. */
    String table(String table) {
        return tables.get(table.toLowerCase(Locale.ROOT));
    }

    Statement statement() throws SQLException {
        Statement st = connection.createStatement();
        st.setFetchSize(4096);
        return st;
    }

    PreparedStatement prepare(String sql) throws SQLException {
        return connection.prepareStatement(sql);
    }

    /** An identifier quoted for SQL (names come from the file's own schema). */
    static String quote(String identifier) {
        return '"' + identifier.replace("\"", "\"\"") + '"';
    }

    /** {@code quote(column)} or {@code NULL} when the column is absent: keeps result positions fixed. */
    static String columnOrNull(String column) {
        return column == null ? "NULL" : quote(column);
    }

    @Override
    public void close() throws SQLException {
        connection.close();
    }
}
