package io.overlapanalyze.synth;

import io.overlapanalyze.synth.SyntheticTimeline.PlannedStep;
import io.overlapanalyze.synth.TraceEventBuilder.TraceEvent;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What real captures do that a planned timeline does not, applied to the Kineto events as they
 * are written (metrics.md §1–2). Without any effect the writer's output is unchanged, byte for
 * byte.
 *
 * <ul>
 *   <li>{@code deviceLagNs}: the device runs behind the host (the normal case: the host queues
 *       work ahead). Every device event, and the device end of its flow, is written that much
 *       later; host events stay. Steps, phases and durations are those of the plan; every planned
 *       device time is {@code + deviceLagNs}.</li>
 *   <li>{@code hostTimeSync}: {@code cuda_sync} rows carry the host call's time, as CUPTI writes
 *       them: each "Stream Wait Event" (the scenario must have {@code syncEvents}) is written at its
 *       {@code cudaStreamWaitEvent}'s {@code ts}, not where its wait ends on the device. With a
 *       device lag it lies that far before the step's device work.</li>
 *   <li>{@code startsMidStep}: the profiler starts at the host start of the second step
 *       ({@code cut}). Host events and flow starts before {@code cut} are not written (the first
 *       step's launches, annotations and {@code ProfilerStep}); device events are written only
 *       when they end after {@code cut} (what was still running when the capture began). Those
 *       have correlation ids below every runtime call left in the file: work launched before the
 *       capture. Needs at least two steps.</li>
 *   <li>{@code pipelineNs}: pipelined steps. At the end of every step but the last, the main
 *       thread launches a copy of the next batch (a {@code cudaMemcpyAsync}, 5 µs before the
 *       step's host end) that runs {@code pipelineNs} on its own stream from the step's planned
 *       device end. It belongs to the step that launched it, so that step's window runs that far
 *       past its device end; with {@code pipelineNs} above the step gap the windows overlap.</li>
 * </ul>
 */
public record CaptureEffects(long deviceLagNs, boolean hostTimeSync, boolean startsMidStep, long pipelineNs) {
    public static final CaptureEffects NONE = new CaptureEffects(0, false, false, 0);
    /** Stream of the pipelined next-batch copies. */
    public static final int COPY_STREAM = 30;
    /** Host offset of the next-batch copy call before the step's host end. */
    public static final long COPY_CALL_BEFORE_END_NS = 5_000;
    static final long COPY_CALL_DUR_NS = 3_000;
    /** Correlation ids of the added copies start here: above every id the builder hands out. */
    static final int FIRST_COPY_CORRELATION = 50_000_000;
    static final String COPY_NAME = "Memcpy HtoD (Pinned -> Device)";

    public CaptureEffects {
        if (deviceLagNs < 0) {
            throw new IllegalArgumentException("deviceLagUs must be >= 0, got " + Durations.plainUs(deviceLagNs));
        }
        if (pipelineNs < 0) {
            throw new IllegalArgumentException("pipelineUs must be >= 0, got " + Durations.plainUs(pipelineNs));
        }
    }

    public boolean none() {
        return deviceLagNs == 0 && !hostTimeSync && !startsMidStep && pipelineNs == 0;
    }

    /** Checks that the scenario can carry these effects; one line naming the problem. */
    public void check(Scenario s) {
        if (startsMidStep && s.steps() < 2) {
            throw new ScenarioException("a capture that starts mid-step needs at least 2 steps, got " + s.steps());
        }
        if (hostTimeSync && !s.syncEvents()) {
            throw new ScenarioException("host-time sync events need a scenario with \"syncEvents\": true");
        }
    }

    /** The host time at which the capture begins ({@code startsMidStep}), else {@code Long.MIN_VALUE}. */
    public long captureStartNs(SyntheticTimeline timeline) {
        return startsMidStep ? timeline.steps().get(1).hostStart() : Long.MIN_VALUE;
    }

    /**
     * A sink that applies the effects to the builder's events before {@code out}; {@link
     * Filter#finish} writes what the effects add. The builder emits host events before device
     * events, so every runtime call's time is known when its sync row comes.
     */
    Filter filter(SyntheticTimeline timeline, int pid, int device, TraceEventBuilder.Sink out) {
        return new Filter(timeline, pid, device, out);
    }

    final class Filter implements TraceEventBuilder.Sink {
        private final SyntheticTimeline timeline;
        private final int pid;
        private final int device;
        private final TraceEventBuilder.Sink out;
        private final long cut;
        private final Map<Long, Long> runtimeTs = new HashMap<>();
        private TraceEvent windowEnd;

        Filter(SyntheticTimeline timeline, int pid, int device, TraceEventBuilder.Sink out) {
            this.timeline = timeline;
            this.pid = pid;
            this.device = device;
            this.out = out;
            this.cut = captureStartNs(timeline);
        }

        @Override
        public void accept(TraceEvent e) throws IOException {
            if ("M".equals(e.ph())) {
                out.accept(e);
                return;
            }
            if ("i".equals(e.ph())) {
                windowEnd = e; // written last, after the added events
                return;
            }
            boolean deviceSide = isDevice(e);
            if (!deviceSide) {
                if (e.ts() < cut) {
                    return;
                }
                if ("cuda_runtime".equals(e.cat()) && e.args() != null && e.args().get("correlation") != null) {
                    runtimeTs.put(((Number) e.args().get("correlation")).longValue(), e.ts());
                }
                out.accept(e);
                return;
            }
            long ts = e.ts() + deviceLagNs;
            if (hostTimeSync && "cuda_sync".equals(e.cat())) {
                Long call = runtimeTs.get(((Number) e.args().get("correlation")).longValue());
                if (call == null) {
                    return; // its call was before the capture: so is the row, at host time
                }
                ts = call;
            }
            long end = e.dur() >= 0 ? ts + e.dur() : ts;
            if (end <= cut && !"f".equals(e.ph())) {
                return;
            }
            if ("f".equals(e.ph()) && ts < cut) {
                return; // the flow's device end of work that was not captured
            }
            out.accept(new TraceEvent(e.ph(), e.cat(), e.name(), e.pid(), e.tid(), ts, e.dur(), e.id(), e.args()));
        }

        /** The device side of the trace: device events and the flow ends on device lanes. */
        private boolean isDevice(TraceEvent e) {
            if ("f".equals(e.ph())) {
                return true;
            }
            String cat = e.cat();
            return "kernel".equals(cat) || "cuda_sync".equals(cat) || "gpu_memcpy".equals(cat)
                    || "gpu_memset".equals(cat) || "gpu_user_annotation".equals(cat);
        }

        /** Writes the pipelined copies and the trace's closing instant. */
        void finish() throws IOException {
            List<TraceEvent> added = new ArrayList<>();
            List<PlannedStep> steps = timeline.steps();
            for (int k = 0; pipelineNs > 0 && k + 1 < steps.size(); k++) {
                PlannedStep step = steps.get(k);
                long call = step.hostEnd() - COPY_CALL_BEFORE_END_NS;
                if (call < cut) {
                    continue;
                }
                long corr = FIRST_COPY_CORRELATION + k;
                Map<String, Object> rt = new LinkedHashMap<>();
                rt.put("External id", 0);
                rt.put("cbid", 41); // cudaMemcpyAsync_v3020
                rt.put("correlation", corr);
                added.add(new TraceEvent("X", "cuda_runtime", "cudaMemcpyAsync", pid, pid, call, COPY_CALL_DUR_NS,
                        null, rt));
                long start = step.deviceEnd() + deviceLagNs;
                Map<String, Object> args = new LinkedHashMap<>();
                args.put("device", device);
                args.put("context", 1);
                args.put("stream", COPY_STREAM);
                args.put("correlation", corr);
                args.put("bytes", 4_194_304);
                args.put("memory bandwidth (GB/s)", 20);
                added.add(new TraceEvent("X", "gpu_memcpy", COPY_NAME, device, COPY_STREAM, start, pipelineNs, null,
                        args));
            }
            for (TraceEvent e : added) {
                out.accept(e);
            }
            if (windowEnd != null) {
                long lastCopyEnd = steps.get(steps.size() - 1).deviceEnd() + deviceLagNs + pipelineNs;
                out.accept(new TraceEvent(windowEnd.ph(), windowEnd.cat(), windowEnd.name(), windowEnd.pid(),
                        windowEnd.tid(), Math.max(windowEnd.ts() + deviceLagNs, lastCopyEnd), windowEnd.dur(),
                        windowEnd.id(), windowEnd.args()));
            }
        }
    }
}
