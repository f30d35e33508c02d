package io.overlapanalyze.synth;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The built-in Ascend MC² job ({@code ascend-mc2}): one rank (device 0) running, per step, compute
 * operators, the five kinds of MC² fused operators and one ordinary HCCL all-reduce, written as a
 * torch_npu capture either as the text export ({@code ASCEND_PROFILER_OUTPUT/trace_view.json}) or
 * as the DB export ({@code ASCEND_PROFILER_OUTPUT/ascend_pytorch_profiler_0.db} with
 * {@code analysis.db}); the text export's {@code trace_view.json} read on its own is the bare
 * timeline.
 *
 * <p>Each MC² operator is written the way msprof records one (ascend.md §4; msprof
 * {@code kfc_calculator.py}, {@code overlap_analysis_processor.cpp}): its kernel on the compute
 * stream (task type {@code MIX_AIC}/{@code MIX_AIV}); the AI CPU server task
 * {@code <Op>AicpuKernel} on the "kfc" stream that drives its communication; and, with the same
 * span, its communication op ("kfc op") on the communication lane (DB: a {@code COMMUNICATION_OP}
 * row). The communication sub-tasks of MC² are not written: msprof does not present them either.
 *
 * <p>The profiler's own figures are written as Huawei computes them: the Overlap Analysis lane
 * (text) and {@code StepTraceTime} (DB) with Computing = union of compute tasks except the kfc
 * stream's, so the MC² kernels count as Computing; Communication = union of the HCCL ops and the kfc
 * ops; Not Overlapped = Communication − Computing; Free = gaps between the first and last of them;
 * and the communication analysis of the HCCL all-reduce ({@code communication.json}, analysis.db
 * {@code CommAnalyzerTime}) with the Transit of {@link #HCCL_TRANSIT_US}.
 *
 * <p>Per step, µs from the step's device origin ({@link #OPS}): see the table there. Steps are
 * {@link #STEP_PERIOD_US} apart.
 */
public final class AscendMc2Writer {
    public static final String NAME = "ascend-mc2";
    public static final String DESCRIPTION = "Ascend NPU, MC2 fused kernels (MatmulAllReduce, AllGatherMatmul, "
            + "MatmulReduceScatter, MoeDistributeDispatch/Combine) with their kfc communication ops, one HCCL "
            + "all-reduce; torch_npu text or DB export";
    public static final int STEPS = 2;
    public static final int FIRST_STEP = 1;
    public static final long STEP_PERIOD_US = 8000;
    static final int OS_PID = 3_096_504;
    static final int COMPUTE_STREAM = 2;
    static final int COMM_STREAM = 4;
    static final int KFC_STREAM = 5;
    static final String GROUP = "group_name_12";
    static final long BASE_NS = 1_736_408_883_000_000_000L;
    private static final long LEAD_NS = 200_000;
    private static final JsonFactory JSON = JsonFactory.builder().build();

    /** Where an op is recorded. */
    enum Where { COMPUTE, KFC_TASK, KFC_OP, HCCL_OP }

    /** One device record of a step: name, task type (compute/kfc tasks), place, [start, end) in µs from the step origin. */
    record Op(String name, String taskType, Where where, long startUs, long endUs) {
    }

    /**
     * One step's device records. The kfc task and kfc op of an MC² operator share their span (msprof
     * builds the op from that task); MatmulReduceScatter's and MoeDistributeCombine's communication
     * outlast their kernel by 100 µs.
     */
    public static final List<Op> OPS = List.of(
            new Op("aclnnFlashAttentionScore_FlashAttentionScore_FlashAttentionScore", "AI_CORE", Where.COMPUTE, 0, 1000),
            new Op("aclnnMatmulAllReduce_MatmulAllReduce_MatmulAllReduce", "MIX_AIC", Where.COMPUTE, 1000, 2500),
            new Op("MatmulAllReduceAicpuKernel", "AI_CPU", Where.KFC_TASK, 1000, 2400),
            new Op("MatmulAllReduceAicpuKernel_586_1_1", null, Where.KFC_OP, 1000, 2400),
            new Op("aclnnMm_MatMulV3_MatMulV3", "AI_CORE", Where.COMPUTE, 2500, 3500),
            new Op("aclnnAllGatherMatmul_AllGatherMatmul_AllGatherMatmul", "MIX_AIC", Where.COMPUTE, 3500, 4500),
            new Op("AllGatherMatmulAicpuKernel", "AI_CPU", Where.KFC_TASK, 3500, 4400),
            new Op("AllGatherMatmulAicpuKernel_586_2_1", null, Where.KFC_OP, 3500, 4400),
            new Op("aclnnMatmulReduceScatter_MatmulReduceScatter_MatmulReduceScatter", "MIX_AIC", Where.COMPUTE, 4500,
                    5200),
            new Op("MatmulReduceScatterAicpuKernel", "AI_CPU", Where.KFC_TASK, 4500, 5300),
            new Op("MatmulReduceScatterAicpuKernel_586_3_1", null, Where.KFC_OP, 4500, 5300),
            new Op("hcom_allReduce__586_4_1", null, Where.HCCL_OP, 5000, 6000),
            new Op("aclnnAdd_AddAiCore_Add", "AI_VECTOR_CORE", Where.COMPUTE, 5200, 5800),
            new Op("aclnnMoeDistributeDispatch_MoeDistributeDispatch_MoeDistributeDispatch", "MIX_AIV", Where.COMPUTE,
                    6000, 6600),
            new Op("MoeDistributeDispatchAicpuKernel", "AI_CPU", Where.KFC_TASK, 6000, 6500),
            new Op("MoeDistributeDispatchAicpuKernel_586_5_1", null, Where.KFC_OP, 6000, 6500),
            new Op("aclnnMoeDistributeCombine_MoeDistributeCombine_MoeDistributeCombine", "MIX_AIV", Where.COMPUTE,
                    6600, 7000),
            new Op("MoeDistributeCombineAicpuKernel", "AI_CPU", Where.KFC_TASK, 6600, 7100),
            new Op("MoeDistributeCombineAicpuKernel_586_6_1", null, Where.KFC_OP, 6600, 7100));

    /**
     * What the profiler's communication analysis says of the HCCL all-reduce ([5000, 6000] µs):
     * it transferred for 400 µs, at its end (communication.json / analysis.db CommAnalyzerTime
     * Transit); the 600 µs before were waiting.
     */
    public static final long HCCL_TRANSIT_US = 400;

    private AscendMc2Writer() {
    }

    /** The HCCL ops of every step with the profiler's split (metrics.md §12 rule 1). */
    static List<AscendCommunicationWriter.OpTime> hcclOps() {
        List<AscendCommunicationWriter.OpTime> out = new ArrayList<>();
        for (Placed p : placed()) {
            if (p.op().where() == Where.HCCL_OP) {
                out.add(new AscendCommunicationWriter.OpTime(FIRST_STEP + p.step(), p.op().name(), p.start(),
                        p.end() - p.start(), HCCL_TRANSIT_US * 1000));
            }
        }
        return out;
    }

    /** The capture directory name torch_npu would use. */
    public static String directoryName() {
        return NAME + "_ascend_pt";
    }

    /** Device origin of step {@code k} (0-based), epoch ns. */
    static long origin(int k) {
        return BASE_NS + 1_000_000L + k * STEP_PERIOD_US * 1000;
    }

    private record Placed(Op op, int step, long start, long end) {
        long launch() {
            return start - LEAD_NS;
        }
    }

    private static List<Placed> placed() {
        List<Placed> out = new ArrayList<>();
        for (int k = 0; k < STEPS; k++) {
            long o = origin(k);
            for (Op op : OPS) {
                out.add(new Placed(op, k, o + op.startUs() * 1000, o + op.endUs() * 1000));
            }
        }
        return out;
    }

    /** Step k's host span: from before its first launch to after its last. */
    private static long[] hostSpan(int k) {
        return new long[] {origin(k) - LEAD_NS - 50_000, origin(k) + 7100_000L - LEAD_NS + 50_000};
    }

    /** Writes the text export into {@code dir} (created; must not exist as a capture). */
    public static void writeText(Path dir) throws IOException {
        Path out = dir.resolve("ASCEND_PROFILER_OUTPUT");
        Files.createDirectories(out);
        try (OutputStream o = new BufferedOutputStream(Files.newOutputStream(out.resolve("trace_view.json")), 1 << 16)) {
            writeTimeline(o);
        }
        AscendCommunicationWriter.writeJson(out, hcclOps(), 0, 0);
        profilerInfo(dir, "text");
    }

    /** Writes the DB export into {@code dir}. */
    public static void writeDb(Path dir) throws IOException {
        Path out = dir.resolve("ASCEND_PROFILER_OUTPUT");
        Files.createDirectories(out);
        try {
            writeRankDb(out.resolve("ascend_pytorch_profiler_0.db"));
            writeAnalysisDb(out.resolve("analysis.db"));
        } catch (SQLException e) {
            throw new IOException("cannot write " + out + ": " + e.getMessage(), e);
        }
        profilerInfo(dir, "db");
    }

    private static void profilerInfo(Path dir, String exportType) throws IOException {
        try (OutputStream o = Files.newOutputStream(dir.resolve("profiler_info_0.json"));
             JsonGenerator g = JSON.createGenerator(o, JsonEncoding.UTF8)) {
            g.useDefaultPrettyPrinter();
            g.writeStartObject();
            g.writeObjectFieldStart("config");
            g.writeObjectFieldStart("experimental_config");
            g.writeStringField("_profiler_level", "Level1");
            g.writeStringField("_export_type", exportType);
            g.writeEndObject();
            g.writeEndObject();
            g.writeStringField("rank_id", "0");
            g.writeEndObject();
        }
    }

    // ---- Huawei's overlap rule ----

    /** Sorted, merged union of [start, end) pairs. */
    static List<long[]> union(List<long[]> in) {
        List<long[]> s = new ArrayList<>(in);
        s.sort(Comparator.comparingLong(a -> a[0]));
        List<long[]> out = new ArrayList<>();
        for (long[] a : s) {
            if (!out.isEmpty() && out.get(out.size() - 1)[1] >= a[0]) {
                out.get(out.size() - 1)[1] = Math.max(out.get(out.size() - 1)[1], a[1]);
            } else {
                out.add(new long[] {a[0], a[1]});
            }
        }
        return out;
    }

    /** a − b for merged unions. */
    static List<long[]> minus(List<long[]> a, List<long[]> b) {
        List<long[]> out = new ArrayList<>();
        for (long[] x : a) {
            long cur = x[0];
            for (long[] y : b) {
                if (y[1] <= cur || y[0] >= x[1]) {
                    continue;
                }
                if (y[0] > cur) {
                    out.add(new long[] {cur, y[0]});
                }
                cur = Math.max(cur, y[1]);
            }
            if (cur < x[1]) {
                out.add(new long[] {cur, x[1]});
            }
        }
        return out;
    }

    static long length(List<long[]> u) {
        long n = 0;
        for (long[] a : u) {
            n += a[1] - a[0];
        }
        return n;
    }

    /** The four lanes of one step: Computing, Communication, Not Overlapped, Free. */
    private static List<List<long[]>> lanes(int k) {
        List<long[]> comp = new ArrayList<>();
        List<long[]> comm = new ArrayList<>();
        for (Placed p : placed()) {
            if (p.step() != k) {
                continue;
            }
            // Compute tasks count, except the kfc stream's (msprof leaves the AI CPU server out).
            if (p.op().where() == Where.COMPUTE) {
                comp.add(new long[] {p.start(), p.end()});
            } else if (p.op().where() == Where.KFC_OP || p.op().where() == Where.HCCL_OP) {
                comm.add(new long[] {p.start(), p.end()});
            }
        }
        List<long[]> c = union(comp);
        List<long[]> m = union(comm);
        List<long[]> all = new ArrayList<>(c);
        all.addAll(m);
        List<long[]> busy = union(all);
        List<long[]> span = List.of(new long[] {busy.get(0)[0], busy.get(busy.size() - 1)[1]});
        return List.of(c, m, minus(m, c), minus(span, busy));
    }

    // ---- text export ----

    private static void writeTimeline(OutputStream out) throws IOException {
        long hwPid = ((long) OS_PID << 10) | (13L << 5);
        long commPid = ((long) OS_PID << 10) | (15L << 5);
        long overlapPid = ((long) OS_PID << 10) | (17L << 5);
        try (JsonGenerator g = JSON.createGenerator(out, JsonEncoding.UTF8)) {
            g.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
            g.writeStartArray();
            g.writeRaw('\n');
            meta(g, OS_PID, 0, "process_name", "Python");
            meta(g, OS_PID, 0, "process_labels", "CPU");
            meta(g, OS_PID, OS_PID, "thread_name", "Thread " + OS_PID);
            meta(g, hwPid, 0, "process_name", "Ascend Hardware");
            meta(g, hwPid, 0, "process_labels", "NPU");
            meta(g, hwPid, COMPUTE_STREAM, "thread_name", "Stream " + COMPUTE_STREAM);
            meta(g, hwPid, KFC_STREAM, "thread_name", "Stream " + KFC_STREAM);
            meta(g, hwPid, COMM_STREAM, "thread_name", "Stream " + COMM_STREAM);
            meta(g, commPid, 0, "process_name", "Communication");
            meta(g, commPid, 0, "process_labels", "NPU");
            meta(g, commPid, 0, "thread_name", "Group " + GROUP + " Communication");
            meta(g, commPid, 1, "thread_name", "Plane 0");
            meta(g, overlapPid, 0, "process_name", "Overlap Analysis");
            meta(g, overlapPid, 0, "process_labels", "NPU");
            String[] laneNames = {"Computing", "Communication", "Communication(Not Overlapped)", "Free"};
            for (int t = 0; t < 4; t++) {
                meta(g, overlapPid, t, "thread_name", laneNames[t]);
            }
            for (int k = 0; k < STEPS; k++) {
                long[] h = hostSpan(k);
                x(g, OS_PID, OS_PID, "ProfilerStep#" + (FIRST_STEP + k), h[0], h[1], "cpu_op", null);
            }
            int taskId = 1;
            for (Placed p : placed()) {
                Op op = p.op();
                String hostOp = op.where() == Where.HCCL_OP ? "HcclAllreduce" : "aten::op";
                x(g, OS_PID, OS_PID, hostOp, p.launch(), p.launch() + 20_000, "cpu_op", null);
                long devPid = hwPid;
                long devTid;
                switch (op.where()) {
                    case COMPUTE, KFC_TASK -> {
                        devTid = op.where() == Where.COMPUTE ? COMPUTE_STREAM : KFC_STREAM;
                        x(g, hwPid, devTid, op.name(), p.start(), p.end(), null, "{\"Model Id\":4294967295,\"Task Type\":\""
                                + op.taskType() + "\",\"Physic Stream Id\":" + devTid + ",\"Task Id\":" + (taskId++)
                                + ",\"Batch Id\":0}");
                    }
                    default -> {
                        devPid = commPid;
                        devTid = 0;
                        x(g, commPid, 0, op.name(), p.start(), p.end(), null, "{\"model id\":4294967295,"
                                + "\"data_type\":\"" + (op.where() == Where.HCCL_OP ? "FP32" : "N/A") + "\",\"alg_type\":\""
                                + (op.where() == Where.HCCL_OP ? "MESH-RING" : "N/A") + "\",\"count\":"
                                + (op.where() == Where.HCCL_OP ? 4_194_304 : -1) + "}");
                        if (op.where() == Where.HCCL_OP) {
                            x(g, commPid, 1, "Memcpy", p.start(), p.end(), null, "{\"stream id\":" + COMM_STREAM
                                    + ",\"task type\":\"Memcpy\",\"transport type\":\"SDMA\"}");
                        }
                    }
                }
                flow(g, p.launch(), devPid, devTid, p.start());
            }
            for (int k = 0; k < STEPS; k++) {
                List<List<long[]>> lanes = lanes(k);
                for (int t = 0; t < 4; t++) {
                    for (long[] a : lanes.get(t)) {
                        x(g, overlapPid, t, laneNames[t], a[0], a[1], null, null);
                    }
                }
            }
            g.writeEndArray();
        }
        out.flush();
    }

    private static void meta(JsonGenerator g, long pid, long tid, String name, String value) throws IOException {
        g.writeStartObject();
        g.writeStringField("ph", "M");
        g.writeStringField("name", name);
        g.writeNumberField("pid", pid);
        g.writeNumberField("tid", tid);
        g.writeObjectFieldStart("args");
        g.writeStringField(name.equals("process_labels") ? "labels" : "name", value);
        g.writeEndObject();
        g.writeEndObject();
        g.writeRaw('\n');
    }

    private static void x(JsonGenerator g, long pid, long tid, String name, long start, long end, String cat,
                          String args) throws IOException {
        g.writeStartObject();
        g.writeStringField("name", name);
        g.writeNumberField("pid", pid);
        g.writeNumberField("tid", tid);
        g.writeStringField("ts", Durations.formatUs(start));
        g.writeFieldName("dur");
        g.writeNumber(Durations.formatUs(end - start));
        if (cat != null) {
            g.writeStringField("cat", cat);
        }
        if (args != null) {
            g.writeFieldName("args");
            g.writeRawValue(args);
        }
        g.writeStringField("ph", "X");
        g.writeEndObject();
        g.writeRaw('\n');
    }

    private static void flow(JsonGenerator g, long launch, long devPid, long devTid, long devStart) throws IOException {
        for (String ph : new String[] {"s", "f"}) {
            g.writeStartObject();
            g.writeStringField("ph", ph);
            g.writeStringField("name", "torch_to_npu");
            g.writeStringField("cat", "async_npu");
            g.writeNumberField("pid", ph.equals("s") ? OS_PID : devPid);
            g.writeNumberField("tid", ph.equals("s") ? OS_PID : devTid);
            g.writeStringField("ts", Durations.formatUs(ph.equals("s") ? launch : devStart));
            g.writeNumberField("id", devStart + devTid);
            if (ph.equals("f")) {
                g.writeStringField("bp", "e");
            }
            g.writeEndObject();
            g.writeRaw('\n');
        }
    }

    // ---- DB export ----

    private static void writeRankDb(Path file) throws SQLException, IOException {
        Files.deleteIfExists(file);
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file.toAbsolutePath())) {
            try (Statement st = c.createStatement()) {
                for (String ddl : new String[] {
                    "CREATE TABLE STRING_IDS (id INTEGER PRIMARY KEY,value TEXT)",
                    "CREATE TABLE META_DATA (name TEXT,value TEXT)",
                    "CREATE TABLE RANK_DEVICE_MAP (rankId INTEGER, deviceId INTEGER)",
                    "CREATE TABLE TASK (startNs INTEGER,endNs INTEGER,deviceId INTEGER,connectionId INTEGER,"
                            + "globalTaskId INTEGER,globalPid INTEGER,taskType INTEGER,contextId INTEGER,streamId INTEGER,"
                            + "taskId INTEGER,modelId INTEGER, depth integer)",
                    "CREATE TABLE COMPUTE_TASK_INFO (name INTEGER,globalTaskId INTEGER PRIMARY KEY,blockDim INTEGER,"
                            + "mixBlockDim INTEGER,taskType INTEGER,opType INTEGER,inputFormats INTEGER,inputDataTypes "
                            + "INTEGER,inputShapes INTEGER,outputFormats INTEGER,outputDataTypes INTEGER,outputShapes "
                            + "INTEGER,attrInfo INTEGER, waitNs INTEGER)",
                    "CREATE TABLE COMMUNICATION_TASK_INFO (name INTEGER,globalTaskId INTEGER,taskType INTEGER,planeId "
                            + "INTEGER,groupName INTEGER,notifyId INTEGER,rdmaType INTEGER,srcRank INTEGER,dstRank "
                            + "INTEGER,transportType INTEGER,size INTEGER,dataType INTEGER,linkType INTEGER,opId INTEGER)",
                    "CREATE TABLE COMMUNICATION_OP (opName INTEGER,startNs INTEGER,endNs INTEGER,connectionId INTEGER,"
                            + "groupName INTEGER,opId INTEGER PRIMARY KEY,relay INTEGER,retry INTEGER,dataType INTEGER,"
                            + "algType INTEGER,count NUMERIC,opType INTEGER, waitNs INTEGER)",
                    "CREATE TABLE CANN_API (startNs INTEGER,endNs INTEGER,type INTEGER,globalTid INTEGER,connectionId "
                            + "INTEGER PRIMARY KEY,name INTEGER, depth integer)",
                    "CREATE TABLE PYTORCH_API (startNs TEXT, endNs TEXT, globalTid INTEGER, connectionId INTEGER, name "
                            + "INTEGER, sequenceNumber INTEGER, fwdThreadId INTEGER, inputDtypes INTEGER, inputShapes "
                            + "INTEGER, callchainId INTEGER, type INTEGER, depth integer)",
                    "CREATE TABLE STEP_TIME (id INTEGER, startNs INTEGER, endNs INTEGER)",
                }) {
                    st.execute(ddl);
                }
            }
            c.setAutoCommit(false);
            Map<String, Long> strings = new HashMap<>();
            java.util.function.Function<String, Long> sid = v -> strings.computeIfAbsent(v, x -> (long) strings.size() + 1);
            exec(c, "INSERT INTO META_DATA VALUES ('SCHEMA_VERSION', '1.0.0')");
            exec(c, "INSERT INTO RANK_DEVICE_MAP VALUES (0, 0)");
            long tid = OS_PID;
            long globalTask = 1;
            long conn = 1000;
            long opId = 1;
            for (int k = 0; k < STEPS; k++) {
                long[] h = hostSpan(k);
                exec(c, "INSERT INTO PYTORCH_API (startNs, endNs, globalTid, connectionId, name, type) VALUES (?, ?, ?, NULL, ?, 50001)",
                        String.valueOf(h[0]), String.valueOf(h[1]), tid, sid.apply("ProfilerStep#" + (FIRST_STEP + k)));
                exec(c, "INSERT INTO STEP_TIME VALUES (?, ?, ?)", FIRST_STEP + k, h[0], h[1]);
            }
            for (Placed p : placed()) {
                Op op = p.op();
                conn++;
                exec(c, "INSERT INTO CANN_API VALUES (?, ?, 20000, ?, ?, ?, 0)", p.launch(), p.launch() + 10_000, tid, conn,
                        sid.apply(op.where() == Where.HCCL_OP ? "HcclAllreduce" : "aclnnLaunch"));
                switch (op.where()) {
                    case COMPUTE, KFC_TASK -> {
                        long stream = op.where() == Where.COMPUTE ? COMPUTE_STREAM : KFC_STREAM;
                        String hostType = switch (op.taskType()) {
                            case "AI_CORE" -> "KERNEL_AICORE";
                            case "AI_VECTOR_CORE" -> "KERNEL_AIVEC";
                            case "MIX_AIC" -> "KERNEL_MIX_AIC";
                            case "MIX_AIV" -> "KERNEL_MIX_AIV";
                            default -> "KERNEL_AICPU";
                        };
                        exec(c, "INSERT INTO TASK VALUES (?, ?, 0, ?, ?, ?, ?, 0, ?, ?, 4294967295, 0)", p.start(), p.end(),
                                conn, globalTask, (long) OS_PID, sid.apply(hostType), stream, globalTask);
                        exec(c, "INSERT INTO COMPUTE_TASK_INFO (name, globalTaskId, blockDim, taskType) VALUES (?, ?, 24, ?)",
                                sid.apply(op.name()), globalTask, sid.apply(op.taskType()));
                        globalTask++;
                    }
                    default -> {
                        exec(c, "INSERT INTO COMMUNICATION_OP VALUES (?, ?, ?, ?, ?, ?, -1, -1, ?, ?, ?, ?, 0)",
                                sid.apply(op.name()), p.start(), p.end(), conn, sid.apply(GROUP), opId,
                                sid.apply(op.where() == Where.HCCL_OP ? "FP32" : "N/A"),
                                sid.apply(op.where() == Where.HCCL_OP ? "MESH-RING" : "N/A"),
                                op.where() == Where.HCCL_OP ? 4_194_304L : -1L,
                                sid.apply(op.where() == Where.HCCL_OP ? "hcom_allReduce_" : "kfc_mc2_op"));
                        if (op.where() == Where.HCCL_OP) {
                            // Its SDMA task on the communication stream (inside the op, not an interval).
                            exec(c, "INSERT INTO TASK VALUES (?, ?, 0, ?, ?, ?, ?, 0, ?, ?, 4294967295, 0)", p.start(),
                                    p.end(), conn, globalTask, (long) OS_PID, sid.apply("SDMA"), (long) COMM_STREAM,
                                    globalTask);
                            exec(c, "INSERT INTO COMMUNICATION_TASK_INFO (name, globalTaskId, taskType, planeId, groupName,"
                                    + " opId) VALUES (?, ?, ?, 0, ?, ?)", sid.apply("Memcpy"), globalTask, sid.apply("Memcpy"),
                                    sid.apply(GROUP), opId);
                            globalTask++;
                        }
                        opId++;
                    }
                }
            }
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO STRING_IDS VALUES (?, ?)")) {
                for (Map.Entry<String, Long> e : strings.entrySet()) {
                    ps.setLong(1, e.getValue());
                    ps.setString(2, e.getKey());
                    ps.addBatch();
                }
                ps.executeBatch();
            }
            c.commit();
        }
    }

    /** torch_npu's analysis.db StepTraceTime: the per-step sums of the lanes, in µs. */
    private static void writeAnalysisDb(Path file) throws SQLException, IOException {
        Files.deleteIfExists(file);
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file.toAbsolutePath())) {
            exec(c, "CREATE TABLE StepTraceTime (deviceId INTEGER, step TEXT, computing NUMERIC, "
                    + "communication_not_overlapped NUMERIC, overlapped NUMERIC, communication NUMERIC, free NUMERIC, "
                    + "stage NUMERIC, bubble NUMERIC, communication_not_overlapped_and_exclude_receive NUMERIC, "
                    + "preparing NUMERIC)");
            for (int k = 0; k < STEPS; k++) {
                List<List<long[]>> l = lanes(k);
                long comp = length(l.get(0));
                long comm = length(l.get(1));
                long not = length(l.get(2));
                long free = length(l.get(3));
                exec(c, "INSERT INTO StepTraceTime VALUES (0, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?)", String.valueOf(FIRST_STEP + k),
                        Durations.formatUs(comp), Durations.formatUs(not), Durations.formatUs(comm - not),
                        Durations.formatUs(comm), Durations.formatUs(free),
                        Durations.formatUs(comp + not + free), Durations.formatUs(not),
                        Durations.formatUs(origin(k) - hostSpan(k)[0]));
            }
            AscendCommunicationWriter.writeCommAnalyzerTime(c, hcclOps());
        }
    }

    private static void exec(Connection c, String sql, Object... values) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < values.length; i++) {
                ps.setObject(i + 1, values[i]);
            }
            ps.executeUpdate();
        }
    }
}
