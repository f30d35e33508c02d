package io.overlapanalyze.synth;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.overlapanalyze.synth.SyntheticTimeline.KernelOp;
import io.overlapanalyze.synth.SyntheticTimeline.PlannedAnnotation;
import io.overlapanalyze.synth.SyntheticTimeline.PlannedKernel;
import io.overlapanalyze.synth.SyntheticTimeline.PlannedReduction;
import io.overlapanalyze.synth.SyntheticTimeline.PlannedStep;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import static io.overlapanalyze.synth.TimelinePlanner.NEST;

/**
 * Writes a {@link Scenario} as a torch_npu (Ascend PyTorch Profiler) capture: a
 * {@code <name>_ascend_pt} directory with {@code profiler_info_<rank>.json} and
 * {@code ASCEND_PROFILER_OUTPUT/trace_view.json}, encoding exactly the timeline of
 * {@link KinetoScenarioWriter#plan(Scenario)} (ascend.md §3):
 * <ul>
 *   <li>a bare JSON array; {@code ts} as strings of epoch µs with 3 decimals, {@code dur} numbers;</li>
 *   <li>pids encoded {@code (osPid << 10) | (sortIndex << 5) | device}, lanes named by metadata;</li>
 *   <li>{@code Python} host ops ({@code ProfilerStep#N}, annotations, forward ops on the main thread,
 *       {@code autograd::engine::evaluate_function: …} and {@code c10d::allreduce_} on the autograd
 *       thread, named "Thread &lt;tid&gt;" as torch_npu does);</li>
 *   <li>compute tasks ({@code Task Type AI_CORE}) on {@code Ascend Hardware} stream 2 and the
 *       all-reduces as {@code hcom_allReduce__586_<bucket-1>_1} on the {@code HCCL} op thread, one
 *       plane task each (stream 4), linked to their host op by {@code async_npu} flows whose id is the
 *       device start in ns, as torch_npu writes them.</li>
 * </ul>
 * No Overlap Analysis lane is written: it is Huawei's output, not a fact of the scenario.
 */
public final class AscendScenarioWriter {
    private static final JsonFactory JSON = JsonFactory.builder().build();
    static final int OS_PID = 3_096_504;
    static final int AUTOGRAD_TID = OS_PID + 8571;
    static final int COMPUTE_STREAM = 2;
    static final int COMM_STREAM = 4;
    static final String GROUP_TAG = "586";

    /** Flow ids of the timeline being written (one writer per thread at a time). */
    private static final ThreadLocal<java.util.Set<Long>> USED_IDS = ThreadLocal.withInitial(java.util.HashSet::new);

    private AscendScenarioWriter() {
    }

    /** The timeline it encodes (the same as the Kineto writer's). */
    public static SyntheticTimeline plan(Scenario scenario) {
        return TimelinePlanner.plan(scenario);
    }

    /** The capture directory name torch_npu would use for this scenario. */
    public static String directoryName(Scenario scenario) {
        return scenario.name() + "_ascend_pt";
    }

    /**
     * Writes the capture into {@code dir} (created; must not already hold a capture) and returns the
     * plan it encodes.
     */
    public static SyntheticTimeline write(Scenario scenario, Path dir) throws IOException {
        SyntheticTimeline timeline = plan(scenario);
        Path out = dir.resolve("ASCEND_PROFILER_OUTPUT");
        Files.createDirectories(out);
        try (OutputStream o = new BufferedOutputStream(Files.newOutputStream(out.resolve("trace_view.json")), 1 << 16)) {
            writeTimeline(scenario, timeline, o);
        }
        try (OutputStream o = Files.newOutputStream(dir.resolve("profiler_info_" + scenario.rank() + ".json"));
             JsonGenerator g = JSON.createGenerator(o, JsonEncoding.UTF8)) {
            g.useDefaultPrettyPrinter();
            g.writeStartObject();
            g.writeObjectFieldStart("config");
            g.writeObjectFieldStart("experimental_config");
            g.writeStringField("_profiler_level", "Level1");
            g.writeStringField("_export_type", "text");
            g.writeEndObject();
            g.writeEndObject();
            g.writeNumberField("rank_id", scenario.rank());
            g.writeEndObject();
        }
        return timeline;
    }

    /**
     * {@link #write(Scenario, Path)}, plus the profiler's communication analysis with the transfer /
     * waiting split {@code split} sets ({@link AscendCommunicationWriter}).
     */
    public static SyntheticTimeline write(Scenario scenario, Path dir, AscendCommunicationWriter.ProfilerSplit split)
            throws IOException {
        SyntheticTimeline timeline = write(scenario, dir);
        AscendCommunicationWriter.write(timeline, scenario.rank(), split, dir.resolve("ASCEND_PROFILER_OUTPUT"));
        return timeline;
    }

    /** Writes {@code trace_view.json} (UTF-8, not closing {@code out}). */
    public static void writeTimeline(Scenario scenario, SyntheticTimeline timeline, OutputStream out)
            throws IOException {
        int dev = scenario.rank();
        long hwPid = ((long) OS_PID << 10) | (13L << 5) | dev;
        long hcclPid = ((long) OS_PID << 10) | (15L << 5) | dev;
        long base = timeline.baseTimeNanoseconds();
        List<Ev> events = new ArrayList<>();
        USED_IDS.get().clear();
        for (PlannedStep step : timeline.steps()) {
            events.add(Ev.x(OS_PID, OS_PID, "ProfilerStep#" + step.number(), step.hostStart(), step.hostEnd(), "cpu_op"));
            for (PlannedAnnotation a : step.annotations()) {
                events.add(Ev.x(OS_PID, OS_PID, a.name(), a.start(), a.end(), "cpu_op"));
            }
            for (KernelOp op : step.mainOps()) {
                events.add(Ev.x(OS_PID, OS_PID, op.name(), op.start(), op.end(), "cpu_op"));
                tasks(events, op, OS_PID, hwPid);
            }
            for (KernelOp op : step.autogradOps()) {
                events.add(Ev.x(OS_PID, AUTOGRAD_TID, "autograd::engine::evaluate_function: " + op.name(), op.start(),
                        op.end(), "cpu_op"));
                events.add(Ev.x(OS_PID, AUTOGRAD_TID, op.name(), op.start() + NEST, op.end() - NEST, "cpu_op"));
                tasks(events, op, AUTOGRAD_TID, hwPid);
            }
            for (PlannedReduction r : step.reductions()) {
                events.add(Ev.x(OS_PID, AUTOGRAD_TID, "c10d::allreduce_", r.enqueue(), r.hostEnd(), "cpu_op"));
                events.add(Ev.x(OS_PID, AUTOGRAD_TID, "HcclAllreduce", r.launch(), r.launch() + NEST, "cpu_op"));
                String name = "hcom_allReduce__" + GROUP_TAG + "_" + (r.bucket() - 1) + "_1";
                Ev op = Ev.x(hcclPid, 0, name, r.start(), r.end(), null);
                op.args = "{\"connection_id\":" + (1000 + r.bucket()) + ",\"model id\":4294967295,\"data_type\":\"FP32\","
                        + "\"alg_type\":\"MESH-RING\",\"count\":" + (r.bytes() / 4) + "}";
                events.add(op);
                Ev plane = Ev.x(hcclPid, 1, "Memcpy", r.start(), r.end(), null);
                plane.args = "{\"stream id\":" + COMM_STREAM + ",\"task type\":\"Memcpy\",\"transport type\":\"SDMA\"}";
                events.add(plane);
                flow(events, AUTOGRAD_TID, r.launch(), hcclPid, 0, r.start());
            }
        }
        events.sort(Comparator.comparingLong((Ev e) -> e.ts).thenComparing(e -> -e.dur));
        try (JsonGenerator g = JSON.createGenerator(out, JsonEncoding.UTF8)) {
            g.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
            g.writeStartArray();
            g.writeRaw('\n');
            // Metadata first here; readers must not rely on it (real files mix it in).
            meta(g, OS_PID, 0, "process_name", "name", "Python");
            meta(g, OS_PID, 0, "process_labels", "labels", "CPU");
            meta(g, OS_PID, OS_PID, "thread_name", "name", "Thread " + OS_PID);
            meta(g, OS_PID, AUTOGRAD_TID, "thread_name", "name", "Thread " + AUTOGRAD_TID);
            meta(g, hwPid, 0, "process_name", "name", "Ascend Hardware");
            meta(g, hwPid, 0, "process_labels", "labels", "NPU");
            meta(g, hwPid, COMPUTE_STREAM, "thread_name", "name", "Stream " + COMPUTE_STREAM);
            meta(g, hcclPid, 0, "process_name", "name", "HCCL");
            meta(g, hcclPid, 0, "process_labels", "labels", "NPU");
            meta(g, hcclPid, 0, "thread_name", "name", "Group 0 Communication");
            meta(g, hcclPid, 1, "thread_name", "name", "Plane 0");
            for (Ev e : events) {
                e.write(g, base);
            }
            g.writeEndArray();
        }
        out.flush();
    }

    private static void tasks(List<Ev> events, KernelOp op, long tid, long hwPid) {
        int taskId = 1;
        for (PlannedKernel k : op.kernels()) {
            Ev t = Ev.x(hwPid, COMPUTE_STREAM, k.name(), k.start(), k.end(), null);
            t.args = "{\"Model Id\":4294967295,\"Task Type\":\"AI_CORE\",\"Physic Stream Id\":" + COMPUTE_STREAM
                    + ",\"Task Id\":" + (taskId++) + ",\"Batch Id\":0}";
            events.add(t);
            flow(events, tid, k.launch(), hwPid, COMPUTE_STREAM, k.start());
        }
    }

    /** An async_npu flow: host op (launch) → device event; torch_npu uses the device start (ns) as id. */
    private static void flow(List<Ev> events, long tid, long launch, long devPid, long devTid, long devStart) {
        Ev s = new Ev("s", OS_PID, tid, "torch_to_npu", launch, -1, "async_npu");
        Ev f = new Ev("f", devPid, devTid, "torch_to_npu", devStart, -1, "async_npu");
        // Two events may start at the same ns (a compute task and an all-reduce): keep ids distinct.
        long id = devStart;
        while (!USED_IDS.get().add(id)) {
            id++;
        }
        s.flowStart = id;
        f.flowStart = id;
        events.add(s);
        events.add(f);
    }

    private static void meta(JsonGenerator g, long pid, long tid, String name, String key, String value) throws IOException {
        g.writeStartObject();
        g.writeStringField("ph", "M");
        g.writeStringField("name", name);
        g.writeNumberField("pid", pid);
        g.writeNumberField("tid", tid);
        g.writeObjectFieldStart("args");
        g.writeStringField(key, value);
        g.writeEndObject();
        g.writeEndObject();
        g.writeRaw('\n');
    }

    /** One event; times relative ns (the base is added on writing). */
    private static final class Ev {
        final String ph;
        final long pid;
        final long tid;
        final String name;
        final long ts;
        final long dur;
        final String cat;
        String args;
        long flowStart = -1;

        Ev(String ph, long pid, long tid, String name, long ts, long dur, String cat) {
            this.ph = ph;
            this.pid = pid;
            this.tid = tid;
            this.name = name;
            this.ts = ts;
            this.dur = dur;
            this.cat = cat;
        }

        static Ev x(long pid, long tid, String name, long start, long end, String cat) {
            return new Ev("X", pid, tid, name, start, end - start, cat);
        }

        void write(JsonGenerator g, long base) throws IOException {
            g.writeStartObject();
            g.writeStringField("name", name);
            g.writeNumberField("pid", pid);
            g.writeNumberField("tid", tid);
            g.writeStringField("ts", Durations.formatUs(base + ts)); // a string, as Ascend writes it
            if (dur >= 0) {
                g.writeFieldName("dur");
                g.writeNumber(Durations.formatUs(dur));
            }
            if (cat != null) {
                g.writeStringField("cat", cat);
            }
            if (flowStart >= 0) {
                g.writeNumberField("id", base + flowStart);
                g.writeStringField("bp", "e");
            }
            if (args != null) {
                g.writeFieldName("args");
                g.writeRawValue(args);
            }
            g.writeStringField("ph", ph);
            g.writeEndObject();
            g.writeRaw('\n');
        }
    }
}
