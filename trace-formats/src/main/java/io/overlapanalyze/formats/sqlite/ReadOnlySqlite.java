package io.overlapanalyze.formats.sqlite;

import io.overlapanalyze.formats.input.InputLimits;
import io.overlapanalyze.formats.input.TraceFormatException;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteOpenMode;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The one way the readers open a user's SQLite file (Nsight export, Ascend DB, analysis.db): read
 * only, nothing created or locked beside it, and no input able to crash or stall the process.
 *
 * <ul>
 *   <li>The file is opened as a URI with {@code mode=ro&immutable=1}: SQLite then takes no locks
 *       and creates no {@code -wal}/{@code -shm}/{@code -journal} file next to the user's data
 *       (a read-only ordinary connection to a WAL database would, and fails in a read-only
 *       folder).</li>
 *   <li>Memory mapping is off ({@code mmap_size=0}): a file that shrinks while it is read (a
 *       capture still being copied, a disk error) then gives a short read, an SQL error, where a
 *       mapped page past the new end is a SIGBUS inside the native library that kills the JVM.</li>
 *   <li>{@code immutable=1} also means SQLite ignores a {@code -wal} (committed rows not yet
 *       checkpointed) and a hot {@code -journal} (an interrupted write it would roll back). When
 *       either is beside the file, the database and that file are copied into a private temporary
 *       directory and opened there as an ordinary database, so SQLite applies the log or rolls the
 *       journal back in the copy: the reader sees what {@code sqlite3} would, and the user's files
 *       stay untouched. The copy is deleted on {@link #close}, or at exit when the JVM is ended by a
 *       signal; one a killed process left is swept by the next run ({@link PrivateCopies}).</li>
 *   <li>Only real tables are listed ({@code sqlite_master} type {@code table}, not virtual): a view
 *       (a recursive one can run for ever) or a virtual table where a reader expects a table is
 *       refused by {@link #requireTablesOnly}.</li>
 *   <li>The file (with its log) is bounded by {@link InputLimits#maxDecompressedBytes()}, and
 *       {@link #rowBudget()} bounds what a join may return by what a file of that size can hold.</li>
 * </ul>
 * Sorts and temporary B-trees stay in memory; nothing goes to SQLite's temporary directory either.
 * The page cache is small (2 MiB): every read is a single scan of a table.
 */
public final class ReadOnlySqlite implements AutoCloseable {
    private static final byte[] JOURNAL_MAGIC = {(byte) 0xd9, (byte) 0xd5, 0x05, (byte) 0xf9, 0x20, (byte) 0xa1, 0x63,
            (byte) 0xd7};

    static {
        NativeLibraryHome.ensure();
    }

    private final Path file;
    private final Connection connection;
    private final PrivateCopies.Dir privateCopy;
    private final long bytes;
    private final String uri;
    private final boolean readOnly;
    /** lower-case name → name as declared: real tables only. */
    private final Map<String, String> tables;
    /** lower-case name → what it is instead ("a view", "a virtual table"). */
    private final Map<String, String> notTables;
    private final Map<String, Map<String, String>> columns = new HashMap<>();

    private ReadOnlySqlite(Path file, String uri, boolean readOnly, Connection connection, PrivateCopies.Dir privateCopy,
                           long bytes)
            throws SQLException {
        this.file = file;
        this.uri = uri;
        this.readOnly = readOnly;
        this.connection = connection;
        this.privateCopy = privateCopy;
        this.bytes = bytes;
        Map<String, String> t = new LinkedHashMap<>();
        Map<String, String> other = new HashMap<>();
        try (Statement st = connection.createStatement();
             ResultSet rs = st.executeQuery("SELECT type, name, sql FROM sqlite_master WHERE type IN ('table', 'view')")) {
            while (rs.next()) {
                String name = rs.getString(2);
                if (name == null) {
                    continue;
                }
                String key = name.toLowerCase(Locale.ROOT);
                String sql = rs.getString(3);
                if ("view".equals(rs.getString(1))) {
                    other.put(key, "a view");
                } else if (sql != null && sql.stripLeading().regionMatches(true, 0, "CREATE VIRTUAL", 0, 14)) {
                    other.put(key, "a virtual table");
                } else {
                    t.put(key, name);
                }
            }
        }
        this.tables = Collections.unmodifiableMap(t);
        this.notTables = Collections.unmodifiableMap(other);
    }

    /**
     * Opens {@code file} as described above.
     *
     * @throws TraceFormatException when the file (with its log) is over the input size limit
     * @throws SQLException         when SQLite cannot open it or read its schema
     */
    public static ReadOnlySqlite open(Path file) throws SQLException, TraceFormatException, IOException {
        return open(file, InputLimits.DEFAULT);
    }

    /**
     * As {@link #open(Path)}, refusing a database (with its log) over {@code limits} (the run's,
     * from its {@code ReadOptions}).
     */
    public static ReadOnlySqlite open(Path file, InputLimits limits) throws SQLException, TraceFormatException, IOException {
        Path wal = sibling(file, "-wal");
        Path journal = sibling(file, "-journal");
        boolean withWal = Files.isRegularFile(wal) && Files.size(wal) > 0;
        boolean hotJournal = !withWal && isJournal(journal);
        long bytes = Files.size(file) + (withWal ? Files.size(wal) : 0) + (hotJournal ? Files.size(journal) : 0);
        long limit = limits.maxDecompressedBytes();
        if (bytes > limit) {
            throw new TraceFormatException(file + ": " + bytes + " bytes" + (withWal ? " with its write-ahead log" : "")
                    + ", over the input size limit of " + limit + " bytes (raise it with --max-input-size)");
        }
        if (!withWal && !hotJournal) {
            String uri = file.toAbsolutePath().normalize().toUri().toASCIIString() + "?mode=ro&immutable=1";
            return connect(file, uri, true, null, bytes);
        }
        // Named with this process's id, deleted on close or at exit, swept by a later run after a kill.
        PrivateCopies.Dir dir = PrivateCopies.create();
        try {
            Path copy = dir.path().resolve("db.sqlite");
            Files.copy(file, copy, StandardCopyOption.COPY_ATTRIBUTES);
            Files.copy(withWal ? wal : journal, sibling(copy, withWal ? "-wal" : "-journal"));
            makeWritable(copy);
            // An ordinary connection: SQLite reads the log (or rolls the journal back) in the copy.
            String uri = copy.toUri().toASCIIString();
            return connect(file, uri, false, dir, bytes);
        } catch (SQLException | IOException | RuntimeException e) {
            dir.delete();
            throw e;
        }
    }

    private static ReadOnlySqlite connect(Path file, String uri, boolean readOnly, PrivateCopies.Dir privateCopy,
                                          long bytes)
            throws SQLException {
        SQLiteConfig config = new SQLiteConfig();
        config.setReadOnly(readOnly);
        config.resetOpenMode(SQLiteOpenMode.CREATE);      // never create a missing file
        config.setOpenMode(SQLiteOpenMode.OPEN_URI);      // honour mode=ro&immutable=1
        config.setPragma(SQLiteConfig.Pragma.MMAP_SIZE, "0");
        // KiB: 2 MiB, SQLite's own default. Without memory mapping every page read is copied into
        // this cache, and the readers scan each table once: a large cache only fills with pages no
        // one reads again, costing its size in resident memory per connection and CPU for the fresh
        // memory, while the pages that are reused (index interiors of the id lookups) fit in 2 MiB.
        config.setCacheSize(-2048);
        config.setTempStore(SQLiteConfig.TempStore.MEMORY);
        Connection c = config.createConnection("jdbc:sqlite:" + uri);
        try {
            return new ReadOnlySqlite(file, uri, readOnly, c, privateCopy, bytes);
        } catch (SQLException | RuntimeException e) {
            c.close();
            throw e;
        }
    }

    /** A rollback journal with a header SQLite would act on (a zeroed header is a finished one). */
    private static boolean isJournal(Path journal) throws IOException {
        if (!Files.isRegularFile(journal) || Files.size(journal) == 0) {
            return false;
        }
        try (InputStream in = Files.newInputStream(journal)) {
            return java.util.Arrays.equals(in.readNBytes(JOURNAL_MAGIC.length), JOURNAL_MAGIC);
        }
    }

    private static Path sibling(Path file, String suffix) {
        return file.resolveSibling(file.getFileName().toString() + suffix);
    }

    private static void makeWritable(Path copy) {
        // The copy keeps the original's permissions; a read-only one could not be rolled back.
        copy.toFile().setWritable(true, true);
    }

    /**
     * A second connection to what this one reads (the file, or the same private copy), for reading
     * another table in parallel. Close it before this one; it does not own the copy.
     */
    public ReadOnlySqlite another() throws SQLException {
        return connect(file, uri, readOnly, null, bytes);
    }

    /** The connection; statements on it read the file (or the private copy). */
    public Connection connection() {
        return connection;
    }

    /** True when {@code name} is a real table (case-insensitive, as SQLite compares names). */
    public boolean hasTable(String name) {
        return tables.containsKey(name.toLowerCase(Locale.ROOT));
    }

    /** The declared name of a real table, or {@code null}. */
    public String table(String name) {
        return tables.get(name.toLowerCase(Locale.ROOT));
    }

    /**
     * The columns of a real table, lower-case name → name as declared, in table order; {@code null}
     * when there is no such table. One {@code PRAGMA table_info} per table, cached.
     */
    public Map<String, String> columns(String table) throws SQLException {
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
            cols = Collections.unmodifiableMap(cols);
            columns.put(key, cols);
        }
        return cols;
    }

    /** An identifier quoted for SQL (names come from the file's own schema). */
    public static String quote(String identifier) {
        return '"' + identifier.replace("\"", "\"\"") + '"';
    }

    /**
     * A column (already quoted) as SQL that yields its value when it is an INTEGER and NULL
     * otherwise: a text or real time in a damaged row then reads as missing, where a numeric read
     * makes 0 of {@code 'n/a'}. The readers' 0-then-{@code wasNull} check stays the only per-row cost.
     */
    public static String integerOrNull(String column) {
        return "CASE WHEN typeof(" + column + ") = 'integer' THEN " + column + " END";
    }

    /** Real tables, as declared. */
    public Set<String> tableNames() {
        return Set.copyOf(tables.values());
    }

    /**
     * Refuses the file when one of {@code names} (tables the reader would read) is a view or a
     * virtual table: their rows are computed, without a bound a file's size sets.
     */
    public void requireTablesOnly(String... names) throws TraceFormatException {
        for (String n : names) {
            String what = notTables.get(n.toLowerCase(Locale.ROOT));
            if (what != null) {
                throw new TraceFormatException(file + ": " + n + " is " + what + ", not a table: only stored tables are"
                        + " read (a profiler never writes one)");
            }
        }
    }

    /** True when the file was read through a private copy with its write-ahead log or journal. */
    public boolean readThroughCopy() {
        return privateCopy != null;
    }

    /** The private copy's directory, or {@code null} when the file is read in place. */
    Path privateCopy() {
        return privateCopy == null ? null : privateCopy.path();
    }

    /**
     * The most rows one query may sensibly return: a stored row takes at least a few bytes, so a
     * query returning more rows than the file has bytes is a join multiplying crafted rows.
     */
    public long rowBudget() {
        return Math.max(1_000_000L, bytes);
    }

    @Override
    public void close() throws SQLException {
        try {
            connection.close();
        } finally {
            if (privateCopy != null) {
                privateCopy.delete();
            }
        }
    }

    static void deleteTree(Path dir) {
        try (var walk = Files.walk(dir)) {
            walk.sorted(java.util.Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException ignored) {
                    p.toFile().deleteOnExit();
                }
            });
        } catch (IOException ignored) {
            dir.toFile().deleteOnExit();
        }
    }
}
