package io.overlapanalyze.formats.nsys;

import io.overlapanalyze.formats.input.Messages;
import io.overlapanalyze.formats.input.ThreadBudget;
import io.overlapanalyze.formats.input.TraceFormatException;
import io.overlapanalyze.formats.input.TraceReader;
import io.overlapanalyze.formats.input.Warnings;
import io.overlapanalyze.formats.kernels.KernelClassifier;
import io.overlapanalyze.formats.sqlite.ReadOnlySqlite;
import io.overlapanalyze.model.Collective;
import io.overlapanalyze.model.DeviceIntervals;
import io.overlapanalyze.model.DeviceKind;
import io.overlapanalyze.model.HostSpan;
import io.overlapanalyze.model.HostSpanKind;
import io.overlapanalyze.model.HostThread;
import io.overlapanalyze.model.KernelShape;
import io.overlapanalyze.model.MemorySamples;
import io.overlapanalyze.model.RankSource;
import io.overlapanalyze.model.RankTrace;
import io.overlapanalyze.model.ShapePool;
import io.overlapanalyze.model.StringPool;
import io.overlapanalyze.model.Time;
import io.overlapanalyze.model.TraceFormat;
import io.overlapanalyze.primitives.LongIntMap;
import io.overlapanalyze.primitives.PrimitiveSort;
import org.sqlite.SQLiteErrorCode;
import org.sqlite.SQLiteException;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.regex.Pattern;

/**
 * Reads an Nsight Systems SQLite export ({@code nsys export --type sqlite}) into one
 * {@link RankTrace} per (process, CUDA device) that ran kernels (nsys.md; metrics.md §1–§2).
 *
 * <p>How it reads (nsys.md §1, §11–§12):
 * <ul>
 *   <li>read-only and immutable ({@link ExportDatabase}); nothing is created in or beside the file;</li>
 *   <li>version-aware: {@code META_DATA_EXPORT} or (2022) {@code EXPORT_META_DATA}; a schema newer than the
 *       newest one checked gives one warning and is read by column names; a needed column that is
 *       missing gives one error line naming table and column;</li>
 *   <li>every table optional, columns selected by name (never {@code SELECT *}); each table streamed
 *       forward-only, no table loaded as a list of objects;</li>
 *   <li>rows sorted by time <em>in Java</em>, not in SQL (nsys.md §9, §12): nsys creates no
 *       indexes and promises no row order, so {@code ORDER BY start} on the kernel or runtime table made
 *       SQLite build a temp B-tree of the whole table (~80 % of the read time on 2 M kernels). Device
 *       rows are read unsorted into primitive per-rank buffers ({@link RankBuilder#pend}) and ordered by
 *       (start, end) with {@link PrimitiveSort} when the table ends ({@link RankBuilder#flush}), so the model
 *       is exactly what the sorted query built, and memory stays bounded by the retained rows. The
 *       runtime table is read at the same time on a second read-only connection ({@link LaunchIndex}
 *       keeps the earliest call of a key); only the small NVTX range query still sorts in SQL;</li>
 *   <li>kernel/memcpy/memset → launch call: a hash join in Java on (process, correlationId), over runtime
 *       and driver calls only ({@code eventClass} 0/1; class 67 backtrace rows duplicate ids);</li>
 *   <li>NVTX: text or registered string ({@code textId}); domains per process; step ranges by pattern,
 *       {@code Optimizer.step#}, autograd ranges, {@code c10d::}/{@code nccl:} ops and NCCL's own API
 *       ranges are kept, nothing else.</li>
 * </ul>
 * Times are integer ns from the start of the capture plus {@code TARGET_INFO_SESSION_START_TIME.utcEpochNs}
 * when present, so that several exports (one per rank) share the epoch clock.
 */
public final class NsysReader implements TraceReader {
    private static final byte[] SQLITE_MAGIC = "SQLite format 3\0".getBytes(StandardCharsets.US_ASCII);
    static final String KERNEL = "CUPTI_ACTIVITY_KIND_KERNEL";
    static final String RUNTIME = "CUPTI_ACTIVITY_KIND_RUNTIME";
    static final String MEMCPY = "CUPTI_ACTIVITY_KIND_MEMCPY";
    static final String MEMSET = "CUPTI_ACTIVITY_KIND_MEMSET";
    static final String GRAPH = "CUPTI_ACTIVITY_KIND_GRAPH_TRACE";
    static final String NVTX = "NVTX_EVENTS";
    /** Every table the reader may read: a view or virtual table under one of these names is refused. */
    private static final String[] READ_TABLES = {KERNEL, RUNTIME, MEMCPY, MEMSET, GRAPH, NVTX, "StringIds",
            "META_DATA_EXPORT", "EXPORT_META_DATA", "TARGET_INFO_SESSION_START_TIME", "TARGET_INFO_SYSTEM_ENV",
            "META_DATA_CAPTURE", "ThreadNames", "MPI_RANKS", "TARGET_INFO_GPU",
            "TARGET_INFO_CUDA_DEVICE"};

    private final Pattern stepPattern;
    private final boolean defaultStepPattern;
    private final KernelClassifier classifier;
    /** What the export may weigh: the run's limits, passed in. */
    private final io.overlapanalyze.formats.input.InputLimits limits;

    /** One rank of an export with where it came from: for tests and reports that need the process. */
    public record NsysRank(long pid, int deviceId, String rankOrigin, RankTrace trace) {
    }

    /** A reader with the default step patterns and communication kernel names. */
    public NsysReader() {
        this(null, new KernelClassifier());
    }

    /**
     * @param stepPattern NVTX range names that mark a step ({@code find} on the name without the
     *                    emit_nvtx suffix), or {@code null} for the defaults of metrics.md §2
     * @param classifier  communication kernel names
     */
    public NsysReader(Pattern stepPattern, KernelClassifier classifier) {
        this(stepPattern, classifier, io.overlapanalyze.formats.input.InputLimits.DEFAULT);
    }

    /** As {@link #NsysReader(Pattern, KernelClassifier)}, under the run's input limits ({@code --max-input-size}). */
    public NsysReader(Pattern stepPattern, KernelClassifier classifier, io.overlapanalyze.formats.input.InputLimits limits) {
        this.limits = limits;
        this.defaultStepPattern = stepPattern == null;
        this.stepPattern = stepPattern == null ? NvtxNames.DEFAULT_STEP_PATTERN : stepPattern;
        this.classifier = classifier;
    }

    /** True when the file starts with the SQLite header. */
    public static boolean looksLikeSqlite(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            return Arrays.equals(in.readNBytes(SQLITE_MAGIC.length), SQLITE_MAGIC);
        }
    }

    @Override
    public List<RankTrace> read(Path input) throws TraceFormatException, IOException {
        List<RankTrace> out = new ArrayList<>();
        for (NsysRank r : readRanks(input)) {
            out.add(r.trace());
        }
        return out;
    }

    /** Reads every rank of the export; an export without device activity gives one empty rank. */
    public List<NsysRank> readRanks(Path input) throws TraceFormatException, IOException {
        String file = input.toString();
        if (!Files.isRegularFile(input)) {
            throw new java.nio.file.NoSuchFileException(file);
        }
        if (!looksLikeSqlite(input)) {
            throw new TraceFormatException(file + ": not an SQLite database (no \"SQLite format 3\" header), "
                    + "expected an Nsight Systems export (nsys export --type sqlite)");
        }
        try (ExportDatabase db = ExportDatabase.open(input, limits, READ_TABLES); StringTable strings = new StringTable(db)) {
            return new ExportRead(input, db, strings).run();
        } catch (SQLException e) {
            throw new TraceFormatException(file + ": " + describe(e), e);
        } catch (ArithmeticException e) {
            throw new TraceFormatException(file + ": a time plus the session start (utcEpochNs) is out of range", e);
        }
    }

    /** One line for an SQLite failure: corrupt, not a database, or another error. */
    static String describe(SQLException e) {
        String msg = Messages.oneLine(e);
        if (e instanceof SQLiteException se) {
            SQLiteErrorCode code = se.getResultCode();
            if (code == SQLiteErrorCode.SQLITE_CORRUPT || code.code == SQLiteErrorCode.SQLITE_CORRUPT.code) {
                return "corrupt SQLite database (" + msg + ")";
            }
            if (code == SQLiteErrorCode.SQLITE_NOTADB) {
                return "not an SQLite database, or a damaged one (" + msg + ")";
            }
        }
        if (msg.contains("malformed") || msg.contains("SQLITE_CORRUPT")) {
            return "corrupt SQLite database (" + msg + ")";
        }
        if (msg.contains("SQLITE_NOTADB")) {
            return "not an SQLite database, or a damaged one (" + msg + ")";
        }
        return "cannot read the SQLite database (" + msg + ")";
    }

    /** The state of reading one export (not "session": in Nsight that is the capture, whose start {@code sessionStart} reads). */
    private final class ExportRead {
        private final Path path;
        private final String file;
        private final ExportDatabase db;
        private final StringTable strings;
        private final Warnings warnings = new Warnings();
        /** Why communication cannot be told from compute in this export, or {@code null}. */
        private String commUnclassified;
        private final LaunchIndex launches = new LaunchIndex();
        private final RowNames rowNames = new RowNames();
        /** Kernel launch shapes of this export, by id (rows carry the id until their rank's model exists). */
        private final ShapePool shapes = new ShapePool();
        private final Map<Long, ProcessNvtx> processes = new HashMap<>();
        /** (processKey, deviceId) → rank, in first-seen order. */
        private final Map<Long, Map<Integer, RankBuilder>> ranks = new LinkedHashMap<>();
        private final List<RankBuilder> rankList = new ArrayList<>();
        private final Map<String, String> env = new LinkedHashMap<>();
        /** TARGET_INFO_GPU: device id → model name; empty when the export has no such table. */
        private final Map<Integer, String> gpuNames = new java.util.HashMap<>();
        /** TARGET_INFO_CUDA_DEVICE: "pid:cudaId" → GPU id; empty when the export has no such table. */
        private final Map<String, Integer> cudaDevices = new java.util.HashMap<>();
        private ExportVersion version;
        private long epochNs;
        private long droppedDeviceRows;
        /** Launch rows without an integer start (written by the launch read, read after it). */
        private long launchesWithoutStart;
        private String firstLaunchWithoutStart;

        ExportRead(Path path, ExportDatabase db, StringTable strings) {
            this.path = path;
            this.file = path.toString();
            this.db = db;
            this.strings = strings;
        }

        List<NsysRank> run() throws SQLException, TraceFormatException {
            identify();
            sessionStart();
            environment();
            gpuNames();
            threadNames();
            mpiRanks();
            boolean kernelTable = db.hasTable(KERNEL);
            // The runtime table (launch calls) and the kernel table are the two big tables: they are
            // read at the same time on two read-only connections; kernels join their launches when
            // they are ordered (RankBuilder.flush), after both are in.
            String launchSql = launchQuery();
            FutureTask<Void> launchRead = null;
            if (launchSql == null) {
                launches.build();
            } else if (kernelTable && ThreadBudget.limit() >= 2) {
                // Launches on a thread of their own while the kernels are read; within a budget of
                // one thread (a Spark task of one core), before them, as for an export without kernels.
                launchRead = new FutureTask<>(() -> {
                    try (ExportDatabase db2 = db.another(); StringTable strings2 = new StringTable(db2)) {
                        readLaunches(db2, strings2, launchSql);
                    }
                    return null;
                });
                Thread t = new Thread(launchRead, "nsys-launches");
                t.setDaemon(true);
                t.start();
            } else {
                readLaunches(db, strings, launchSql);
                warnSkippedLaunches();
            }
            if (kernelTable) {
                readDevice(KERNEL, DeviceKind.COMPUTE, launchRead);
                readDevice(MEMCPY, DeviceKind.MEMCPY, null);
                readDevice(MEMSET, DeviceKind.MEMSET, null);
                readDevice(GRAPH, DeviceKind.OTHER, null);
            }
            readNvtx();
            if (droppedDeviceRows > 0) {
                warnings.add("memcpy/memset rows of processes or devices that ran no kernel skipped",
                        droppedDeviceRows + " rows");
            }
            if (rankList.isEmpty()) {
                return List.of(noDeviceActivity(kernelTable));
            }
            return buildRanks();
        }

        /** Finds the export metadata; rejects SQLite files that are not Nsight exports. */
        private void identify() throws SQLException, TraceFormatException {
            String table = db.hasTable("META_DATA_EXPORT") ? "META_DATA_EXPORT"
                    : db.hasTable("EXPORT_META_DATA") ? "EXPORT_META_DATA" : null;
            Map<String, String> meta = new LinkedHashMap<>();
            if (table != null) {
                String name = db.column(table, "name");
                String value = db.column(table, "value");
                if (name != null && value != null) {
                    try (Statement st = db.statement();
                         ResultSet rs = st.executeQuery("SELECT " + ExportDatabase.quote(name) + ", "
                                 + ExportDatabase.quote(value) + " FROM " + ExportDatabase.quote(db.table(table)))) {
                        while (rs.next()) {
                            // A NULL value would make ExportVersion's Map.copyOf throw (an NPE: exit 3, internal error).
                            if (rs.getString(1) != null && rs.getString(2) != null) {
                                meta.putIfAbsent(rs.getString(1), rs.getString(2));
                            }
                        }
                    }
                }
            }
            boolean nsysTables = db.hasTable(KERNEL) || db.hasTable(RUNTIME) || db.hasTable(NVTX);
            if (table == null && !nsysTables) {
                throw new TraceFormatException(file + ": " + notNsight());
            }
            version = ExportVersion.of(table, meta);
            if (table == null) {
                warnings.add("no META_DATA_EXPORT / EXPORT_META_DATA table: export version unknown (a trimmed export?);"
                        + " read by column names");
            } else if (version.newerThanKnown()) {
                warnings.add(version.describe() + " is newer than the newest schema checked (" + ExportVersion.KNOWN
                        + "); read by column names");
            }
            String normalize = meta.get("EXPORT_PARAM_TIME_NORMALIZE");
            if ("true".equalsIgnoreCase(normalize)) {
                warnings.add("exported with time normalization (EXPORT_PARAM_TIME_NORMALIZE=true): times are not"
                        + " comparable with other exports");
            }
            for (String shiftKey : List.of("EXPORT_PARAM_TIME_SHIFT", "EXPORT_CONFIG_TIME_SHIFT")) {
                String shift = meta.get(shiftKey);
                if (shift != null && !shift.isBlank() && !shift.trim().equals("0")) {
                    warnings.add("exported with a time shift (" + shiftKey + "=" + shift.trim() + ")");
                }
            }
        }

        private String notNsight() {
            if (db.hasTable("StringTable") && !db.hasTable("StringIds")) {
                return "an nvprof database, not an Nsight Systems export (re-profile with nsys, or import the"
                        + " .nvvp into Nsight Systems and export to SQLite)";
            }
            if (db.hasTable("STRING_IDS") && (db.hasTable("TASK") || db.hasTable("COMMUNICATION_OP"))) {
                return "an Ascend profiler database, not an Nsight Systems export";
            }
            if (db.tableCount() == 0) {
                return "an empty SQLite database, not an Nsight Systems export";
            }
            return "an SQLite database but not an Nsight Systems export (no META_DATA_EXPORT or EXPORT_META_DATA"
                    + " table, no CUPTI_ACTIVITY_KIND_* or NVTX_EVENTS table)";
        }

        /** A needed column that this export lacks: one line, naming the schema when it is newer. */
        private TraceFormatException missingColumn(String table, String column) {
            String newer = version.newerThanKnown()
                    ? " (" + version.describe() + " is newer than " + ExportVersion.KNOWN + ": the column may have been renamed)"
                    : " (" + version.describe() + ")";
            return new TraceFormatException(file + ": table " + table + " has no column '" + column + "'" + newer);
        }

        private void sessionStart() throws SQLException {
            String t = "TARGET_INFO_SESSION_START_TIME";
            String col = db.hasTable(t) ? db.column(t, "utcEpochNs") : null;
            if (col == null) {
                return;
            }
            try (Statement st = db.statement();
                 ResultSet rs = st.executeQuery("SELECT " + ExportDatabase.quote(col) + " FROM "
                         + ExportDatabase.quote(db.table(t)) + " LIMIT 1")) {
                if (rs.next()) {
                    long v = rs.getLong(1);
                    epochNs = rs.wasNull() ? 0 : v;
                }
            }
        }

        private long time(long t) {
            return Math.addExact(t, epochNs);
        }

        /**
         * The GPUs' model names ({@code TARGET_INFO_GPU.name} by {@code id}) and, when the export has it,
         * which GPU each process' CUDA device is ({@code TARGET_INFO_CUDA_DEVICE}: pid, cudaId → gpuId). A
         * device row's {@code deviceId} is the CUDA device as the process saw it, which is not the GPU's
         * {@code id} in general (nsys.md: id 0 → cuDevice 3 observed), so names are never joined on it
         * directly. The GPU table is absent in some exports (windowed fixtures): the model is unknown.
         */
        private void gpuNames() throws SQLException {
            String t = "TARGET_INFO_GPU";
            String id = db.hasTable(t) ? db.column(t, "id") : null;
            String name = db.hasTable(t) ? db.column(t, "name") : null;
            if (id == null || name == null) {
                return;
            }
            Map<Integer, String> read = new java.util.HashMap<>();
            try (Statement st = db.statement();
                 ResultSet rs = st.executeQuery("SELECT " + ExportDatabase.quote(id) + ", " + ExportDatabase.quote(name)
                         + " FROM " + ExportDatabase.quote(db.table(t)))) {
                while (rs.next()) {
                    long d = rs.getLong(1);
                    if (!rs.wasNull() && d >= Integer.MIN_VALUE && d <= Integer.MAX_VALUE) {
                        read.put((int) d, rs.getString(2));
                    }
                }
            }
            gpuNames.putAll(RankTrace.deviceNames(read));
            t = "TARGET_INFO_CUDA_DEVICE";
            String gpu = db.hasTable(t) ? db.column(t, "gpuId") : null;
            String cuda = db.hasTable(t) ? db.column(t, "cudaId") : null;
            String pid = db.hasTable(t) ? db.column(t, "pid") : null;
            if (gpu == null || cuda == null || pid == null) {
                return;
            }
            try (Statement st = db.statement();
                 ResultSet rs = st.executeQuery("SELECT " + ExportDatabase.quote(pid) + ", " + ExportDatabase.quote(cuda)
                         + ", " + ExportDatabase.quote(gpu) + " FROM " + ExportDatabase.quote(db.table(t)))) {
                while (rs.next()) {
                    long p = rs.getLong(1);
                    long c = rs.getLong(2);
                    long g = rs.getLong(3);
                    if (g >= Integer.MIN_VALUE && g <= Integer.MAX_VALUE && c >= Integer.MIN_VALUE && c <= Integer.MAX_VALUE) {
                        cudaDevices.put(p + ":" + c, (int) g);
                    }
                }
            }
        }

        /**
         * The model of {@code r}'s device, keyed by its {@code deviceId} (as its lanes name it): through
         * {@code TARGET_INFO_CUDA_DEVICE} when that maps the process' device; else the node's model when
         * every GPU listed is of one model; else none (another GPU of a mixed node could be meant).
         */
        private Map<Integer, String> deviceNamesOf(RankBuilder r) {
            Integer gpu = cudaDevices.get(r.pid + ":" + r.deviceId);
            String name = null;
            if (gpu != null) {
                name = gpuNames.get(gpu);
            } else {
                java.util.Set<String> models = new java.util.TreeSet<>(gpuNames.values());
                name = models.size() == 1 ? models.iterator().next() : null;
            }
            return name == null ? Map.of() : Map.of(r.deviceId, name);
        }

        /** Launcher environment: DeviceEnvironment, then the launched process' own variables. */
        private void environment() throws SQLException {
            String t = "TARGET_INFO_SYSTEM_ENV";
            if (db.hasTable(t) && db.column(t, "name") != null && db.column(t, "value") != null) {
                try (Statement st = db.statement();
                     ResultSet rs = st.executeQuery("SELECT " + ExportDatabase.quote(db.column(t, "value")) + " FROM "
                             + ExportDatabase.quote(db.table(t)) + " WHERE " + ExportDatabase.quote(db.column(t, "name"))
                             + " = 'DeviceEnvironment'")) {
                    while (rs.next()) {
                        RankIds.parseEnvironment(rs.getString(1), env);
                    }
                }
            }
            t = "META_DATA_CAPTURE";
            if (db.hasTable(t) && db.column(t, "name") != null && db.column(t, "value") != null) {
                try (Statement st = db.statement();
                     ResultSet rs = st.executeQuery("SELECT " + ExportDatabase.quote(db.column(t, "value")) + " FROM "
                             + ExportDatabase.quote(db.table(t)) + " WHERE " + ExportDatabase.quote(db.column(t, "name"))
                             + " LIKE 'PROCESS_%:ENVIRONMENT_VARIABLE'")) {
                    while (rs.next()) {
                        RankIds.parseEnvironment(rs.getString(1), env);
                    }
                }
            }
        }

        private ProcessNvtx process(long processKey) {
            return processes.computeIfAbsent(processKey, k -> new ProcessNvtx());
        }

        private void threadNames() throws SQLException {
            String t = "ThreadNames";
            String nameId = db.hasTable(t) ? db.column(t, "nameId") : null;
            String tid = db.hasTable(t) ? db.column(t, "globalTid") : null;
            if (nameId == null || tid == null) {
                return;
            }
            try (Statement st = db.statement();
                 ResultSet rs = st.executeQuery("SELECT " + ExportDatabase.quote(nameId) + ", " + ExportDatabase.quote(tid)
                         + " FROM " + ExportDatabase.quote(db.table(t)))) {
                while (rs.next()) {
                    long id = rs.getLong(1);
                    boolean nullId = rs.wasNull();
                    long g = rs.getLong(2);
                    if (nullId || rs.wasNull()) {
                        continue;
                    }
                    String name = strings.get(id);
                    if (name != null && !name.isEmpty()) {
                        process(GlobalIds.process(g)).addThreadName(GlobalIds.tid(g), name);
                    }
                }
            }
        }

        /** {@code MPI_RANKS(globalTid, rank)} (3.25.0 with --trace=mpi). */
        private void mpiRanks() throws SQLException {
            String t = "MPI_RANKS";
            String tid = db.hasTable(t) ? db.column(t, "globalTid") : null;
            String rank = db.hasTable(t) ? db.column(t, "rank") : null;
            if (tid == null || rank == null) {
                return;
            }
            try (Statement st = db.statement();
                 ResultSet rs = st.executeQuery("SELECT " + ExportDatabase.quote(tid) + ", " + ExportDatabase.quote(rank)
                         + " FROM " + ExportDatabase.quote(db.table(t)))) {
                while (rs.next()) {
                    long g = rs.getLong(1);
                    int r = rs.getInt(2);
                    if (!rs.wasNull() && r >= 0) {
                        process(GlobalIds.process(g)).mpiRank = r;
                    }
                }
            }
        }

        /**
         * The query of the runtime and driver calls that launch device work, or {@code null} when the
         * export has none to join (a warning says why when the table lacks a column).
         */
        private String launchQuery() throws SQLException, TraceFormatException {
            if (!db.hasTable(RUNTIME)) {
                return null;
            }
            String start = required(RUNTIME, "start");
            String corr = db.column(RUNTIME, "correlationId");
            String tid = db.column(RUNTIME, "globalTid");
            String nameId = db.column(RUNTIME, "nameId");
            String cls = db.column(RUNTIME, "eventClass");
            String ret = db.column(RUNTIME, "returnValue");
            if (corr == null || nameId == null) {
                warnings.add("runtime calls not joined to device work: " + RUNTIME + " has no "
                        + (corr == null ? "correlationId" : "nameId") + " column");
                return null;
            }
            // No ORDER BY: the index keeps the earliest call of a key and sorts what it returns.
            // A start that is not an INTEGER (NULL, 'n/a', a real) comes back NULL: the row is skipped and
            // counted, never read as 0 (a launch at the session start moves its kernel to another step).
            return "SELECT " + ReadOnlySqlite.integerOrNull(ExportDatabase.quote(start)) + ", "
                    + ExportDatabase.columnOrNull(tid) + ", "
                    + ExportDatabase.quote(corr) + ", " + ExportDatabase.quote(nameId) + ", " + ExportDatabase.columnOrNull(ret)
                    + " FROM " + ExportDatabase.quote(db.table(RUNTIME))
                    // Class 67 (CUDA backtrace) rows repeat the correlationId under an unversioned name.
                    + (cls == null ? "" : " WHERE " + ExportDatabase.quote(cls) + " IN (0, 1)");
        }

        /**
         * Runtime and driver calls that launch device work, into the (process, correlationId) index.
         * Runs on its own connection {@code in} (and its string table) while the kernel table is read.
         */
        private void readLaunches(ExportDatabase in, StringTable names, String sql) throws SQLException {
            boolean memcpyTable = in.hasTable(MEMCPY);
            boolean graphTable = in.hasTable(GRAPH);
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
                        start = time(start);
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
                warnings.add(RUNTIME + " rows without an integer start (never read as 0: their kernels take the start"
                        + " of the process's call before them by correlationId, ids being issued in call order)",
                        firstLaunchWithoutStart, launchesWithoutStart);
            }
        }

        private void awaitLaunches(FutureTask<Void> launchRead) throws SQLException, TraceFormatException {
            try {
                launchRead.get();
                warnSkippedLaunches();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new SQLException("interrupted while reading " + RUNTIME, e);
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
        private int launchKind(String name, boolean memcpyTable, boolean graphTable) {
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

        private String required(String table, String column) throws SQLException, TraceFormatException {
            String c = db.column(table, column);
            if (c == null) {
                throw missingColumn(table, column);
            }
            return c;
        }

        /**
         * Streams one device table sorted by start into the ranks. Kernels create ranks; memcpy,
         * memset and graph rows join the ranks of their (process, device).
         */
        private void readDevice(String table, DeviceKind baseKind, FutureTask<Void> launchRead)
                throws SQLException, TraceFormatException {
            if (!db.hasTable(table)) {
                return;
            }
            boolean kernels = table.equals(KERNEL);
            String start = required(table, "start");
            String end = required(table, "end");
            String device = db.column(table, "deviceId");
            String context = db.column(table, "contextId");
            String stream = db.column(table, "streamId");
            String corr = db.column(table, "correlationId");
            String pid = db.column(table, "globalPid");
            String name = null;
            String fullName = null;
            String extra = null;
            if (kernels) {
                name = db.firstColumn(table, "shortName", "demangledName", "mangledName");
                if (name == null) {
                    throw missingColumn(table, "shortName");
                }
                // The short name drops the namespace ("dispatch" for deep_ep::intranode::dispatch<…>),
                // which is what tells an expert-parallel all-to-all from a compute kernel.
                String demangled = db.column(table, "demangledName");
                fullName = demangled != null && !demangled.equals(name) ? demangled : null;
            } else if (table.equals(MEMCPY)) {
                extra = db.column(table, "copyKind");
            } else if (table.equals(GRAPH)) {
                extra = db.column(table, "graphId");
            }
            // Launch shapes (gridX … blockZ): selected only when the export's schema has all six.
            String[] shapeColumns = null;
            if (kernels) {
                String[] cols = {"gridX", "gridY", "gridZ", "blockX", "blockY", "blockZ"};
                shapeColumns = new String[cols.length];
                for (int k = 0; k < cols.length && shapeColumns != null; k++) {
                    shapeColumns[k] = db.column(table, cols[k]);
                    if (shapeColumns[k] == null) {
                        shapeColumns = null;
                    }
                }
            }
            boolean hasShape = shapeColumns != null;
            StringBuilder shapeSql = new StringBuilder();
            if (hasShape) {
                for (String c : shapeColumns) {
                    shapeSql.append(", ").append(ExportDatabase.quote(c));
                }
            }
            if (kernels) {
                for (String[] c : new String[][] {{"deviceId", device}, {"streamId", stream}, {"globalPid", pid},
                        {"correlationId", corr}}) {
                    if (c[1] == null) {
                        warnings.add(table + " has no column '" + c[0] + "'" + (version.newerThanKnown() ? " (renamed in "
                                + version.schema() + "?)" : "") + ": " + ("correlationId".equals(c[0])
                                ? "kernels are not linked to their launch" : "one value assumed for all rows"));
                    }
                }
            }
            // start and end are read as they are; the place column says first whether both are
            // INTEGER (a text or real time in a damaged row is missing, never 0 or truncated): one
            // expression per row for the three, cheaper than a CASE around each time.
            String sql = "SELECT " + ExportDatabase.quote(start) + ", " + ExportDatabase.quote(end) + ", "
                    + ExportDatabase.columnOrNull(device) + ", " + ExportDatabase.columnOrNull(context) + ", "
                    + ExportDatabase.columnOrNull(stream) + ", " + ExportDatabase.columnOrNull(corr) + ", "
                    + ExportDatabase.columnOrNull(pid) + ", " + ExportDatabase.columnOrNull(name) + ", "
                    + ExportDatabase.columnOrNull(extra) + ", " + packedPlace(start, end, device, context, stream) + ", "
                    + ExportDatabase.columnOrNull(fullName) + shapeSql
                    + " FROM " + ExportDatabase.quote(db.table(table));
            // No ORDER BY (nsys.md §12): rows are streamed in file order into primitive buffers per
            // rank and ordered in Java (RankBuilder.flush), which the unindexed table would otherwise
            // cost SQLite a temp B-tree of the whole table for.
            boolean hasDevice = device != null;
            boolean hasContext = context != null;
            boolean hasStream = stream != null;
            boolean hasCorr = corr != null;
            boolean hasPid = pid != null;
            boolean memcpy = table.equals(MEMCPY);
            boolean graph = table.equals(GRAPH);
            // Skipped rows, reported as the sorted query reported them: the first example is the
            // smallest (start, end); rows without start sort first.
            long nullRows = 0;
            long nullKeyS = Long.MAX_VALUE;
            long nullKeyE = Long.MAX_VALUE;
            long badRows = 0;
            long badS = Long.MAX_VALUE;
            long badE = Long.MAX_VALUE;
            int memsetRef = memcpy || graph || kernels ? -1 : rowNames.ref("Memset", baseKind);
            LongIntMap extraRefs = new LongIntMap();
            long kernelNameIds = 0;
            java.util.Set<Long> countedNames = new java.util.HashSet<>();
            // Short name id -> row name, for the short names whose kind no full name changes (those
            // that do not read as compute): their rows leave the full name's column unread.
            LongIntMap byShortName = new LongIntMap();
            long danglingKernelNames = 0;
            long firstDanglingKernelName = 0;
            int nullExtraRef = -1;
            try (Statement st = db.statement(); ResultSet rs = st.executeQuery(sql)) {
                while (rs.next()) {
                    long packed = rs.getLong(10);
                    if (packed == START_NOT_INTEGER || packed == END_NOT_INTEGER) {
                        boolean nullStart = packed == START_NOT_INTEGER;
                        long ks = nullStart ? Long.MIN_VALUE : rs.getLong(1);
                        long ke = Long.MIN_VALUE;
                        if (nullRows == 0 || ks < nullKeyS || (ks == nullKeyS && ke < nullKeyE)) {
                            nullKeyS = ks;
                            nullKeyE = ke;
                        }
                        nullRows++;
                        continue;
                    }
                    long s = rs.getLong(1);
                    long e = rs.getLong(2);
                    if (e < s) {
                        if (badRows == 0 || s < badS || (s == badS && e < badE)) {
                            badS = s;
                            badE = e;
                        }
                        badRows++;
                        continue;
                    }
                    int dev;
                    long ctx;
                    long str;
                    if (packed >= 0) {
                        dev = (int) (packed >>> 48);
                        ctx = (packed >>> 24) & 0xFFFFFF;
                        str = packed & 0xFFFFFF;
                    } else {
                        dev = hasDevice ? rs.getInt(3) : 0;
                        ctx = hasContext ? rs.getLong(4) : 0;
                        str = -1;
                        if (hasStream) {
                            str = rs.getLong(5);
                            if (str == 0 && rs.wasNull()) {
                                str = -1;
                            }
                        }
                    }
                    long c = 0;
                    boolean noCorr = true;
                    if (hasCorr) {
                        c = rs.getLong(6);
                        noCorr = c == 0 && rs.wasNull();
                    }
                    long processKey = hasPid ? GlobalIds.process(rs.getLong(7)) : 0;
                    RankBuilder rank = rank(processKey, dev, kernels);
                    if (rank == null) {
                        droppedDeviceRows++;
                        continue;
                    }
                    int ref;
                    if (kernels) {
                        long id = rs.getLong(8);
                        ref = byShortName.get(id);
                        if (ref < 0) {
                            long fullId = fullName == null ? 0 : rs.getLong(11);
                            boolean hasFull = fullName != null && !(fullId == 0 && rs.wasNull());
                            // Keyed by the full name when there is one: kernels sharing a short name
                            // may still be of different kinds.
                            long key = hasFull ? fullId : id;
                            ref = rowNames.kernel(key);
                            if (ref < 0) {
                                String n = strings.stored(id);
                                // Counted per short name, as the export names kernels, however many
                                // demangled names share it.
                                boolean firstOfName = countedNames.add(id);
                                if (firstOfName) {
                                    kernelNameIds++;
                                }
                                if (n == null) {
                                    if (firstOfName && danglingKernelNames++ == 0) {
                                        firstDanglingKernelName = id;
                                    }
                                    n = StringTable.placeholder(id);
                                } else if (n.isEmpty()) {
                                    n = "(unnamed kernel)";
                                }
                                DeviceKind kind = classifier.kindOfKernel(n);
                                boolean byShortAlone = kind != DeviceKind.COMPUTE;
                                if (kind == DeviceKind.COMPUTE && hasFull) {
                                    String full = strings.stored(fullId);
                                    DeviceKind byFull = full == null ? kind : classifier.kindOfKernel(full);
                                    if (byFull != kind) {
                                        // Named by the full name, which is what says what it is (and
                                        // lets the collective's type be read from it).
                                        kind = byFull;
                                        n = full;
                                    }
                                }
                                ref = rowNames.ref(n, kind);
                                rowNames.cacheKernel(key, ref);
                                if (byShortAlone) {
                                    byShortName.put(id, ref);
                                }
                            }
                        }
                    } else if (memcpy || graph) {
                        long k = rs.getLong(9);
                        boolean nullExtra = k == 0 && rs.wasNull();
                        if (graph) {
                            warnings.add("CUDA graphs traced as whole graphs (--cuda-graph-trace=graph): each graph launch is"
                                    + " one OTHER interval, its kernels are not visible", "");
                        }
                        if (nullExtra) {
                            if (nullExtraRef < 0) {
                                nullExtraRef = rowNames.ref(memcpy ? "Memcpy" : "CUDA graph", baseKind);
                            }
                            ref = nullExtraRef;
                        } else {
                            ref = extraRefs.get(k);
                            if (ref < 0) {
                                ref = rowNames.ref(memcpy ? "Memcpy " + copyKind(k) : "CUDA graph " + k, baseKind);
                                extraRefs.put(k, ref);
                            }
                        }
                    } else {
                        ref = memsetRef;
                    }
                    int shape = -1;
                    if (hasShape) {
                        // A NULL (or non-integer) dimension reads as 0 with wasNull: the shape is unknown.
                        int gx = dim(rs, 12);
                        int gy = dim(rs, 13);
                        int gz = dim(rs, 14);
                        int bx = dim(rs, 15);
                        int by = dim(rs, 16);
                        int bz = dim(rs, 17);
                        if (KernelShape.valid(gx, gy, gz, bx, by, bz)) {
                            shape = shapes.intern(gx, gy, gz, bx, by, bz);
                        }
                    }
                    rank.pend(time(s), time(e), ctx, str, ref, noCorr ? RankBuilder.NO_CORRELATION : c, shape);
                }
            }
            boolean nullFirst = nullRows > 0 && (badRows == 0 || nullKeyS < badS || (nullKeyS == badS && nullKeyE < badE));
            if (nullFirst) {
                warnings.add(table + " rows without an integer start or end skipped", "", nullRows);
            }
            if (badRows > 0) {
                warnings.add(table + " rows ending before they start skipped", "start " + badS + ", end " + badE, badRows);
            }
            if (nullRows > 0 && !nullFirst) {
                warnings.add(table + " rows without an integer start or end skipped", "", nullRows);
            }
            if (kernels && danglingKernelNames > 0) {
                commUnclassified = "communication cannot be classified: " + (strings.present()
                        ? danglingKernelNames + " of " + kernelNameIds + " kernel names are not in StringIds (first: id "
                        + firstDanglingKernelName + "); those kernels"
                        : "the export has no StringIds table (names), so all kernels")
                        + " are counted as compute, and communication among them is not measured (its figures are"
                        + " not real zeros)";
                warnings.add(commUnclassified);
            }
            if (launchRead != null) {
                awaitLaunches(launchRead);
            }
            for (RankBuilder r : rankList) {
                r.flush(rowNames, launches, shapes);
            }
            if (kernels) {
                // Ranks in the order of their first kernel, as a time-ordered read would meet them.
                rankList.sort(Comparator.comparingLong((RankBuilder r) -> r.firstStart).thenComparingLong(r -> r.firstEnd));
            }
        }

        /** A launch dimension at {@code column}: -1 when NULL or outside int. */
        private static int dim(ResultSet rs, int column) throws SQLException {
            long v = rs.getLong(column);
            if ((v == 0 && rs.wasNull()) || v < 0 || v > Integer.MAX_VALUE) {
                return -1;
            }
            return (int) v;
        }

        /**
         * {@link #START_NOT_INTEGER} or {@link #END_NOT_INTEGER} when a time is not an INTEGER (NULL,
         * text, real); else deviceId, contextId and streamId in one value when all three are present
         * and small (they are small counters in every export seen), else -1: one column read instead
         * of three per row, and the times' type test in the same expression.
         */
        private String packedPlace(String start, String end, String device, String context, String stream) {
            String times = "CASE WHEN typeof(" + ExportDatabase.quote(start) + ") <> 'integer' THEN " + START_NOT_INTEGER
                    + " WHEN typeof(" + ExportDatabase.quote(end) + ") <> 'integer' THEN " + END_NOT_INTEGER;
            if (device == null || context == null || stream == null) {
                return times + " ELSE -1 END";
            }
            String d = ExportDatabase.quote(device);
            String c = ExportDatabase.quote(context);
            String s = ExportDatabase.quote(stream);
            return times + " WHEN " + d + " BETWEEN 0 AND 32767 AND " + c + " BETWEEN 0 AND 16777215 AND " + s
                    + " BETWEEN 0 AND 16777215 THEN (" + d + " << 48) | (" + c + " << 24) | " + s + " ELSE -1 END";
        }

        private RankBuilder rank(long processKey, int deviceId, boolean create) {
            Map<Integer, RankBuilder> byDevice = ranks.get(processKey);
            RankBuilder r = byDevice == null ? null : byDevice.get(deviceId);
            if (r == null && create) {
                r = new RankBuilder(processKey, deviceId);
                ranks.computeIfAbsent(processKey, k -> new LinkedHashMap<>()).put(deviceId, r);
                rankList.add(r);
            }
            return r;
        }

        /** NVTX ranges, sorted by start (parents first at equal starts), into per-process spans and timelines. */
        private void readNvtx() throws SQLException, TraceFormatException {
            if (!db.hasTable(NVTX)) {
                return;
            }
            String start = required(NVTX, "start");
            String end = db.column(NVTX, "end");
            String type = required(NVTX, "eventType");
            String text = db.column(NVTX, "text");
            String textId = db.column(NVTX, "textId");
            String domain = db.column(NVTX, "domainId");
            String tid = db.column(NVTX, "globalTid");
            if (text == null && textId == null) {
                throw missingColumn(NVTX, "text");
            }
            String sql = "SELECT " + ReadOnlySqlite.integerOrNull(ExportDatabase.quote(start)) + ", "
                    + (end == null ? "NULL" : ReadOnlySqlite.integerOrNull(ExportDatabase.quote(end))) + ", "
                    + ExportDatabase.quote(type) + ", " + ExportDatabase.columnOrNull(text) + ", "
                    + ExportDatabase.columnOrNull(textId) + ", " + ExportDatabase.columnOrNull(domain) + ", "
                    + ExportDatabase.columnOrNull(tid) + ", "
                    // An end that is there but no INTEGER ('n/a', a real) is damage, not an open range.
                    + (end == null ? "0" : "typeof(" + ExportDatabase.quote(end) + ") NOT IN ('integer', 'null')")
                    + " FROM " + ExportDatabase.quote(db.table(NVTX))
                    // 39 thread name, 59/60 push-pop / start-end ranges, 70/71 their NVTXt forms, 75 domain create.
                    + " WHERE " + ExportDatabase.quote(type) + " IN (39, 59, 60, 70, 71, 75)"
                    + " ORDER BY 1" + (end == null ? "" : ", 2 DESC");
            Warnings unusable = new Warnings();
            try (Statement st = db.statement(); ResultSet rs = st.executeQuery(sql)) {
                while (rs.next()) {
                    long s = rs.getLong(1);
                    boolean noStart = s == 0 && rs.wasNull();
                    long e = rs.getLong(2);
                    boolean openRange = rs.wasNull();
                    int eventType = rs.getInt(3);
                    String name = rs.getString(4);
                    long id = rs.getLong(5);
                    if (name == null && !rs.wasNull()) {
                        name = strings.get(id);
                    }
                    long dom = rs.getLong(6);
                    if (rs.wasNull()) {
                        dom = 0;
                    }
                    long g = rs.getLong(7);
                    if (rs.wasNull() || name == null) {
                        continue;
                    }
                    ProcessNvtx p = process(GlobalIds.process(g));
                    long thread = GlobalIds.tid(g);
                    if (eventType == 75) {
                        p.domains.put(dom, name);
                        continue;
                    }
                    if (eventType == 39) {
                        p.addThreadName(thread, name);
                        Integer mpi = mpiRankOf(name);
                        if (mpi != null && p.mpiRank == null) {
                            p.mpiRank = mpi;
                        }
                        continue;
                    }
                    if (noStart) {
                        unusable.add("NVTX ranges without an integer start skipped", "\"" + name + "\"");
                        continue;
                    }
                    if (rs.getInt(8) != 0) {
                        unusable.add("NVTX ranges without an integer end skipped", "\"" + name + "\"");
                        continue;
                    }
                    if (openRange || e < s) {
                        // No extent to hold launches. A step among them loses its step: say so.
                        if (isStep(NvtxNames.baseName(name))) {
                            unusable.add(openRange ? "step ranges without an end (unfinished, or a damaged end) ignored"
                                    : "step ranges ending before they start ignored",
                                    "\"" + name + "\" at " + time(s));
                        }
                        continue;
                    }
                    range(p, thread, time(s), time(e), dom, name);
                }
            }
            for (String line : unusable.lines()) {
                warnings.add(line);
            }
        }

        private void range(ProcessNvtx p, long thread, long s, long e, long dom, String name) {
            if (dom != 0 && isNcclDomain(p, dom, name)) {
                p.ncclApi.add(thread, s, e, name);
                return;
            }
            if (NvtxNames.looksLikePyTorch(name)) {
                p.pytorchRanges = true;
            }
            String base = NvtxNames.baseName(name);
            HostSpanKind kind = null;
            if (isStep(base)) {
                kind = HostSpanKind.STEP;
            } else if (NvtxNames.isOptimizer(base)) {
                kind = HostSpanKind.OPTIMIZER;
            } else if (NvtxNames.isBackward(base)) {
                kind = HostSpanKind.BACKWARD;
            } else if (NvtxNames.isC10d(base)) {
                p.c10d.add(thread, s, e, base);
            } else if (NvtxNames.isCommAnnotation(base)) {
                p.commAnnotations.add(thread, s, e, base);
            }
            if (kind != HostSpanKind.STEP) {
                p.hostRanges.add(thread, s, e, base); // what the thread was doing (metrics.md §11)
            }
            if (kind == HostSpanKind.STEP && !p.spans.isEmpty()) {
                // Step spans must not overlap (StepAssigner): a step range inside the previous one is dropped.
                HostSpan last = lastStep(p);
                if (last != null && s < last.endNs()) {
                    p.stepSpansDropped++;
                    return;
                }
            }
            if (kind != null) {
                p.spans.add(new HostSpan(kind, base, s, e, thread));
            }
        }

        private HostSpan lastStep(ProcessNvtx p) {
            for (int i = p.spans.size() - 1; i >= 0; i--) {
                if (p.spans.get(i).kind() == HostSpanKind.STEP) {
                    return p.spans.get(i);
                }
            }
            return null;
        }

        private boolean isStep(String base) {
            return defaultStepPattern ? stepPattern.matcher(base).matches() : stepPattern.matcher(base).find();
        }

        /** NCCL's domain, by its create row; trimmed exports lose that row, so fall back to the names. */
        private boolean isNcclDomain(ProcessNvtx p, long dom, String name) {
            String d = p.domains.get(dom);
            if (d != null) {
                return d.equals("NCCL");
            }
            return name.startsWith("nccl");
        }

        private Integer mpiRankOf(String threadName) {
            java.util.regex.Matcher m = MPI_RANK.matcher(threadName);
            return m.matches() ? Integer.valueOf(m.group(1)) : null;
        }

        private List<NsysRank> buildRanks() {
            Map<RankBuilder, RankIds.Id> ids = RankIds.assign(rankList, env, processes);
            List<NsysRank> out = new ArrayList<>();
            for (RankBuilder r : rankList) {
                ProcessNvtx p = processes.getOrDefault(r.processKey, new ProcessNvtx());
                p.build();
                List<Collective> collectives = CollectiveBuilder.build(r, p);
                List<HostThread> threads = threads(p);
                boolean hostOps = p.pytorchRanges || hasPhaseSpans(p) || autogradLaunched(r, threads);
                RankIds.Id id = ids.get(r);
                Warnings w = copyOfWarnings();
                w.add("rank " + id.rank() + " is process " + r.pid + " on CUDA device " + r.deviceId + " (rank id: "
                        + id.how() + ")");
                if (p.stepSpansDropped > 0) {
                    w.add("step ranges nested in or overlapping an earlier step range ignored", p.stepSpansDropped + " ranges");
                }
                List<HostSpan> spans = new ArrayList<>(p.spans);
                spans.sort(Comparator.comparingLong(HostSpan::startNs)
                        .thenComparing(Comparator.comparingLong(HostSpan::endNs).reversed()));
                RankTrace trace = new RankTrace(file, TraceFormat.NSYS, id.rank(), id.source(), id.worldSize(),
                        r.lanes(), r.device, spans, threads, collectives, List.of(),
                        launches.unmatchedLaunches(r.processKey), hostOps, false, w.lines(), List.of(), List.of(),
                        MemorySamples.empty(), commUnclassified, List.of(), p.hostRanges.outermost(0), null, deviceNamesOf(r));
                out.add(new NsysRank(r.pid, r.deviceId, id.how(), trace));
            }
            out.sort(Comparator.comparingInt((NsysRank n) -> n.trace().rank()).thenComparingLong(NsysRank::pid));
            return out;
        }

        private boolean hasPhaseSpans(ProcessNvtx p) {
            for (HostSpan s : p.spans) {
                if (s.kind() != HostSpanKind.STEP) {
                    return true;
                }
            }
            return false;
        }

        /** An autograd-engine thread launched some of this rank's work: backward is identifiable. */
        private boolean autogradLaunched(RankBuilder r, List<HostThread> threads) {
            long[] autograd = threads.stream().filter(HostThread::autograd).mapToLong(HostThread::threadId).sorted().toArray();
            if (autograd.length == 0) {
                return false;
            }
            DeviceIntervals d = r.device;
            for (int i = 0; i < d.size(); i++) {
                if (Arrays.binarySearch(autograd, d.launchThread(i)) >= 0) {
                    return true;
                }
            }
            return false;
        }

        private List<HostThread> threads(ProcessNvtx p) {
            List<HostThread> out = new ArrayList<>();
            for (Map.Entry<Long, List<String>> e : p.threadNames.entrySet()) {
                boolean autograd = e.getValue().stream().anyMatch(n -> n.contains("pt_autograd"));
                out.add(new HostThread(e.getKey(), e.getValue(), autograd));
            }
            out.sort(Comparator.comparingLong(HostThread::threadId));
            return out;
        }

        private Warnings copyOfWarnings() {
            Warnings w = new Warnings();
            for (String line : warnings.lines()) {
                w.add(line);
            }
            return w;
        }

        /** The export recorded no kernels: one empty rank whose warning says why. */
        private NsysRank noDeviceActivity(boolean kernelTable) {
            Warnings w = copyOfWarnings();
            w.add("no device activity in this export: " + (kernelTable
                    ? "the " + KERNEL + " table holds no kernel rows"
                    : "there is no " + KERNEL + " table (CUDA trace off, a WSL capture, or an export limited with --tables)")
                    + (launches.size() > 0 ? "; " + launches.size() + " CUDA launch/copy calls were recorded without device rows"
                    : ""));
            RankTrace trace = new RankTrace(file, TraceFormat.NSYS, 0, RankSource.DEFAULT, -1, List.of(),
                    new DeviceIntervals(new StringPool(), 16), List.of(), List.of(), List.of(), List.of(), new long[0],
                    false, false, w.lines(), List.of(), List.of(), MemorySamples.empty(), null, List.of());
            return new NsysRank(-1, -1, "no device activity", trace);
        }
    }

    private static final Pattern MPI_RANK = Pattern.compile("MPI Rank (\\d+)");
    /** Place column of a device row whose start is not an INTEGER. */
    static final long START_NOT_INTEGER = -3;
    /** Place column of a device row whose start is an INTEGER and whose end is not. */
    static final long END_NOT_INTEGER = -2;

    /** CUPTI memcpy kinds (nsys.md §3) as Kineto names them. */
    static String copyKind(long k) {
        switch ((int) k) {
            case 1: return "HtoD";
            case 2: return "DtoH";
            case 3: return "HtoA";
            case 4: return "AtoH";
            case 5: return "AtoA";
            case 6: return "AtoD";
            case 7: return "DtoA";
            case 8: return "DtoD";
            case 9: return "HtoH";
            case 10: return "PtoP";
            default: return "kind " + k;
        }
    }
}
