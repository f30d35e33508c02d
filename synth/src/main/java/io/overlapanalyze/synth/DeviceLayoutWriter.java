package io.overlapanalyze.synth;

import io.overlapanalyze.synth.SyntheticTimeline.PlannedReduction;
import io.overlapanalyze.synth.SyntheticTimeline.PlannedStep;
import io.overlapanalyze.synth.TraceEventBuilder.TraceEvent;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A DDP {@link Scenario} written with another device layout than one CUDA GPU per process:
 * <ul>
 *   <li>{@link Layout#TWO_DEVICES}: one process driving two GPUs. Device {@code d} (the scenario's)
 *       runs the scenario as usual; device {@code d + 1} runs the same work again, launched from two
 *       more host threads of the same process ({@code pt_main_thread}/{@code pt_autograd_1} style),
 *       its device times {@code lagNs} later. The {@code ProfilerStep} annotations are the
 *       process's, written once. Each device's intervals are the scenario's plan (the second one's
 *       shifted by {@code lagNs}); with no lag every number of either device is the scenario's, with a
 *       lag those that compare device starts with host launch times (a launch-bound attribution) may
 *       change on the second. One rank with both devices merged would be wrong either way.</li>
 *   <li>{@link Layout#MTIA}: the scenario on an MTIA-style accelerator (kineto.md §3.1): device events
 *       of category {@code mtia_ccp_events} with only {@code correlation} and {@code stream} args,
 *       launches of category {@code mtia_runtime}; per step one {@code dma_request} of
 *       {@link #MTIA_DMA_NS} on its own stream starting {@link #MTIA_DMA_OFFSET_NS} after the step's
 *       device start (inside the step's window, so every other number is the scenario's), and one
 *       {@code event_record} of 1 µs on the compute stream at the end of each backward block that
 *       fills a bucket.</li>
 * </ul>
 * The whole event list is held in memory (these layouts are for small scenarios and tests; the
 * streaming writer is {@link KinetoScenarioWriter}).
 */
public final class DeviceLayoutWriter {
    /** Ids of the second device's events are those of the first plus these (no clash). */
    static final int SECOND_EXTERNAL_ID_SHIFT = 1_000_000;
    static final int SECOND_CORRELATION_SHIFT = 1_000_000;
    /** The second device's host threads: the first's tids plus this. */
    public static final int SECOND_TID_SHIFT = 1;

    /** MTIA: the per-step host-to-device copy, its offset from the step's device start, its stream. */
    public static final long MTIA_DMA_NS = 500_000;
    public static final long MTIA_DMA_OFFSET_NS = 100_000;
    static final int MTIA_DMA_STREAM = 105;
    static final long MTIA_EVENT_NS = 1_000;

    /** Which layout to write. */
    public enum Layout { TWO_DEVICES, MTIA }

    private DeviceLayoutWriter() {
    }

    /** Writes {@code s} in {@code layout} (UTF-8, not closing {@code out}); returns the plan (first device's times). */
    public static SyntheticTimeline write(Scenario s, Layout layout, long lagNs, OutputStream out, String traceName)
            throws IOException {
        SyntheticTimeline plan = KinetoScenarioWriter.plan(s);
        List<TraceEvent> base = new TraceEventBuilder(s).build(plan);
        List<TraceEvent> events = layout == Layout.TWO_DEVICES ? twoDevices(base, s.rank(), lagNs) : mtia(base, plan, s);
        KinetoScenarioWriter.writeDocument(out, traceName, layout == Layout.MTIA ? "mtia:hccl,cpu:gloo" : "nccl",
                s.rank(), s.worldSize(), events, plan.baseTimeNanoseconds());
        return plan;
    }

    /** Writes to {@code file} (gzip when the name ends with {@code .gz}); returns the plan. */
    public static SyntheticTimeline write(Scenario s, Layout layout, long lagNs, Path file) throws IOException {
        return KinetoScenarioWriter.toFile(file, (out, traceName) -> write(s, layout, lagNs, out, traceName));
    }

    // ---- two devices ----

    private static List<TraceEvent> twoDevices(List<TraceEvent> base, int device, long lagNs) {
        int second = device + 1;
        List<TraceEvent> out = new ArrayList<>();
        List<TraceEvent> copies = new ArrayList<>();
        long last = Long.MIN_VALUE;
        for (TraceEvent e : base) {
            if ("Record Window End".equals(e.name())) {
                continue; // written once, after everything
            }
            out.add(e);
            boolean onDevice = Integer.valueOf(device).equals(e.pid());
            last = Math.max(last, e.ts() + Math.max(0, e.dur()));
            TraceEvent c = secondCopy(e, onDevice, second, lagNs);
            if (c != null) {
                copies.add(c);
                last = Math.max(last, c.ts() + Math.max(0, c.dur()));
            }
        }
        out.addAll(copies);
        out.add(new TraceEvent("i", null, "Record Window End", "", "", last + 10_000, -1, null, null));
        return out;
    }

    /** The second device's version of {@code e}, or {@code null} when the process has it once. */
    private static TraceEvent secondCopy(TraceEvent e, boolean onDevice, int second, long lagNs) {
        if ("M".equals(e.ph())) {
            if (onDevice) {
                Object value = e.args().values().iterator().next();
                if ("process_labels".equals(e.name())) {
                    value = "GPU " + second;
                } else if ("process_sort_index".equals(e.name())) {
                    value = 5_000_000 + second;
                }
                return new TraceEvent("M", null, e.name(), second, e.tid(), e.ts(), -1, null,
                        Map.of(e.args().keySet().iterator().next(), value));
            }
            if ("thread_name".equals(e.name())) {
                int tid = (Integer) e.tid() + SECOND_TID_SHIFT;
                String name = String.valueOf(e.args().get("name")).replace("thread " + e.tid(), "thread " + tid)
                        .replace("pt_autograd_0", "pt_autograd_1");
                return new TraceEvent("M", null, "thread_name", e.pid(), tid, e.ts(), -1, null, Map.of("name", name));
            }
            return null; // the process's own name, labels and sort index
        }
        if (e.name().startsWith("ProfilerStep#")) {
            return null; // the process's steps, shared by its devices
        }
        if (onDevice) {
            return new TraceEvent(e.ph(), e.cat(), e.name(), second, e.tid(), e.ts() + lagNs, e.dur(), shifted(e.id()),
                    shiftedArgs(e.args(), second));
        }
        Object tid = e.tid() instanceof Integer t ? (Object) (t + SECOND_TID_SHIFT) : e.tid();
        return new TraceEvent(e.ph(), e.cat(), e.name(), e.pid(), tid, e.ts(), e.dur(), shifted(e.id()),
                shiftedArgs(e.args(), null));
    }

    private static Long shifted(Long flowId) {
        return flowId == null ? null : flowId + SECOND_CORRELATION_SHIFT;
    }

    private static Map<String, Object> shiftedArgs(Map<String, Object> args, Integer device) {
        if (args == null) {
            return null;
        }
        Map<String, Object> a = new LinkedHashMap<>(args);
        shift(a, "External id", SECOND_EXTERNAL_ID_SHIFT);
        shift(a, "correlation", SECOND_CORRELATION_SHIFT);
        shift(a, "wait_on_cuda_event_record_corr_id", SECOND_CORRELATION_SHIFT);
        if (device != null && a.containsKey("device")) {
            a.put("device", device);
        }
        return a;
    }

    private static void shift(Map<String, Object> a, String key, int by) {
        if (a.get(key) instanceof Integer v) {
            a.put(key, v + by);
        }
    }

    // ---- MTIA ----

    private static List<TraceEvent> mtia(List<TraceEvent> base, SyntheticTimeline plan, Scenario s) {
        int device = s.rank();
        int pid = TraceEventBuilder.BASE_PID + s.rank();
        int mainTid = pid;
        List<TraceEvent> out = new ArrayList<>();
        TraceEvent windowEnd = null;
        for (TraceEvent e : base) {
            if ("Record Window End".equals(e.name())) {
                windowEnd = e;
                continue;
            }
            TraceEvent m = mtiaEvent(e, device);
            if (m != null) {
                out.add(m);
            }
        }
        // Correlations above every one the builder handed out.
        int corr = 900_000_000;
        for (PlannedStep step : plan.steps()) {
            long copyStart = step.deviceStart() + MTIA_DMA_OFFSET_NS;
            long enqueue = step.hostStart() + TimelinePlanner.NEST;
            out.add(runtime("enqueueCommand memcpyHtoDAsync", pid, mainTid, enqueue, device, MTIA_DMA_STREAM, corr));
            out.add(deviceEvent("dma_request", device, MTIA_DMA_STREAM, copyStart, MTIA_DMA_NS, corr++,
                    Map.of("direction", "HOST_TO_DEVICE", "size", 4_194_304)));
            for (PlannedReduction r : step.reductions()) {
                long blockEnd = r.dataReady();
                out.add(runtime("recordEvent", pid, mainTid, enqueue, device, TraceEventBuilder.COMPUTE_STREAM, corr));
                out.add(deviceEvent("event_record", device, TraceEventBuilder.COMPUTE_STREAM, blockEnd - MTIA_EVENT_NS,
                        MTIA_EVENT_NS, corr++, Map.of()));
            }
        }
        if (windowEnd != null) {
            out.add(windowEnd);
        }
        return out;
    }

    /** A CUDA-shaped event as MTIA writes it; {@code null} for what MTIA traces do not have. */
    private static TraceEvent mtiaEvent(TraceEvent e, int device) {
        boolean onDevice = Integer.valueOf(device).equals(e.pid());
        if ("M".equals(e.ph())) {
            if (!onDevice) {
                return e;
            }
            Object value = e.args().values().iterator().next();
            if ("process_name".equals(e.name()) || "process_labels".equals(e.name())) {
                value = "MTIA " + device;
            } else if ("thread_name".equals(e.name())) {
                value = "Stream " + e.tid();
            }
            return new TraceEvent("M", null, e.name(), e.pid(), e.tid(), e.ts(), -1, null,
                    Map.of(e.args().keySet().iterator().next(), value));
        }
        if ("cuda_runtime".equals(e.cat())) {
            Map<String, Object> a = new LinkedHashMap<>();
            a.put("correlation", e.args().get("correlation"));
            a.put("device", device);
            return new TraceEvent("X", "mtia_runtime", mtiaRuntimeName(e.name()), e.pid(), e.tid(), e.ts(), e.dur(),
                    null, a);
        }
        if ("kernel".equals(e.cat()) || "cuda_sync".equals(e.cat())) {
            Map<String, Object> a = new LinkedHashMap<>();
            a.put("correlation", e.args().get("correlation"));
            a.put("stream", e.args().get("stream"));
            String name = "cuda_sync".equals(e.cat()) ? "event_wait" : e.name();
            return new TraceEvent("X", "mtia_ccp_events", name, e.pid(), e.tid(), e.ts(), e.dur(), null, a);
        }
        return e; // host ops, annotations, flows
    }

    private static String mtiaRuntimeName(String cudaName) {
        return switch (cudaName) {
            case "cudaEventRecord" -> "recordEvent";
            case "cudaStreamWaitEvent" -> "enqueueCommand waitOnEvent";
            default -> "runFunction - job_prep_and_submit_for_execution";
        };
    }

    private static TraceEvent runtime(String name, int pid, int tid, long ts, int device, int stream, int corr) {
        Map<String, Object> a = new LinkedHashMap<>();
        a.put("correlation", corr);
        a.put("device", device);
        a.put("stream_id", Integer.toString(stream));
        return new TraceEvent("X", "mtia_runtime", name, pid, tid, ts, TimelinePlanner.NEST, null, a);
    }

    private static TraceEvent deviceEvent(String name, int device, int stream, long start, long dur, int corr,
                                          Map<String, Object> extra) {
        Map<String, Object> a = new LinkedHashMap<>();
        a.put("correlation", corr);
        a.put("stream", stream);
        a.putAll(extra);
        return new TraceEvent("X", "mtia_ccp_events", name, device, stream, start, dur, null, a);
    }
}
