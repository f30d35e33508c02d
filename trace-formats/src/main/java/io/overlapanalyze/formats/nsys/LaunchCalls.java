package io.overlapanalyze.formats.nsys;

import io.overlapanalyze.formats.input.ThreadBudget;
import io.overlapanalyze.formats.input.TraceFormatException;
import io.overlapanalyze.formats.input.Warnings;
import io.overlapanalyze.formats.kernels.KernelClassifier;
import io.overlapanalyze.formats.sqlite.ReadOnlySqlite;
import io.overlapanalyze.model.Time;
import io.overlapanalyze.primitives.LongIntMap;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;

/**
 * The runtime and driver calls that launch device work ({@code CUPTI_ACTIVITY_KIND_RUNTIME},
 * {@code eventClass} 0/1 only: class 67 backtrace rows duplicate correlationIds), read unsorted into
 * the (process, correlationId) {@link LaunchIndex} that device rows join at {@link RankBuilder#flush}.
 *
 * <p>The runtime table is one of the two big tables: when the kernel table is read too and the thread
 * budget allows two threads, it is read on a thread of its own over a second read-only connection
 * ({@link #start}) while the kernels stream in, and the kernel read {@link #await}s it before ordering
 * its rows. Within a budget of one thread (a Spark task of one core), or without kernels, it is read
 * first, on the calling thread.
 */
final class LaunchCalls {
    private final ExportDatabase db;
    private final ExportSchema schema;
    private final SessionClock clock;
    private final Warnings warnings;
    private final LaunchIndex launches = new LaunchIndex();
    /** The read on its own thread, until {@link #await}ed; {@code null} when none runs. */
    private FutureTask<Void> pending;
    /** Launch rows without an integer start (written by the launch read, read after it). */
    private long launchesWithoutStart;
    private String firstLaunchWithoutStart;

    LaunchCalls(ExportDatabase db, ExportSchema schema, SessionClock clock, Warnings warnings) {
        this.db = db;
        this.schema = schema;
        this.clock = clock;
        this.warnings = warnings;
    }

    /** The index of the calls read; complete once {@link #await} returned. */
    LaunchIndex index() {
        return launches;
    }

    /**
     * Reads the launch calls: on a thread of its own when {@code kernelTable} is read meanwhile and
     * the budget allows, else now on {@code db} with the session's {@code strings}. An export without
     * a joinable runtime table gives an empty index.
     */
    void start(boolean kernelTable, StringTable strings) throws SQLException, TraceFormatException {
        String launchSql = launchQuery();
        if (launchSql == null) {
            launches.build();
        } else if (kernelTable && ThreadBudget.limit() >= 2) {
            // Launches on a thread of their own while the kernels are read; within a budget of
            // one thread (a Spark task of one core), before them, as for an export without kernels.
            pending = new FutureTask<>(() -> {
                try (ExportDatabase db2 = db.another(); StringTable strings2 = new StringTable(db2)) {
                    read(db2, strings2, launchSql);
                }
                return null;
            });
            Thread t = new Thread(pending, "nsys-launches");
            t.setDaemon(true);
            t.start();
        } else {
            read(db, strings, launchSql);
            warnSkippedLaunches();
        }
    }

    /**
     * The query of the runtime and driver calls that launch device work, or {@code null} when the
     * export has none to join (a warning says why when the table lacks a column).
     */
    private String launchQuery() throws SQLException, TraceFormatException {
        if (!db.hasTable(NsysReader.RUNTIME)) {
            return null;
        }
        String runtime = NsysReader.RUNTIME;
        String start = schema.required(runtime, "start");
        String corr = db.column(runtime, "correlationId");
        String tid = db.column(runtime, "globalTid");
        String nameId = db.column(runtime, "nameId");
        String cls = db.column(runtime, "eventClass");
        String ret = db.column(runtime, "returnValue");
        if (corr == null || nameId == null) {
            warnings.add("runtime calls not joined to device work: " + runtime + " has no "
                    + (corr == null ? "correlationId" : "nameId") + " column");
            return null;
        }
        // No ORDER BY: the index keeps the earliest call of a key and sorts what it returns.
        // A start that is not an INTEGER (NULL, 'n/a', a real) comes back NULL: the row is skipped and
        // counted, never read as 0 (a launch at the session start moves its kernel to another step).
        return "SELECT " + ReadOnlySqlite.integerOrNull(ExportDatabase.quote(start)) + ", "
                + ExportDatabase.columnOrNull(tid) + ", "
                + ExportDatabase.quote(corr) + ", " + ExportDatabase.quote(nameId) + ", " + ExportDatabase.columnOrNull(ret)
                + " FROM " + ExportDatabase.quote(db.table(runtime))
                // Class 67 (CUDA backtrace) rows repeat the correlationId under an unversioned name.
                + (cls == null ? "" : " WHERE " + ExportDatabase.quote(cls) + " IN (0, 1)");
    }

    /**
     * Runtime and driver calls that launch device work, into the (process, correlationId) index.
     * Runs on its own connection {@code in} (and its string table) while the kernel table is read.
     */
    private void read(ExportDatabase in, StringTable names, String sql) throws SQLException {
        boolean memcpyTable = in.hasTable(NsysReader.MEMCPY);
        boolean graphTable = in.hasTable(NsysReader.GRAPH);
        LongIntMap launchKind = new LongIntMap(); // nameId → 0 none, 1 joinable, 2 counts as launch
        try (Statement st = in.statement(); ResultSet rs = st.executeQuery(sql)) {
            while (rs.next()) {
                long c = rs.getLong(3);
                if (c == 0 && rs.wasNull()) {
                    continue;
                }
                long id = rs.getLong(4);
                int kind = launchKind.get(id);
                if (kind < 0) {
                    kind = launchKind(names.get(id), memcpyTable, graphTable);
                    launchKind.put(id, kind);
                }
                long g = rs.getLong(2);
                boolean noThread = g == 0 && rs.wasNull();
                if (kind == 0) {
                    launches.noteCall(noThread ? 0 : GlobalIds.process(g), c);
                    continue;
                }
                long start = rs.getLong(1);
                if (start == 0 && rs.wasNull()) {
                    // Counted, never read as 0: the index bounds it by its neighbours (LaunchIndex).
                    if (launchesWithoutStart++ == 0) {
                        firstLaunchWithoutStart = "correlationId " + c;
                    }
                    start = Time.UNKNOWN;
                } else {
                    start = clock.time(start);
                }
                long returned = rs.getLong(5);
                boolean failed = returned != 0; // a failed launch has no device work (NULL reads as 0)
                launches.add(noThread ? 0 : GlobalIds.process(g), c, start, noThread ? -1 : GlobalIds.tid(g),
                        kind == 2 && !failed);
            }
        }
        launches.build();
    }

    /**
     * The launch rows skipped for an unreadable start, as one counted warning. Called on the
     * reading thread once the launch read is over (its counts are then visible: FutureTask.get).
     */
    private void warnSkippedLaunches() {
        if (launchesWithoutStart > 0) {
            warnings.add(NsysReader.RUNTIME + " rows without an integer start (never read as 0: their kernels take the"
                    + " start of the process's call before them by correlationId, ids being issued in call order)",
                    firstLaunchWithoutStart, launchesWithoutStart);
        }
    }

    /** Waits for the read started on its own thread, if one runs, and adds its warning. */
    void await() throws SQLException, TraceFormatException {
        if (pending == null) {
            return;
        }
        FutureTask<Void> launchRead = pending;
        pending = null;
        try {
            launchRead.get();
            warnSkippedLaunches();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SQLException("interrupted while reading " + NsysReader.RUNTIME, e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof SQLException se) {
                throw se;
            }
            if (cause instanceof TraceFormatException te) {
                throw te;
            }
            if (cause instanceof RuntimeException re) {
                throw re;
            }
            if (cause instanceof Error err) {
                throw err;
            }
            throw new SQLException(cause);
        }
    }

    /**
     * 2: a call whose missing device work means lost work (kernel launches; memcpy when the export
     * has a memcpy table; graph launches when it has a graph table). 1: joinable but not counted
     * (memset: complete traces routinely hold memsets without a device record, see
     * KernelClassifier). 0: not a launch.
     */
    private static int launchKind(String name, boolean memcpyTable, boolean graphTable) {
        if (name == null) {
            return 0;
        }
        if (name.contains("Memset")) {
            return 1;
        }
        if (name.contains("GraphLaunch")) {
            return graphTable ? 2 : 1;
        }
        if (name.contains("Memcpy")) {
            return memcpyTable ? 2 : 1;
        }
        return KernelClassifier.launchesDeviceWork(name) ? 2 : 0;
    }
}
