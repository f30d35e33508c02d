package io.overlapanalyze.cli.history;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.overlapanalyze.formats.input.Messages;
import io.overlapanalyze.formats.sqlite.NativeLibraryHome;
import io.overlapanalyze.options.UserInputException;
import io.overlapanalyze.reportfile.ReportJson;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteOpenMode;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * A history of runs in a database: {@code summary --history} appends, {@code gate --baseline-history} and
 * {@code history} read. The embedded default is a SQLite file; a JDBC URL ({@code jdbc:...}) names any
 * database whose driver is on the class path (the jar ships SQLite's).
 *
 * <p>Never loses a run: each append is one transaction, begun {@code IMMEDIATE} (the write lock first, so two
 * writers queue instead of failing half-way), in WAL mode with {@code synchronous=FULL} (a crash keeps every
 * committed run), with a busy timeout of {@link #BUSY_TIMEOUT_MS} (two CI jobs appending at once wait for each
 * other). A damaged database is one line and exit 2 ({@link UserInputException}), never an empty history: a
 * reader runs SQLite's {@code quick_check} first, and the schema is exact ({@code application_id}
 * {@link #APPLICATION_ID}, {@code user_version} {@link #SCHEMA_VERSION}, table {@code runs} with its columns).
 * No state is kept between calls: each call opens its own connection, as separate processes do.
 */
public final class RunHistory {
    /** {@code PRAGMA user_version} of the schema this version writes; a newer one is refused. */
    public static final int SCHEMA_VERSION = 1;
    /** {@code PRAGMA application_id}: "OAHR", so another program's SQLite file is never taken for a history. */
    public static final int APPLICATION_ID = 0x4f414852;
    /** How long a writer waits for another to finish, in ms. */
    public static final int BUSY_TIMEOUT_MS = 30_000;

    static final String DDL = "CREATE TABLE IF NOT EXISTS runs (id INTEGER PRIMARY KEY, time TEXT NOT NULL, "
            + "\"commit\" TEXT, branch TEXT, labels TEXT NOT NULL, passed INTEGER NOT NULL, summary TEXT NOT NULL)";
    private static final List<String> COLUMNS = List.of("id", "time", "commit", "branch", "labels", "passed", "summary");
    private static final ObjectMapper JSON = ReportJson.mapper();

    private RunHistory() {
    }

    /** Which runs to read. {@code branch} null: every branch; {@code last} null: all. */
    public record Query(String branch, boolean passedOnly, Integer last) {
    }

    /**
     * Appends {@code run} (its id is ignored) in one transaction, creating the database and its table when
     * missing; refuses a database that is not a run history. Returns the new row's id.
     */
    public static long append(String where, HistoryRun run) {
        Target t = Target.of(where, true);
        try (Connection c = t.connect(true)) {
            try {
                c.setAutoCommit(false);
                requireSchema(c, t, true);
                long id;
                try (PreparedStatement ps = c.prepareStatement("INSERT INTO runs (time, \"commit\", branch, labels, "
                        + "passed, summary) VALUES (?, ?, ?, ?, ?, ?)", Statement.RETURN_GENERATED_KEYS)) {
                    ps.setString(1, run.time());
                    ps.setString(2, run.commit());
                    ps.setString(3, run.branch());
                    ps.setString(4, JSON.writeValueAsString(run.labels()));
                    ps.setInt(5, run.passed() ? 1 : 0);
                    ps.setString(6, run.summary());
                    ps.executeUpdate();
                    try (ResultSet keys = ps.getGeneratedKeys()) {
                        id = keys.next() ? keys.getLong(1) : -1;
                    }
                }
                c.commit();
                return id;
            } catch (SQLException | IOException | RuntimeException e) {
                rollback(c);
                throw e;
            }
        } catch (SQLException | IOException e) {
            throw t.problem("cannot append the run", e);
        }
    }

    /** The runs {@code q} asks for, oldest first. */
    public static List<HistoryRun> read(String where, Query q) {
        List<HistoryRun> out = new ArrayList<>();
        forEach(where, q, out::add);
        return out;
    }

    /**
     * Hands the runs {@code q} asks for to {@code each}, oldest first, one row at a time. A missing, damaged or
     * foreign database is a {@link UserInputException}.
     */
    public static void forEach(String where, Query q, Consumer<HistoryRun> each) {
        Target t = Target.of(where, false);
        try (Connection c = t.connect(false)) {
            if (t.sqlite()) {
                try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("PRAGMA quick_check")) {
                    String first = rs.next() ? rs.getString(1) : "no answer";
                    if (!"ok".equals(first)) {
                        throw t.damaged("SQLite's integrity check says: " + first);
                    }
                }
            }
            requireSchema(c, t, false);
            // The newest N, read back oldest first: ids grow with every append.
            String ofQuery = "SELECT id FROM runs WHERE " + (q.branch() == null ? "1 = 1" : "branch = ?")
                    + (q.passedOnly() ? " AND passed = 1" : "") + " ORDER BY id DESC"
                    + (q.last() == null ? "" : " LIMIT " + q.last());
            List<Long> ids = new ArrayList<>();
            try (PreparedStatement ps = c.prepareStatement(ofQuery)) {
                if (q.branch() != null) {
                    ps.setString(1, q.branch());
                }
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        ids.add(rs.getLong(1));
                    }
                }
            }
            // One row at a time, so a long history costs one summary's memory.
            try (PreparedStatement ps = c.prepareStatement("SELECT id, time, \"commit\", branch, labels, passed, "
                    + "summary FROM runs WHERE id = ?")) {
                for (int i = ids.size() - 1; i >= 0; i--) {
                    ps.setLong(1, ids.get(i));
                    try (ResultSet rs = ps.executeQuery()) {
                        if (rs.next()) {
                            each.accept(row(t, rs));
                        }
                    }
                }
            }
        } catch (SQLException e) {
            throw t.problem("not a readable run history", e);
        }
    }

    private static HistoryRun row(Target t, ResultSet rs) throws SQLException {
        long id = rs.getLong(1);
        String time = rs.getString(2);
        String labelsJson = rs.getString(5);
        String summary = rs.getString(7);
        if (time == null || labelsJson == null || summary == null) {
            throw t.damaged("run " + id + " has no " + (time == null ? "time" : labelsJson == null ? "labels"
                    : "summary"));
        }
        Map<String, String> labels;
        try {
            labels = JSON.readValue(labelsJson, new TypeReference<Map<String, String>>() { });
        } catch (IOException e) {
            throw t.damaged("run " + id + ": labels are not a JSON object of strings");
        }
        if (labels == null) {
            throw t.damaged("run " + id + ": labels are null");
        }
        return new HistoryRun(id, time, rs.getString(3), rs.getString(4), labels, rs.getInt(6) != 0, summary);
    }

    /**
     * The schema must be this tool's: an empty new database gets it when {@code create}; anything else that is
     * not exactly it (another program's tables, a newer version) is refused, for writing too: never add a table
     * to someone else's database.
     */
    private static void requireSchema(Connection c, Target t, boolean create) throws SQLException {
        Set<String> tables = new HashSet<>();
        DatabaseMetaData meta = c.getMetaData();
        try (ResultSet rs = meta.getTables(null, null, "%", new String[]{"TABLE"})) {
            while (rs.next()) {
                tables.add(rs.getString("TABLE_NAME").toLowerCase(Locale.ROOT));
            }
        }
        int version = t.sqlite() ? pragma(c, "user_version") : SCHEMA_VERSION;
        int app = t.sqlite() ? pragma(c, "application_id") : APPLICATION_ID;
        if (tables.isEmpty() && version == 0 && app == 0) {
            if (!create) {
                throw t.damaged("the database is empty (no runs yet; 'summary --history' appends them)");
            }
            try (Statement st = c.createStatement()) {
                st.execute(DDL);
                if (t.sqlite()) {
                    st.execute("PRAGMA application_id = " + APPLICATION_ID);
                    st.execute("PRAGMA user_version = " + SCHEMA_VERSION);
                }
            }
            return;
        }
        if (app != APPLICATION_ID || !tables.contains("runs")) {
            throw t.problem("not an overlap-analyze run history (" + (app != APPLICATION_ID
                    ? "its application_id is " + app + ", not " + APPLICATION_ID : "it has no table runs") + ")", null);
        }
        if (version > SCHEMA_VERSION) {
            throw t.problem("run history schema version " + version + " is newer than this overlap-analyze reads ("
                    + SCHEMA_VERSION + "); use a newer overlap-analyze", null);
        }
        if (version < 1) {
            throw t.damaged("schema version " + version + " is not valid (versions start at 1)");
        }
        Set<String> columns = new HashSet<>();
        try (ResultSet rs = meta.getColumns(null, null, "runs", "%")) {
            while (rs.next()) {
                columns.add(rs.getString("COLUMN_NAME").toLowerCase(Locale.ROOT));
            }
        }
        for (String col : COLUMNS) {
            if (!columns.contains(col)) {
                throw t.damaged("table runs has no column " + col);
            }
        }
    }

    private static int pragma(Connection c, String name) throws SQLException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("PRAGMA " + name)) {
            return rs.next() ? rs.getInt(1) : 0;
        }
    }

    private static void rollback(Connection c) {
        try {
            c.rollback();
        } catch (SQLException ignored) {
            // The connection closes next, which rolls back what was not committed anyway.
        }
    }

    /**
     * Where the history is: a file (SQLite) or a JDBC URL.
     *
     * @param url   the JDBC URL
     * @param shown what messages call it: the path as typed, or the URL without its query (which may hold a password)
     * @param file  the SQLite file, or {@code null} for a URL
     */
    private record Target(String url, String shown, Path file) {
        static Target of(String where, boolean forWriting) {
            if (where == null || where.isBlank()) {
                throw new UserInputException("the run history is an empty path; give a file (runs.db) or a JDBC URL");
            }
            if (where.startsWith("jdbc:")) {
                int q = where.indexOf('?');
                return new Target(where, Messages.printable(q < 0 ? where : where.substring(0, q)), null);
            }
            Path p;
            try {
                p = Path.of(where);
            } catch (InvalidPathException e) {
                throw new UserInputException(Messages.quote(where) + ": not a valid path for a run history");
            }
            String shown = Messages.quote(where);
            if (Files.exists(p) && !Files.isRegularFile(p)) {
                throw new UserInputException(shown + ": not a run history (not a regular file)");
            }
            if (!forWriting && !Files.exists(p)) {
                throw new UserInputException(shown + ": no such run history ('summary --history " + shown
                        + "' creates it)");
            }
            return new Target("jdbc:sqlite:" + p.toAbsolutePath().normalize(), shown, p);
        }

        boolean sqlite() {
            return url.startsWith("jdbc:sqlite:");
        }

        Connection connect(boolean forWriting) throws SQLException {
            if (!sqlite()) {
                return DriverManager.getConnection(url);
            }
            NativeLibraryHome.ensure();
            SQLiteConfig config = new SQLiteConfig();
            config.setBusyTimeout(BUSY_TIMEOUT_MS);
            if (!forWriting) {
                config.resetOpenMode(SQLiteOpenMode.CREATE);  // a reader never creates a missing database
            }
            // BEGIN IMMEDIATE: the write lock is taken at the start, so the busy timeout covers the whole append.
            config.setTransactionMode(SQLiteConfig.TransactionMode.IMMEDIATE);
            Connection c = config.createConnection(url);
            try {
                if (forWriting) {
                    walMode(c);
                }
                try (Statement st = c.createStatement()) {
                    st.execute("PRAGMA synchronous = FULL");
                }
                return c;
            } catch (SQLException | RuntimeException e) {
                c.close();
                throw e;
            }
        }

        /**
         * Sets WAL mode (kept in the file once set). Switching needs the database to itself, and SQLite does not
         * always wait for that with the busy handler: another process creating the same new database at this
         * moment answers BUSY, so this waits up to the busy timeout itself.
         */
        private static void walMode(Connection c) throws SQLException {
            long deadline = System.nanoTime() + BUSY_TIMEOUT_MS * 1_000_000L;
            while (true) {
                try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("PRAGMA journal_mode = WAL")) {
                    return;
                } catch (SQLException e) {
                    String m = String.valueOf(e.getMessage());
                    if (!(m.contains("SQLITE_BUSY") || m.contains("locked")) || System.nanoTime() > deadline) {
                        throw e;
                    }
                    try {
                        Thread.sleep(20);
                    } catch (InterruptedException ie) {
                        Thread.currentThread().interrupt();
                        throw e;
                    }
                }
            }
        }

        UserInputException damaged(String what) {
            return new UserInputException(shown + ": damaged run history: " + what);
        }

        UserInputException problem(String what, Exception e) {
            String why = e == null ? "" : ": " + Messages.printable(Messages.oneLine(e));
            return new UserInputException(shown + ": " + what + why, e);
        }
    }
}
