package io.overlapanalyze.analysis;

import io.overlapanalyze.model.Collective;
import io.overlapanalyze.model.DeviceIntervals;
import io.overlapanalyze.model.HostSpan;
import io.overlapanalyze.model.HostSpanKind;
import io.overlapanalyze.model.HostThread;
import io.overlapanalyze.model.RankTrace;
import io.overlapanalyze.model.Time;
import io.overlapanalyze.report.Phase;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * The training phase of device work and collectives, from host information (metrics.md §2).
 *
 * <ol>
 *   <li>{@code OPTIMIZER}: launched inside an {@code Optimizer.step#…} span, on any thread (the
 *       optimizer runs on the main thread; checking the thread would only lose multi-threaded
 *       optimizers).</li>
 *   <li>{@code BACKWARD}: launched by an autograd-engine thread, or inside a BACKWARD span
 *       ({@code autograd::engine::evaluate_function: …}, {@code …Backward…}) on the launching thread
 *       (the thread check keeps a data-loader thread's kernels out of the backward pass).</li>
 *   <li>{@code FORWARD}: anything else launched within the step.</li>
 *   <li>{@code UNKNOWN}: the trace has no host ops at all, or this launch time is unknown.</li>
 * </ol>
 * Span lookups are O(log n): spans of each kind (per thread for BACKWARD) are merged into an
 * {@link IntervalSet} once.
 */
public final class PhaseClassifier {
    private final boolean hostOpsPresent;
    private final IntervalSet optimizerSpans;
    /** Thread ids with BACKWARD spans, sorted; {@link #backwardSpans} is parallel to it. */
    private final long[] backwardThreads;
    private final IntervalSet[] backwardSpans;
    private final IntervalSet backwardSpansAnyThread;
    /** Autograd-engine thread ids, sorted (primitive lookups: no boxing per kernel). */
    private final long[] autogradThreads;
    private final boolean tracePhaseInfo;

    public PhaseClassifier(RankTrace trace) {
        this.hostOpsPresent = trace.hostOpsPresent();
        IntervalSet.Builder optimizer = IntervalSet.builder();
        IntervalSet.Builder backwardAny = IntervalSet.builder();
        Map<Long, IntervalSet.Builder> backward = new HashMap<>();
        boolean anyOptimizer = false;
        boolean anyBackward = false;
        for (HostSpan span : trace.hostSpans()) {
            if (span.kind() == HostSpanKind.OPTIMIZER) {
                optimizer.add(span.startNs(), span.endNs());
                anyOptimizer = true;
            } else if (span.kind() == HostSpanKind.BACKWARD) {
                backward.computeIfAbsent(span.threadId(), t -> IntervalSet.builder()).add(span.startNs(), span.endNs());
                backwardAny.add(span.startNs(), span.endNs());
                anyBackward = true;
            }
        }
        this.optimizerSpans = optimizer.build();
        this.backwardThreads = backward.keySet().stream().mapToLong(Long::longValue).sorted().toArray();
        this.backwardSpans = new IntervalSet[backwardThreads.length];
        for (int k = 0; k < backwardThreads.length; k++) {
            backwardSpans[k] = backward.get(backwardThreads[k]).build();
        }
        this.backwardSpansAnyThread = backwardAny.build();
        this.autogradThreads = trace.threads().stream().filter(HostThread::autograd)
                .mapToLong(HostThread::threadId).sorted().distinct().toArray();
        this.tracePhaseInfo = anyOptimizer || anyBackward || autogradThreads.length > 0;
    }

    /** False selects the no-host-information fallbacks of metrics.md §3–4. */
    public boolean hostOpsPresent() {
        return hostOpsPresent;
    }

    /**
     * True when the host ops show a backward pass or an optimizer anywhere in the trace. Host ops
     * without either are an inference/evaluation trace (metrics.md §3).
     */
    public boolean traceShowsTraining() {
        return hostOpsPresent && tracePhaseInfo;
    }

    /** Phase of work launched at host time {@code launchNs} by thread {@code threadId}. */
    public Phase phaseOfLaunch(long launchNs, long threadId) {
        if (!hostOpsPresent || !Time.isKnown(launchNs)) {
            return Phase.UNKNOWN;
        }
        if (optimizerSpans.contains(launchNs)) {
            return Phase.OPTIMIZER;
        }
        if (Arrays.binarySearch(autogradThreads, threadId) >= 0) {
            return Phase.BACKWARD;
        }
        // An unknown launching thread (-1) cannot be matched; any thread's backward span is the
        // best evidence left.
        IntervalSet backward = backwardSpansAnyThread;
        if (threadId != -1) {
            int k = Arrays.binarySearch(backwardThreads, threadId);
            backward = k >= 0 ? backwardSpans[k] : IntervalSet.empty();
        }
        if (backward.contains(launchNs)) {
            return Phase.BACKWARD;
        }
        return Phase.FORWARD;
    }

    /** Phase of device interval {@code i}, from its host launch. */
    public Phase phaseOfInterval(DeviceIntervals dev, int i) {
        return phaseOfLaunch(dev.launchNs(i), dev.launchThread(i));
    }

    /**
     * Phase of a collective: when it was enqueued and by which thread ("enqueued during
     * BACKWARD", metrics.md §3). Without an enqueue time, the host launch of its first kernel
     * stands in for it (it is issued from inside the same CPU op).
     */
    public Phase phaseOfCollective(Collective c, DeviceIntervals dev) {
        if (Time.isKnown(c.enqueueNs())) {
            return phaseOfLaunch(c.enqueueNs(), c.threadId());
        }
        int[] kernels = c.deviceIntervals();
        if (kernels != null) {
            for (int i : kernels) {
                if (Time.isKnown(dev.launchNs(i))) {
                    return phaseOfLaunch(dev.launchNs(i), dev.launchThread(i));
                }
            }
        }
        return Phase.UNKNOWN;
    }
}
