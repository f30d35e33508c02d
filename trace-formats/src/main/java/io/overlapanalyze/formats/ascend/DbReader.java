package io.overlapanalyze.formats.ascend;

import io.overlapanalyze.formats.input.Messages;
import io.overlapanalyze.formats.input.TraceFormatException;
import io.overlapanalyze.formats.input.Warnings;
import io.overlapanalyze.formats.kernels.KernelRules;
import io.overlapanalyze.formats.json.DecimalMicros;
import io.overlapanalyze.formats.sqlite.ReadOnlySqlite;
import io.overlapanalyze.model.DeviceKind;
import io.overlapanalyze.model.HostSpan;
import io.overlapanalyze.model.RankTrace;
import io.overlapanalyze.model.ReferenceOverlap;
import io.overlapanalyze.model.Time;
import io.overlapanalyze.model.TraceFormat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.IntFunction;

/**
 * Reads the DB export ({@code ascend_pytorch_profiler_<rank>.db}, msprof {@code msprof_*.db};
 * ascend.md §7) into one {@link RankTrace} per device, and the sibling {@code analysis.db}
 * {@code StepTraceTime} as the cross-check reference.
 *
 * <p>Rules, chosen to measure what {@code StepTraceTime} measures (PROVENANCE.md, "union rule"):
 * compute = {@code TASK} rows that have a {@code COMPUTE_TASK_INFO} row; communication = one COMM
 * interval per {@code COMMUNICATION_OP} row; the HCCL tasks of {@code COMMUNICATION_TASK_INFO} are
 * left out (they lie inside their op). Other tasks are kept with a non-compute kind, for the device
 * window. Launch: {@code PYTORCH_API → CONNECTION_IDS → TASK.connectionId} (the framework op),
 * else {@code CANN_API.connectionId}. Device times are INTEGER ns; {@code PYTORCH_API} times are TEXT.
 */
final class DbReader {
    private static final long API_TYPE_OP = 50001; // ENUM_API_TYPE 'op'

    private final Path db;
    private final String source;
    private final IntFunction<RankInfo> rankFallback;
    private Map<Long, String> strings = Map.of();
    private long rowBudget = Long.MAX_VALUE;

    /** What a kernel is, as the run's options say (never read from process-wide state). */
    private final KernelRules rules;
    /** What the database may weigh: the run's limits, passed in. */
    private final io.overlapanalyze.formats.input.InputLimits limits;

    DbReader(Path db, String source, IntFunction<RankInfo> rankFallback, KernelRules rules,
             io.overlapanalyze.formats.input.InputLimits limits) {
        this.db = db;
        this.source = source;
        this.rankFallback = rankFallback;
        this.rules = rules;
        this.limits = limits;
    }

    /** Every table the reader may read: a view or virtual table under one of these names is refused. */
    private static final String[] READ_TABLES = {"TASK", "STRING_IDS", "RANK_DEVICE_MAP", "COMPUTE_TASK_INFO",
            "COMMUNICATION_TASK_INFO", "CANN_API", "PYTORCH_API", "CONNECTION_IDS", "COMMUNICATION_OP",
            "ENUM_HCCL_DATA_TYPE", "STEP_TIME", "MEMORY_RECORD", "StepTraceTime"};

    List<RankTrace> read() throws TraceFormatException, IOException {
        try (ReadOnlySqlite c = ReadOnlySqlite.open(db, limits)) {
            c.requireTablesOnly(READ_TABLES);
            Set<String> tables = upperCase(c.tableNames());
            if (tables.contains("STEPTRACETIME") && !tables.contains("TASK")) {
                throw new TraceFormatException(db + ": this is torch_npu's analysis.db (summaries only); pass the "
                        + "ascend_pytorch_profiler_<rank>.db next to it, or the *_ascend_pt directory");
            }
            if (!tables.contains("TASK") || !tables.contains("STRING_IDS")) {
                throw new TraceFormatException(db + ": not an Ascend profiler database (no TASK / STRING_IDS tables)");
            }
            rowBudget = c.rowBudget();
            strings = strings(c);
            return devices(c, tables);
        } catch (SQLException e) {
            throw new TraceFormatException(db + ": cannot read the SQLite database: " + Messages.oneLine(e));
        } catch (RowBudgetExceeded e) {
            throw new TraceFormatException(db + ": a query returned more than " + rowBudget + " rows, more than a file"
                    + " of this size can store (a join of crafted rows?)");
        }
    }

    /** Table names, upper-cased (the DB export's names are upper-case; SQLite compares them without case). */
    static Set<String> upperCase(Set<String> names) {
        Set<String> out = new HashSet<>();
        for (String n : names) {
            out.add(n.toUpperCase(Locale.ROOT));
        }
        return out;
    }

    private List<RankTrace> devices(ReadOnlySqlite c, Set<String> tables) throws SQLException, TraceFormatException {
        Map<Integer, Integer> rankOfDevice = new HashMap<>();
        Map<Integer, java.util.TreeSet<Integer>> ranksOfDevice = new HashMap<>();
        if (tables.contains("RANK_DEVICE_MAP")) {
            query(c, "SELECT rankId, deviceId FROM RANK_DEVICE_MAP",
                    rs -> ranksOfDevice.computeIfAbsent(rs.getInt(2), d -> new java.util.TreeSet<>()).add(rs.getInt(1)));
        }
        for (Map.Entry<Integer, java.util.TreeSet<Integer>> e : ranksOfDevice.entrySet()) {
            if (e.getValue().size() == 1) {
                rankOfDevice.put(e.getKey(), e.getValue().first());
            }
        }
        Map<Long, Long> compute = computeTaskNames(c, tables);
        Set<Long> commTasks = ids(c, tables, "COMMUNICATION_TASK_INFO");
        RowProblems problems = new RowProblems();
        Map<Long, long[]> launches = launches(c, tables, problems);
        Map<Integer, RankAssembler> byDevice = new TreeMap<>();

        query(c, "SELECT " + ReadOnlySqlite.integerOrNull("startNs") + ", " + ReadOnlySqlite.integerOrNull("endNs")
                + ", deviceId, connectionId, globalTaskId, taskType, streamId FROM TASK", rs -> {
            long taskId = rs.getLong(5);
            if (commTasks.contains(taskId)) {
                return;
            }
            long start = rs.getLong(1);
            long end = rs.getLong(2);
            if (!problems.accept("TASK", rs, 1, taskId, start, end)) {
                return;
            }
            int dev = rs.getInt(3);
            RankAssembler a = byDevice.computeIfAbsent(dev, d -> new RankAssembler(rules));
            long stream = rs.getLong(7);
            String type = strings.get(rs.getLong(6));
            if (TaskKinds.isProfilerMarker(type)) {
                return;
            }
            Long computeName = compute.get(taskId);
            // A compute task whose operator is an MC² kernel (MatmulAllReduce…) computes and communicates.
            DeviceKind kind = computeName != null ? rules.kindOfComputeTask(strings.get(computeName))
                    : nonCompute(TaskKinds.ofTaskType(type));
            long conn = rs.getLong(4);
            long[] launch = conn == 0 && rs.wasNull() ? null : launches.get(conn);
            // A fused task keeps its operator's name: which MC² operator it is matters, and its
            // AI CPU server task (…AicpuKernel) is told apart by it.
            String name = kind == DeviceKind.FUSED ? strings.get(computeName) : type == null ? "task" : type;
            a.task(a.streamLane(dev, stream), start, end, kind, name, launch == null ? Time.UNKNOWN : launch[0], launch == null ? -1 : launch[1]);
        });
        if (tables.contains("COMMUNICATION_OP")) {
            Map<Long, String> dataTypes = enumTable(c, tables, "ENUM_HCCL_DATA_TYPE");
            boolean hasDevice = c.columns("COMMUNICATION_OP").containsKey("deviceid");
            int onlyDevice = byDevice.size() == 1 ? byDevice.keySet().iterator().next() : 0;
            query(c, "SELECT opName, " + ReadOnlySqlite.integerOrNull("startNs") + ", " + ReadOnlySqlite.integerOrNull("endNs")
                    + ", connectionId, groupName, dataType, count"
                    + (hasDevice ? ", deviceId" : "") + " FROM COMMUNICATION_OP ORDER BY 2", rs -> {
                long start = rs.getLong(2);
                long end = rs.getLong(3);
                if (!problems.accept("COMMUNICATION_OP", rs, 2, -1, start, end)) {
                    return;
                }
                int dev = hasDevice ? rs.getInt(8) : onlyDevice;
                RankAssembler a = byDevice.computeIfAbsent(dev, d -> new RankAssembler(rules));
                String group = strings.get(rs.getLong(5));
                long[] launch = rs.getObject(4) == null ? null : launches.get(rs.getLong(4));
                String count = rs.getString(7);
                long n = -1;
                try {
                    n = count == null ? -1 : new java.math.BigDecimal(count).longValueExact();
                } catch (NumberFormatException | ArithmeticException ignored) {
                    n = -1;
                }
                String label = group == null ? "Communication" : "Group " + group + " Communication";
                a.collective(a.lane(dev, -1, label), start, end, strings.get(rs.getLong(1)),
                        group, label, dataTypes.get(rs.getLong(6)), n,
                        launch == null ? Time.UNKNOWN : launch[0], launch == null ? -1 : launch[1]);
            });
        }
        if (byDevice.isEmpty()) {
            throw new TraceFormatException(db + ": the database holds no device tasks (TASK is "
                    + (problems.any() ? "all rows without integer times" : "empty") + ")");
        }
        hostOps(c, tables, byDevice, problems);
        List<String> warnings = problems.lines();
        String commUnclassified = null;
        if (!tables.contains("COMMUNICATION_OP")) {
            commUnclassified = "communication cannot be classified: the database has no COMMUNICATION_OP table (its"
                    + " HCCL tasks are left out as always), so no communication is measured and the communication"
                    + " figures of this rank are not real zeros";
            warnings.add(commUnclassified);
        }
        Map<String, List<ReferenceOverlap>> reference = stepTraceTime(byDevice.keySet());
        List<RankTrace> out = new ArrayList<>();
        for (Map.Entry<Integer, RankAssembler> e : byDevice.entrySet()) {
            int dev = e.getKey();
            RankAssembler a = e.getValue();
            for (ReferenceOverlap r : reference.getOrDefault(String.valueOf(dev), reference.getOrDefault("", List.of()))) {
                a.reference(r);
            }
            RankInfo info = rankOfDevice.containsKey(dev)
                    ? new RankInfo(rankOfDevice.get(dev), io.overlapanalyze.model.RankSource.TRACE)
                    : rankFallback.apply(dev);
            a.warnings.addAll(warnings);
            if (ranksOfDevice.getOrDefault(dev, new java.util.TreeSet<>()).size() > 1) {
                // One device is one rank: a map that gives it several cannot say which.
                a.warnings.add("RANK_DEVICE_MAP gives device " + dev + " several ranks " + ranksOfDevice.get(dev)
                        + "; " + (info.source() == io.overlapanalyze.model.RankSource.DEFAULT ? "rank unknown"
                        : "using rank " + info.rank() + " from the " + info.source().name().toLowerCase(Locale.ROOT)
                        .replace('_', ' ')));
            }
            if (info.warning() != null) {
                a.warnings.add(info.warning());
            }
            RankTrace t = a.build(source, TraceFormat.ASCEND, info.rank(), info.source(), -1, false, null);
            out.add(commUnclassified == null ? t : t.withCommUnclassified(commUnclassified));
        }
        return out;
    }

    /**
     * Rows whose times cannot be used: without an INTEGER start or end (skipped: a NULL or text
     * time read as 0 would stretch a step over 55 years), or ending before they start (kept as a
     * zero-length task at the start). Counted per table, one warning line each.
     */
    private static final class RowProblems {
        private final Warnings warnings = new Warnings();
        private boolean any;

        /** False when the row must be skipped. */
        boolean accept(String table, ResultSet rs, int startColumn, long taskId, long start, long end)
                throws SQLException {
            // A NULL reads as 0: only a 0 needs the second look.
            if ((start == 0 && rs.getObject(startColumn) == null) || (end == 0 && rs.getObject(startColumn + 1) == null)) {
                any = true;
                warnings.add(table + " rows without an integer startNs or endNs skipped",
                        taskId >= 0 ? "globalTaskId " + taskId : "", 1);
                return false;
            }
            if (end < start) {
                warnings.add(table + " rows ending before they start (kept as zero-length at their start)",
                        (taskId >= 0 ? "globalTaskId " + taskId + ", " : "") + "startNs " + start + ", endNs " + end, 1);
            }
            return true;
        }

        boolean any() {
            return any;
        }

        /**
         * A host row (launch call, framework op, step) whose {@code column} is no integer time: skipped
         * and counted, never read as 0 (a launch or an op at 1970 moves work between steps).
         */
        void unreadable(String table, String column, String detail, String consequence) {
            warnings.add(table + " rows without an integer " + column + " skipped" + consequence, detail, 1);
        }

        void other(String kind, String detail) {
            warnings.add(kind, detail, 1);
        }

        List<String> lines() {
            return new ArrayList<>(warnings.lines());
        }
    }

    /** The DB's compute set is COMPUTE_TASK_INFO; a task outside it is never compute. */
    private static DeviceKind nonCompute(DeviceKind k) {
        return k == DeviceKind.COMPUTE ? DeviceKind.OTHER : k;
    }

    /**
     * connectionId → {launch ns, thread}: the framework op when linked, else the CANN API call. An
     * op without a readable start is left out (its task then has the CANN call's launch); a CANN
     * call without one is never read as 0 either: CANN issues connection ids in call order (the
     * shared captures: no inversion among 710 calls), so the call lies between the calls just before
     * and after it by id, and takes the start of the one before (the earliest it can have been), so
     * that its task keeps the step it was launched in. Without a call before it, or when the two
     * disagree with the id order, it has no launch. CANN_API's rows are counted here,
     * PYTORCH_API's when {@link #hostOps} reads them all.
     */
    private Map<Long, long[]> launches(ReadOnlySqlite c, Set<String> tables, RowProblems problems) throws SQLException {
        Map<Long, long[]> out = new HashMap<>();
        if (tables.contains("CANN_API")) {
            io.overlapanalyze.primitives.LongList ids = new io.overlapanalyze.primitives.LongList(1024);
            io.overlapanalyze.primitives.LongList starts = new io.overlapanalyze.primitives.LongList(1024);
            io.overlapanalyze.primitives.LongList tids = new io.overlapanalyze.primitives.LongList(1024);
            io.overlapanalyze.primitives.LongList ends = new io.overlapanalyze.primitives.LongList(16);
            query(c, "SELECT connectionId, " + ReadOnlySqlite.integerOrNull("startNs") + ", globalTid, "
                    + ReadOnlySqlite.integerOrNull("endNs") + " FROM CANN_API", rs -> {
                long start = rs.getLong(2);
                if (start == 0 && rs.wasNull()) {
                    problems.other("CANN_API rows without an integer startNs (never read as 0: their tasks take the start"
                            + " of the CANN call before them by connectionId, else the call's own endNs)",
                            "connectionId " + rs.getLong(1));
                    long end = rs.getLong(4);
                    start = Time.UNKNOWN;
                    ends.add(ids.size());
                    ends.add(end == 0 && rs.wasNull() ? Time.UNKNOWN : end);
                }
                ids.add(rs.getLong(1));
                starts.add(start);
                tids.add(rs.getLong(3) & 0xFFFFFFFFL);
            });
            if (ends.size() > 0) {
                boundByPreviousCall(ids, starts);
                // No call before it: its own end, the latest it can have started (an API call lasts µs).
                for (int k = 0; k < ends.size(); k += 2) {
                    int row = (int) ends.get(k);
                    if (starts.get(row) == Time.UNKNOWN && ends.get(k + 1) != Time.UNKNOWN) {
                        starts.set(row, ends.get(k + 1));
                    }
                }
            }
            for (int i = 0; i < ids.size(); i++) {
                if (starts.get(i) != Time.UNKNOWN) {
                    out.put(ids.get(i), new long[] {starts.get(i), tids.get(i)});
                }
            }
        }
        if (tables.contains("PYTORCH_API") && tables.contains("CONNECTION_IDS")) {
            Set<Long> fromOps = new HashSet<>();
            query(c, "SELECT ci.connectionId, p.startNs, p.globalTid, p.type FROM PYTORCH_API p "
                    + "JOIN CONNECTION_IDS ci ON ci.id = p.connectionId", rs -> {
                long conn = rs.getLong(1);
                long start = textNs(rs.getString(2));
                if (start == Time.UNKNOWN) {
                    return;
                }
                boolean op = rs.getLong(4) == API_TYPE_OP;
                long[] cur = out.get(conn);
                // Prefer the framework op over a CANN call or a queue event; among ops, the earliest.
                if (cur == null || (op && !fromOps.contains(conn)) || (op == fromOps.contains(conn) && start < cur[0])) {
                    out.put(conn, new long[] {start, rs.getLong(3) & 0xFFFFFFFFL});
                    if (op) {
                        fromOps.add(conn);
                    }
                }
            });
        }
        return out;
    }

    /** Unknown starts (Time.UNKNOWN) set to the start of the call before by id, where the id order allows it. */
    private static void boundByPreviousCall(io.overlapanalyze.primitives.LongList ids,
                                            io.overlapanalyze.primitives.LongList starts) {
        int n = ids.size();
        int[] order = new int[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        io.overlapanalyze.primitives.PrimitiveSort.sort(order, (a, b) -> Long.compare(ids.get(a), ids.get(b)));
        long[] before = new long[n];
        long known = Time.UNKNOWN;
        for (int k = 0; k < n; k++) {
            before[k] = known;
            if (starts.get(order[k]) != Time.UNKNOWN) {
                known = starts.get(order[k]);
            }
        }
        long after = Time.UNKNOWN;
        for (int k = n - 1; k >= 0; k--) {
            int row = order[k];
            if (starts.get(row) == Time.UNKNOWN) {
                if (before[k] != Time.UNKNOWN && (after == Time.UNKNOWN || before[k] <= after)) {
                    starts.set(row, before[k]);
                }
            } else {
                after = starts.get(row);
            }
        }
    }

    private void hostOps(ReadOnlySqlite c, Set<String> tables, Map<Integer, RankAssembler> byDevice, RowProblems problems)
            throws SQLException {
        Set<String> stepNames = new HashSet<>();
        if (tables.contains("PYTORCH_API")) {
            query(c, "SELECT startNs, endNs, globalTid, name FROM PYTORCH_API", rs -> {
                String name = strings.get(rs.getLong(4));
                if (name == null) {
                    return;
                }
                long tid = rs.getLong(3) & 0xFFFFFFFFL;
                long start = textNs(rs.getString(1));
                long end = textNs(rs.getString(2));
                if (start == Time.UNKNOWN || end == Time.UNKNOWN) {
                    // A step among them falls back to STEP_TIME (below), which is why stepNames skips it too.
                    problems.unreadable("PYTORCH_API", start == Time.UNKNOWN ? "startNs" : "endNs", "\"" + name + "\"", "");
                    return;
                }
                for (RankAssembler a : byDevice.values()) {
                    a.hostOp(name, start, end, tid);
                }
                if (RankAssembler.STEP.matcher(name).matches()) {
                    stepNames.add(name);
                }
            });
        }
        if (tables.contains("STEP_TIME")) {
            query(c, "SELECT id, " + ReadOnlySqlite.integerOrNull("startNs") + ", " + ReadOnlySqlite.integerOrNull("endNs")
                    + " FROM STEP_TIME", rs -> {
                String name = "ProfilerStep#" + rs.getString(1);
                if (!stepNames.contains(name)) {
                    long start = rs.getLong(2);
                    boolean noStart = start == 0 && rs.wasNull();
                    long end = rs.getLong(3);
                    boolean noEnd = end == 0 && rs.wasNull();
                    if (noStart || noEnd) {
                        // Never a step from 0, or one ending at 0: that step is not analysed, and said so.
                        problems.unreadable("STEP_TIME", noStart ? "startNs" : "endNs", name, " (no step range for them)");
                        return;
                    }
                    if (end < start) {
                        problems.other("STEP_TIME rows ending before they start skipped (no step range for them)",
                                name + ": startNs " + start + ", endNs " + end);
                        return;
                    }
                    for (RankAssembler a : byDevice.values()) {
                        a.hostSpanStep(new HostSpan(io.overlapanalyze.model.HostSpanKind.STEP, name, start, end, -1));
                    }
                }
            });
        }
    }

    /** analysis.db StepTraceTime beside the database, keyed by device id ("" when it has no column). */
    private Map<String, List<ReferenceOverlap>> stepTraceTime(Set<Integer> devices) {
        Path analysis = db.resolveSibling("analysis.db");
        Map<String, List<ReferenceOverlap>> out = new HashMap<>();
        if (!Files.isRegularFile(analysis)) {
            return out;
        }
        try (ReadOnlySqlite c = ReadOnlySqlite.open(analysis, limits)) {
            if (!c.hasTable("StepTraceTime")) {
                return out;
            }
            c.requireTablesOnly("StepTraceTime");
            boolean hasDevice = c.columns("StepTraceTime").containsKey("deviceid");
            query(c, "SELECT * FROM StepTraceTime", rs -> {
                String step = rs.getString("step");
                String name = step == null || step.isBlank() ? "all" : "ProfilerStep#" + step.trim();
                String dev = hasDevice ? rs.getString("deviceId") : "";
                out.computeIfAbsent(dev == null ? "" : dev, k -> new ArrayList<>()).add(new ReferenceOverlap(name,
                        us(rs.getString("computing")), us(rs.getString("communication")),
                        us(rs.getString("communication_not_overlapped")), us(rs.getString("free")),
                        "analysis.db StepTraceTime"));
            });
        } catch (SQLException | NumberFormatException | IOException | TraceFormatException | RowBudgetExceeded e) {
            // The reference is optional: without it there is no cross-check, the trace is still read.
            out.clear();
            out.put("", List.of());
        }
        return out;
    }

    /** A µs value as SQLite prints it ("8903.431") → exact ns. */
    private static long us(String text) {
        return text == null ? 0 : DecimalMicros.toNanos(text.trim());
    }

    private static long textNs(String text) {
        if (text == null) {
            return Time.UNKNOWN;
        }
        try {
            return Long.parseLong(text.trim());
        } catch (NumberFormatException e) {
            return Time.UNKNOWN;
        }
    }

    /** {@code COMPUTE_TASK_INFO}: every compute task's id and the string id of its operator name. */
    private Map<Long, Long> computeTaskNames(ReadOnlySqlite c, Set<String> tables) throws SQLException {
        Map<Long, Long> out = new HashMap<>();
        if (tables.contains("COMPUTE_TASK_INFO")) {
            query(c, "SELECT globalTaskId, name FROM COMPUTE_TASK_INFO", rs -> out.put(rs.getLong(1), rs.getLong(2)));
        }
        return out;
    }

    private Set<Long> ids(ReadOnlySqlite c, Set<String> tables, String table) throws SQLException {
        Set<Long> out = new HashSet<>();
        if (tables.contains(table)) {
            query(c, "SELECT globalTaskId FROM " + table, rs -> out.add(rs.getLong(1)));
        }
        return out;
    }

    private Map<Long, String> strings(ReadOnlySqlite c) throws SQLException {
        Map<Long, String> out = new HashMap<>();
        query(c, "SELECT id, value FROM STRING_IDS", rs -> out.put(rs.getLong(1), rs.getString(2)));
        return out;
    }

    private Map<Long, String> enumTable(ReadOnlySqlite c, Set<String> tables, String table) throws SQLException {
        Map<Long, String> out = new HashMap<>();
        if (tables.contains(table)) {
            query(c, "SELECT id, name FROM " + table, rs -> out.put(rs.getLong(1), rs.getString(2)));
        }
        return out;
    }

    private interface Row {
        void accept(ResultSet rs) throws SQLException;
    }

    /** Thrown when a query returns more rows than the file can store (see {@link ReadOnlySqlite#rowBudget}). */
    private static final class RowBudgetExceeded extends RuntimeException {
        RowBudgetExceeded() {
            super(null, null, false, false);
        }
    }

    private void query(ReadOnlySqlite c, String sql, Row row) throws SQLException {
        long budget = c.rowBudget();
        long rows = 0;
        try (Statement s = c.connection().createStatement(); ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) {
                if (++rows > budget) {
                    throw new RowBudgetExceeded();
                }
                row.accept(rs);
            }
        }
    }
}
