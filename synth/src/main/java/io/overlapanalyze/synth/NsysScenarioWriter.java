package io.overlapanalyze.synth;

import static io.overlapanalyze.synth.TimelinePlanner.COLL_DUR;
import static io.overlapanalyze.synth.TimelinePlanner.COLL_LAUNCH_DUR;
import static io.overlapanalyze.synth.TimelinePlanner.LAUNCH_DUR;
import static io.overlapanalyze.synth.TimelinePlanner.NEST;

import io.overlapanalyze.synth.SyntheticTimeline.KernelOp;
import io.overlapanalyze.synth.SyntheticTimeline.PlannedAnnotation;
import io.overlapanalyze.synth.SyntheticTimeline.PlannedKernel;
import io.overlapanalyze.synth.SyntheticTimeline.PlannedReduction;
import io.overlapanalyze.synth.SyntheticTimeline.PlannedStep;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes scenarios as an Nsight Systems SQLite export with the table and column names of a real
 * 2026.2.1 export (schema 3.25.0, nsys.md §3 and its fixture schema), encoding exactly the
 * timeline of {@link KinetoScenarioWriter#plan(Scenario)}: the same kernels at the same device
 * times, launched by the same threads at the same host times, so every metric of a written
 * export equals that of the Kineto trace of the same scenario.
 *
 * <p>What is written per rank (one process per rank, CUDA device = rank): runtime launch rows
 * ({@code cudaLaunchKernel_v7000}, class 0) with correlationIds; NCCL kernels launched by
 * {@code cuLaunchKernelEx} (driver, class 1) inside NCCL-domain {@code ncclAllReduce} ranges; PyTorch
 * {@code emit_nvtx}-style default-domain ranges ({@code ProfilerStep#N}, {@code Optimizer.step#…},
 * {@code autograd::engine::evaluate_function: …}, {@code aten::mm, seq = …, op_id = …},
 * {@code c10d::allreduce_}, {@code nccl:all_reduce}); thread names ({@code pt_autograd_0});
 * {@code META_DATA_EXPORT}; the session start; and, for a one-rank export, the launcher
 * environment with {@code RANK} and {@code WORLD_SIZE}.
 *
 * <p>Times in the export are ns from a capture start 1 ms before the first host op;
 * {@code TARGET_INFO_SESSION_START_TIME.utcEpochNs} is chosen so that capture time plus it equals the
 * Kineto trace's epoch time ({@code baseTimeNanoseconds} + plan time).
 */
public final class NsysScenarioWriter {
    static final String PRODUCT_VERSION = "2026.2.1.210";
    static final String SCHEMA_VERSION = "3.25.0";
    static final int NCCL_DOMAIN = 1;
    static final String NCCL_SHORT_NAME = "ncclDevKernel_AllReduce_Sum_f32_RING_LL";
    private static final long CAPTURE_LEAD_NS = 1_000_000L;

    static final String[] DDL = {
        "CREATE TABLE StringIds (id INTEGER NOT NULL PRIMARY KEY, value TEXT NOT NULL)",
        "CREATE TABLE META_DATA_EXPORT (name TEXT NOT NULL, value TEXT)",
        "CREATE TABLE TARGET_INFO_SESSION_START_TIME (utcEpochNs INTEGER, utcTime TEXT, localTime TEXT, systemClockNs INTEGER)",
        "CREATE TABLE TARGET_INFO_SYSTEM_ENV (globalVid INTEGER, devStateName TEXT NOT NULL, name TEXT NOT NULL,"
                + " nameEnum INTEGER NOT NULL, value TEXT NOT NULL)",
        "CREATE TABLE PROCESSES (globalPid INTEGER, pid INTEGER, name TEXT)",
        "CREATE TABLE ThreadNames (nameId INTEGER NOT NULL, priority INTEGER, globalTid INTEGER)",
        "CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER NOT NULL, end INTEGER NOT NULL, deviceId INTEGER NOT NULL,"
                + " contextId INTEGER NOT NULL, greenContextId INTEGER, streamId INTEGER NOT NULL, correlationId INTEGER,"
                + " globalPid INTEGER, demangledName INTEGER NOT NULL, shortName INTEGER NOT NULL, mangledName INTEGER,"
                + " launchType INTEGER, cacheConfig INTEGER, registersPerThread INTEGER NOT NULL, gridX INTEGER NOT NULL,"
                + " gridY INTEGER NOT NULL, gridZ INTEGER NOT NULL, blockX INTEGER NOT NULL, blockY INTEGER NOT NULL,"
                + " blockZ INTEGER NOT NULL, staticSharedMemory INTEGER NOT NULL, dynamicSharedMemory INTEGER NOT NULL,"
                + " localMemoryPerThread INTEGER NOT NULL, localMemoryTotal INTEGER NOT NULL, gridId INTEGER NOT NULL,"
                + " sharedMemoryExecuted INTEGER, graphNodeId INTEGER, sharedMemoryLimitConfig INTEGER,"
                + " qmdBulkReleaseDone INTEGER, qmdPreexitDone INTEGER, qmdLastCtaDone INTEGER, graphId INTEGER,"
                + " clusterX INTEGER, clusterY INTEGER, clusterZ INTEGER, clusterSchedulingPolicy INTEGER,"
                + " maxPotentialClusterSize INTEGER, maxActiveClusters INTEGER, sharedMemoryRequestedPercentage INTEGER,"
                + " tensorSizeMinusOneElements TEXT NOT NULL)",
        "CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (start INTEGER NOT NULL, end INTEGER NOT NULL, eventClass INTEGER NOT NULL,"
                + " globalTid INTEGER, correlationId INTEGER, nameId INTEGER NOT NULL, returnValue INTEGER NOT NULL,"
                + " callchainId INTEGER)",
        "CREATE TABLE NVTX_EVENTS (start INTEGER NOT NULL, end INTEGER, eventType INTEGER NOT NULL, rangeId INTEGER,"
                + " category INTEGER, color INTEGER, text TEXT, globalTid INTEGER, endGlobalTid INTEGER, textId INTEGER,"
                + " domainId INTEGER, uint64Value INTEGER, int64Value INTEGER, doubleValue REAL, uint32Value INTEGER,"
                + " int32Value INTEGER, floatValue REAL, jsonTextId INTEGER, jsonText TEXT, binaryData TEXT)",
    };

    private NsysScenarioWriter() {
    }

    /** Writes one rank's export to {@code file} (replaced if it exists); returns the plan it encodes. */
    public static SyntheticTimeline write(Scenario scenario, Path file) throws IOException {
        return write(List.of(scenario), file).get(0);
    }

    /**
     * Writes several ranks into one export, one process per rank (like one nsys around
     * {@code torchrun}); returns their plans in the same order. Each scenario's {@code rank()} picks
     * its pid and CUDA device, so ranks must differ.
     */
    public static List<SyntheticTimeline> write(List<Scenario> ranks, Path file) throws IOException {
        List<SyntheticTimeline> plans = new ArrayList<>();
        for (Scenario s : ranks) {
            plans.add(KinetoScenarioWriter.plan(s));
        }
        writeExport(file, c -> new Export(c, ranks, plans).write());
        return plans;
    }

    /** Fills a fresh export's tables. */
    interface ExportFill {
        void fill(Connection c) throws SQLException;
    }

    /**
     * Writes an export to {@code file} (replaced, parent directories made): a new database with
     * nsys's tables ({@link #DDL}), filled by {@code fill} in one transaction.
     */
    static void writeExport(Path file, ExportFill fill) throws IOException {
        Path abs = file.toAbsolutePath();
        if (abs.getParent() != null) {
            Files.createDirectories(abs.getParent());
        }
        Files.deleteIfExists(abs);
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + abs)) {
            try (Statement st = c.createStatement()) {
                st.execute("PRAGMA journal_mode=OFF");
                st.execute("PRAGMA synchronous=OFF");
                for (String ddl : DDL) {
                    st.execute(ddl);
                }
            }
            c.setAutoCommit(false);
            fill.fill(c);
            c.commit();
        } catch (SQLException e) {
            throw new IOException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    /** The short name nsys stores for a kernel: no return type, namespace, template or parameters. */
    static String shortName(String demangled) {
        String s = demangled.startsWith("void ") ? demangled.substring(5) : demangled;
        int depth = 0;
        int cut = s.length();
        for (int i = 0; i < s.length(); i++) {
            char ch = s.charAt(i);
            if (ch == '<') {
                if (depth == 0) {
                    cut = Math.min(cut, i);
                }
                depth++;
            } else if (ch == '>') {
                depth--;
            } else if (ch == '(' && depth == 0) {
                cut = Math.min(cut, i);
                break;
            }
        }
        s = s.substring(0, cut);
        int ns = s.lastIndexOf("::");
        return ns >= 0 ? s.substring(ns + 2) : s;
    }

    /** The rows of one export. */
    private static final class Export {
        private final Connection c;
        private final List<Scenario> ranks;
        private final List<SyntheticTimeline> plans;
        private final Map<String, Long> stringIds = new HashMap<>();
        private final PreparedStatement strings;
        private final PreparedStatement kernel;
        private final PreparedStatement runtime;
        private final PreparedStatement nvtx;
        private final long origin;
        private int pending;
        private long nextCorrelation = 1000;
        private long nextOpId = 1;
        private long nextSeq = 1;
        private int gridId = 1;

        Export(Connection c, List<Scenario> ranks, List<SyntheticTimeline> plans) throws SQLException {
            this.c = c;
            this.ranks = ranks;
            this.plans = plans;
            strings = c.prepareStatement("INSERT INTO StringIds (id, value) VALUES (?, ?)");
            kernel = c.prepareStatement("INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL (start, end, deviceId, contextId,"
                    + " greenContextId, streamId, correlationId, globalPid, demangledName, shortName, mangledName, launchType,"
                    + " cacheConfig, registersPerThread, gridX, gridY, gridZ, blockX, blockY, blockZ, staticSharedMemory,"
                    + " dynamicSharedMemory, localMemoryPerThread, localMemoryTotal, gridId, sharedMemoryExecuted, graphNodeId,"
                    + " sharedMemoryLimitConfig, graphId, tensorSizeMinusOneElements)"
                    + " VALUES (?, ?, ?, 1, NULL, ?, ?, ?, ?, ?, NULL, 0, 0, ?, ?, 1, 1, ?, 1, 1, 0, ?, 0, 0, ?, ?, NULL, 0, NULL, '[]')");
            runtime = c.prepareStatement("INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME (start, end, eventClass, globalTid,"
                    + " correlationId, nameId, returnValue, callchainId) VALUES (?, ?, ?, ?, ?, ?, 0, NULL)");
            nvtx = c.prepareStatement("INSERT INTO NVTX_EVENTS (start, end, eventType, text, globalTid, textId, domainId)"
                    + " VALUES (?, ?, ?, ?, ?, ?, ?)");
            long first = Long.MAX_VALUE;
            for (SyntheticTimeline t : plans) {
                first = Math.min(first, t.steps().get(0).hostStart());
            }
            origin = first - CAPTURE_LEAD_NS;
        }

        void write() throws SQLException {
            metadata();
            for (int i = 0; i < ranks.size(); i++) {
                rank(ranks.get(i), plans.get(i));
            }
            for (PreparedStatement ps : List.of(kernel, runtime, nvtx, strings)) {
                ps.executeBatch();
                ps.close();
            }
        }

        private void metadata() throws SQLException {
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO META_DATA_EXPORT (name, value) VALUES (?, ?)")) {
                String[][] rows = {
                    {"EXPORT_PRODUCT_NAME", "NVIDIA Nsight Systems"},
                    {"EXPORT_PRODUCT_VERSION", PRODUCT_VERSION},
                    {"EXPORT_SCHEMA_VERSION", SCHEMA_VERSION},
                    {"EXPORT_SCHEMA_VERSION_MAJOR", "3"},
                    {"EXPORT_SCHEMA_VERSION_MINOR", "25"},
                    {"EXPORT_SCHEMA_VERSION_MICRO", "0"},
                    {"EXPORT_PARAM_EXPORT_TYPE", "SQLite"},
                    {"EXPORT_PARAM_LAZY", "true"},
                    {"EXPORT_PARAM_INCLUDE_BLOBS", "false"},
                    {"EXPORT_PARAM_TIME_NORMALIZE", "false"},
                    {"EXPORT_PARAM_TIME_SHIFT", "0"},
                    {"EXPORT_CONFIG_TIME_SHIFT", "0"},
                    {"DERIVED_BY", "overlap-analyze synth (scenario " + ranks.get(0).name() + ")"},
                };
                for (String[] r : rows) {
                    ps.setString(1, r[0]);
                    ps.setString(2, r[1]);
                    ps.executeUpdate();
                }
            }
            long epoch = plans.get(0).baseTimeNanoseconds() + origin;
            try (PreparedStatement ps = c.prepareStatement(
                    "INSERT INTO TARGET_INFO_SESSION_START_TIME (utcEpochNs, utcTime, localTime, systemClockNs) VALUES (?, ?, ?, ?)")) {
                String utc = java.time.Instant.ofEpochSecond(Math.floorDiv(epoch, 1_000_000_000L)).toString();
                ps.setLong(1, epoch);
                ps.setString(2, utc);
                ps.setString(3, utc);
                ps.setLong(4, origin);
                ps.executeUpdate();
            }
            StringBuilder env = new StringBuilder("PATH=/usr/bin;NCCL_NVTX_DISABLE=0");
            if (ranks.size() == 1) {
                // One export per rank (nsys -o rank_%q{RANK}): the launcher environment names the rank.
                Scenario s = ranks.get(0);
                env.append(";RANK=").append(s.rank()).append(";LOCAL_RANK=").append(s.rank())
                        .append(";WORLD_SIZE=").append(s.worldSize());
            }
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO TARGET_INFO_SYSTEM_ENV (globalVid, devStateName,"
                    + " name, nameEnum, value) VALUES (281474976710656, 'Unknown', 'DeviceEnvironment', 40, ?)")) {
                ps.setString(1, env.toString());
                ps.executeUpdate();
            }
        }

        private void rank(Scenario s, SyntheticTimeline plan) throws SQLException {
            long pid = TraceEventBuilder.BASE_PID + s.rank();
            long globalPid = (1L << 48) | (pid << 24);
            long mainTid = globalPid | pid;
            long autogradTid = globalPid | (pid + TraceEventBuilder.AUTOGRAD_TID_OFFSET);
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO PROCESSES (globalPid, pid, name) VALUES (?, ?, ?)")) {
                ps.setLong(1, globalPid);
                ps.setLong(2, pid);
                ps.setString(3, "python3");
                ps.executeUpdate();
            }
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO ThreadNames (nameId, priority, globalTid) VALUES (?, 0, ?)")) {
                ps.setLong(1, string("python3"));
                ps.setLong(2, mainTid);
                ps.executeUpdate();
                ps.setLong(1, string("pt_autograd_0"));
                ps.setLong(2, autogradTid);
                ps.executeUpdate();
            }
            // NCCL registers its domain once per process (eventType 75, NvtxDomainCreate).
            range(-CAPTURE_LEAD_NS / 2, null, 75, "NCCL", mainTid, null, NCCL_DOMAIN);
            int device = s.rank();
            for (PlannedStep step : plan.steps()) {
                planRange(step.hostStart(), step.hostEnd(), 59, "ProfilerStep#" + step.number(), mainTid, null, 0);
                for (PlannedAnnotation a : step.annotations()) {
                    planRange(a.start(), a.end(), 59, a.name(), mainTid, null, 0);
                }
                for (KernelOp op : step.mainOps()) {
                    planRange(op.start(), op.end(), 59, op.name() + ", seq = " + nextSeq++ + ", op_id = " + nextOpId++,
                            mainTid, null, 0);
                    launches(op, mainTid, globalPid, device);
                }
                for (KernelOp op : step.autogradOps()) {
                    planRange(op.start(), op.end(), 59, "autograd::engine::evaluate_function: " + op.name() + ", op_id = "
                            + nextOpId++, autogradTid, null, 0);
                    planRange(op.start() + NEST, op.end() - NEST, 59, op.name() + ", seq = " + nextSeq++ + ", op_id = "
                            + nextOpId++, autogradTid, null, 0);
                    planRange(op.start() + 2 * NEST, op.end() - 2 * NEST, 59, "aten::mm, op_id = " + nextOpId++, autogradTid,
                            null, 0);
                    launches(op, autogradTid, globalPid, device);
                }
                for (PlannedReduction r : step.reductions()) {
                    reduction(r, autogradTid, globalPid, device);
                }
            }
        }

        private void launches(KernelOp op, long tid, long globalPid, int device) throws SQLException {
            for (PlannedKernel k : op.kernels()) {
                long corr = nextCorrelation++;
                runtimeRow(k.launch(), k.launch() + LAUNCH_DUR, 0, tid, corr, "cudaLaunchKernel_v7000");
                kernelRow(k.start(), k.end(), device, TraceEventBuilder.COMPUTE_STREAM, corr, globalPid, k.name(), 154, 8,
                        128, 98304);
            }
        }

        /** c10d::allreduce_ ⊃ record_param_comms ⊃ nccl:all_reduce ⊃ [NCCL] ncclAllReduce ⊃ cuLaunchKernelEx. */
        private void reduction(PlannedReduction r, long tid, long globalPid, int device) throws SQLException {
            long e = r.enqueue();
            planRange(e, e + COLL_DUR, 59, "c10d::allreduce_, op_id = " + nextOpId++, tid, null, 0);
            planRange(e + 2 * NEST, e + COLL_DUR - 2 * NEST, 59, "record_param_comms, op_id = " + nextOpId++, tid, null, 0);
            planRange(e + 4 * NEST, e + COLL_DUR - 6 * NEST, 59, "nccl:all_reduce, op_id = " + nextOpId++, tid, null, 0);
            // NCCL's own range uses a registered string (textId), as observed in real exports.
            planRange(r.launch() - 2 * NEST, r.launch() + COLL_LAUNCH_DUR + 2 * NEST, 59, null, tid, "ncclAllReduce",
                    NCCL_DOMAIN);
            long corr = nextCorrelation++;
            runtimeRow(r.launch(), r.launch() + COLL_LAUNCH_DUR, 1, tid, corr, "cuLaunchKernelEx");
            kernelRow(r.start(), r.end(), device, TraceEventBuilder.COMM_STREAM, corr, globalPid,
                    TraceEventBuilder.NCCL_KERNEL, 96, 2, 544, 0);
        }

        private void kernelRow(long start, long end, int device, int stream, long corr, long globalPid, String name,
                               int registers, int gridX, int blockX, int dynamicShared) throws SQLException {
            kernel.setLong(1, start - origin);
            kernel.setLong(2, end - origin);
            kernel.setInt(3, device);
            kernel.setInt(4, stream);
            kernel.setLong(5, corr);
            kernel.setLong(6, globalPid);
            kernel.setLong(7, string(name));
            kernel.setLong(8, string(shortName(name)));
            kernel.setInt(9, registers);
            kernel.setInt(10, gridX);
            kernel.setInt(11, blockX);
            kernel.setInt(12, dynamicShared);
            kernel.setInt(13, gridId++);
            kernel.setInt(14, dynamicShared);
            kernel.addBatch();
            flushSometimes();
        }

        private void runtimeRow(long start, long end, int eventClass, long tid, long corr, String name)
                throws SQLException {
            runtime.setLong(1, start - origin);
            runtime.setLong(2, end - origin);
            runtime.setInt(3, eventClass);
            runtime.setLong(4, tid);
            runtime.setLong(5, corr);
            runtime.setLong(6, string(name));
            runtime.addBatch();
            flushSometimes();
        }

        private void range(long start, Long end, int type, String text, long tid, String registered, int domain)
                throws SQLException {
            nvtx.setLong(1, start);
            if (end == null) {
                nvtx.setNull(2, java.sql.Types.INTEGER);
            } else {
                nvtx.setLong(2, end);
            }
            nvtx.setInt(3, type);
            nvtx.setString(4, text);
            nvtx.setLong(5, tid);
            if (registered == null) {
                nvtx.setNull(6, java.sql.Types.INTEGER);
            } else {
                nvtx.setLong(6, string(registered));
            }
            nvtx.setInt(7, domain);
            nvtx.addBatch();
            flushSometimes();
        }

        /** A range in plan time (shifted to capture time). */
        private void planRange(long start, long end, int type, String text, long tid, String registered, int domain)
                throws SQLException {
            range(start - origin, Long.valueOf(end - origin), type, text, tid, registered, domain);
        }

        private long string(String value) throws SQLException {
            Long id = stringIds.get(value);
            if (id == null) {
                id = (long) stringIds.size() + 1;
                stringIds.put(value, id);
                strings.setLong(1, id);
                strings.setString(2, value);
                strings.addBatch();
            }
            return id;
        }

        private void flushSometimes() throws SQLException {
            if (++pending >= 10_000) {
                kernel.executeBatch();
                runtime.executeBatch();
                nvtx.executeBatch();
                strings.executeBatch();
                pending = 0;
            }
        }
    }
}
