package io.overlapanalyze.analysis;

import io.overlapanalyze.analysis.rank.RankAnalyzer;
import io.overlapanalyze.model.CollectiveType;
import io.overlapanalyze.model.DeviceKind;
import io.overlapanalyze.model.HostSpanKind;
import io.overlapanalyze.model.RankTrace;
import io.overlapanalyze.model.Time;
import io.overlapanalyze.report.RankReport;
import io.overlapanalyze.report.StepReport;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Property test of the marker and tail rules (metrics.md §3–5) on random one-step scenarios,
 * against a brute-force implementation written straight from the contract's words: no sorting
 * tricks, no binary searches, no interval algebra (a nanosecond grid for the exposure numbers).
 *
 * <p>Scenarios: forward kernels launched by the main thread, backward kernels and gradient
 * all-reduces issued by the autograd thread, an optional optimizer span with its kernels, a
 * forward all-gather and a forward all-reduce that must stay out of G, memcpy work, several
 * streams, zero-length and overlapping kernels, comm ending before or after compute. Half the
 * cases drop all host information (an Nsight export without NVTX), which selects the §3–4
 * fallbacks (G = every reduction, data-ready by device order). {@link IntervalSetPropertyTest#CASES}
 * cases, seeded; the failing seed is in the message.
 */
class MarkerTailPropertyTest {
    private static final long SEED = Long.getLong("overlap.property.seed", 0x7A11L);
    private static final long O = TraceBuilder.ORIGIN;
    private static final int HORIZON = 400; // device times in [0, HORIZON) ns after O

    /** One device interval as the brute force sees it. */
    private record K(long start, long end, DeviceKind kind, long launch, long thread, boolean grad, long enqueue,
                     int collectiveId) {
    }

    @Test
    void markersTailAndExposureMatchTheBruteForce() {
        SplittableRandom seeds = new SplittableRandom(SEED);
        int positiveTail = 0;
        int zeroTail = 0;
        int noTail = 0;
        for (int i = 0; i < IntervalSetPropertyTest.CASES; i++) {
            long seed = seeds.nextLong();
            Expected e;
            try {
                e = checkOne(new SplittableRandom(seed));
            } catch (AssertionError ex) {
                throw new AssertionError("case " + i + " (seed " + seed + "): " + ex.getMessage(), ex);
            }
            if (e == null || e.tail() == null) {
                noTail++;
            } else if (e.tail() > 0) {
                positiveTail++;
            } else {
                zeroTail++;
            }
        }
        // The generator must reach every branch of the tail rule, or the property says little.
        int min = IntervalSetPropertyTest.CASES / 20;
        assertTrue(positiveTail >= min && zeroTail >= min && noTail >= min,
                "scenario mix: tail > 0 in " + positiveTail + ", tail 0 in " + zeroTail + ", undefined in " + noTail);
    }

    private static Expected checkOne(SplittableRandom r) {
        boolean host = r.nextBoolean();
        boolean optimizer = host && r.nextBoolean();
        TraceBuilder b = new TraceBuilder();
        int[] computeLanes = {b.lane("compute 0"), b.lane("compute 1")};
        int[] commLanes = {b.lane("comm 0"), b.lane("comm 1")};
        int copyLane = b.lane("copy");
        long main = TraceBuilder.MAIN;
        long autograd = TraceBuilder.AUTOGRAD;
        if (host) {
            b.thread(main, false).thread(autograd, true);
            b.span(HostSpanKind.STEP, "ProfilerStep#7", O - 1000, O + 1000, main);
            if (optimizer) {
                b.span(HostSpanKind.OPTIMIZER, "Optimizer.step#SGD.step", O - 200, O - 100, main);
            }
        } else {
            b.hostOps(false);
        }
        List<K> all = new ArrayList<>();
        // Host times (launch, enqueue) relative to O: forward [-1000,-600), backward [-600,-200), optimizer [-200,-100).
        int forward = r.nextInt(0, 4);
        int backward = r.nextInt(0, 6);
        int optimizerKernels = optimizer ? r.nextInt(0, 3) : 0;
        for (int k = 0; k < forward + backward + optimizerKernels; k++) {
            boolean bw = k >= forward && k < forward + backward;
            boolean opt = k >= forward + backward;
            long launch = opt ? O - 200 + r.nextInt(100) : bw ? O - 600 + r.nextInt(400) : O - 1000 + r.nextInt(400);
            long thread = bw ? autograd : main;
            long[] t = deviceTimes(r);
            int lane = computeLanes[r.nextInt(2)];
            b.compute(t[0], t[1], lane, host ? launch : Time.UNKNOWN, host ? thread : -1);
            all.add(new K(t[0], t[1], DeviceKind.COMPUTE, host ? launch : Time.UNKNOWN, host ? thread : -1, false,
                    Time.UNKNOWN, -1));
        }
        int reductions = r.nextInt(0, 5);
        for (int k = 0; k < reductions; k++) {
            long enqueue = O - 600 + r.nextInt(400);
            long[] t = deviceTimes(r);
            int id = b.collective(CollectiveType.ALL_REDUCE, 1 << 20, host ? enqueue : Time.UNKNOWN,
                    host ? autograd : -1, t[0], t[1], commLanes[r.nextInt(2)], host ? enqueue + 1 : Time.UNKNOWN);
            all.add(new K(t[0], t[1], DeviceKind.COMM, host ? enqueue + 1 : Time.UNKNOWN, host ? autograd : -1, true,
                    host ? enqueue : Time.UNKNOWN, id));
        }
        if (r.nextInt(3) == 0) { // a forward all-gather: never in G
            long enqueue = O - 1000 + r.nextInt(400);
            long[] t = deviceTimes(r);
            int id = b.collective(CollectiveType.ALL_GATHER, 1 << 20, host ? enqueue : Time.UNKNOWN, host ? main : -1,
                    t[0], t[1], commLanes[r.nextInt(2)], host ? enqueue + 1 : Time.UNKNOWN);
            all.add(new K(t[0], t[1], DeviceKind.COMM, host ? enqueue + 1 : Time.UNKNOWN, host ? main : -1, false,
                    Time.UNKNOWN, id));
        }
        if (host && r.nextInt(3) == 0) { // a forward all-reduce (e.g. a loss average): not a gradient
            long enqueue = O - 1000 + r.nextInt(400);
            long[] t = deviceTimes(r);
            int id = b.collective(CollectiveType.ALL_REDUCE, 8, enqueue, main, t[0], t[1], commLanes[r.nextInt(2)],
                    enqueue + 1);
            all.add(new K(t[0], t[1], DeviceKind.COMM, enqueue + 1, main, false, Time.UNKNOWN, id));
        }
        if (r.nextBoolean()) {
            long launch = O - 1000 + r.nextInt(400);
            long[] t = deviceTimes(r);
            b.kernel(t[0], t[1], copyLane, DeviceKind.MEMCPY, "Memcpy HtoD", host ? launch : Time.UNKNOWN,
                    host ? main : -1);
            all.add(new K(t[0], t[1], DeviceKind.MEMCPY, host ? launch : Time.UNKNOWN, host ? main : -1, false,
                    Time.UNKNOWN, -1));
        }
        RankTrace trace = b.build();
        RankReport report = RankAnalyzer.analyze(trace, AnalysisOptions.defaults());
        if (all.isEmpty()) {
            return null; // nothing to compare: a step without device work
        }
        assertEquals(1, report.steps().size(), "one step");
        StepReport s = report.steps().get(0);
        Expected want = bruteForce(all, host, optimizer);
        String ctx = " (scenario: " + all + ", host " + host + ")";
        assertEquals(want.gradCount, s.gradCollectives(), "|G|" + ctx);
        assertEquals(want.reduceStart, s.markers().reduceStartNs(), "reduce start" + ctx);
        assertEquals(want.lastReduceEnd, s.markers().lastReduceEndNs(), "last reduce end" + ctx);
        assertEquals(want.lastComputeEnd, s.markers().lastComputeEndNs(), "last compute end" + ctx);
        assertEquals(want.firstReady, s.markers().firstBucketReadyNs(), "first bucket ready" + ctx);
        assertEquals(want.lastReady, s.markers().lastBucketReadyNs(), "last bucket ready" + ctx);
        assertEquals(want.tail, s.tailNs(), "tail" + ctx);
        assertEquals(want.startDelay, s.startDelayNs(), "start delay" + ctx);
        assertEquals(want.launchLate, s.launchLateNs(), "launch late" + ctx);
        assertEquals(want.stepTime, s.stepTimeNs(), "step time" + ctx);
        assertEquals(want.commBusy, s.commBusyNs(), "comm busy" + ctx);
        assertEquals(want.computeBusy, s.computeBusyNs(), "compute busy" + ctx);
        assertEquals(want.overlapped, s.overlappedNs(), "overlapped" + ctx);
        assertEquals(want.exposed, s.exposedCommNs(), "exposed comm" + ctx);
        assertEquals(want.exposedGrad, s.exposedGradCommNs(), "exposed gradient comm" + ctx);
        assertEquals(want.idle, s.idleNs(), "idle" + ctx);
        return want;
    }

    /** Device start and end after O: mostly positive durations, some zero-length. */
    private static long[] deviceTimes(SplittableRandom r) {
        long start = r.nextInt(0, HORIZON - 60);
        long dur = r.nextInt(8) == 0 ? 0 : r.nextInt(1, 60);
        return new long[] {O + start, O + start + dur};
    }

    private record Expected(int gradCount, Long reduceStart, Long lastReduceEnd, Long lastComputeEnd, Long firstReady,
                            Long lastReady, Long tail, Long startDelay, Long launchLate, long stepTime, long commBusy,
                            long computeBusy, long overlapped, long exposed, long exposedGrad, long idle) {
    }

    /** metrics.md §3–5, literally. */
    private static Expected bruteForce(List<K> all, boolean host, boolean optimizerSpan) {
        // G: reductions enqueued during backward; with no host info, every reduction (no optimizer work is known).
        List<K> g = new ArrayList<>();
        for (K k : all) {
            if (k.grad()) {
                g.add(k);
            }
        }
        // Backward compute: launched by the autograd thread outside the optimizer span; all compute without host info.
        List<K> backwardCompute = new ArrayList<>();
        List<K> compute = new ArrayList<>();
        for (K k : all) {
            if (k.kind() == DeviceKind.COMPUTE) {
                compute.add(k);
                boolean inOptimizer = optimizerSpan && k.launch() >= O - 200 && k.launch() < O - 100;
                if (!host || (k.thread() == TraceBuilder.AUTOGRAD && !inOptimizer)) {
                    backwardCompute.add(k);
                }
            }
        }
        Long reduceStart = null;
        Long lastReduceEnd = null;
        Long lastComputeEnd = null;
        Long firstReady = null;
        Long lastReady = null;
        Long tail = null;
        Long startDelay = null;
        Long launchLate = null;
        if (!g.isEmpty()) {
            K g1 = g.get(0);
            K gl = g.get(0);
            for (K k : g) {
                if (k.start() < g1.start() || (k.start() == g1.start() && (k.end() < g1.end()
                        || (k.end() == g1.end() && k.collectiveId() < g1.collectiveId())))) {
                    g1 = k;
                }
                if (k.end() > gl.end() || (k.end() == gl.end() && (k.start() > gl.start()
                        || (k.start() == gl.start() && k.collectiveId() > gl.collectiveId())))) {
                    gl = k;
                }
            }
            reduceStart = g1.start();
            lastReduceEnd = gl.end();
            for (K k : backwardCompute) {
                if (k.start() < lastReduceEnd && (lastComputeEnd == null || k.end() > lastComputeEnd)) {
                    lastComputeEnd = k.end();
                }
            }
            firstReady = ready(g1, compute, host);
            lastReady = ready(gl, compute, host);
            tail = lastComputeEnd == null ? null : Math.max(0, lastReduceEnd - lastComputeEnd);
            startDelay = firstReady == null ? null : reduceStart - firstReady;
            launchLate = firstReady == null || !host ? null : Math.max(0, g1.enqueue() - firstReady);
        }
        // Exposure on a ns grid.
        long lo = Long.MAX_VALUE;
        long hi = Long.MIN_VALUE;
        for (K k : all) {
            lo = Math.min(lo, k.start());
            hi = Math.max(hi, k.end());
        }
        long commBusy = 0;
        long computeBusy = 0;
        long overlapped = 0;
        long exposedGrad = 0;
        long busy = 0;
        for (long t = lo; t < hi; t++) {
            boolean c = false;
            boolean kk = false;
            boolean m = false;
            boolean gr = false;
            for (K k : all) {
                if (k.start() <= t && t < k.end()) {
                    switch (k.kind()) {
                        case COMM -> {
                            c = true;
                            gr |= k.grad();
                        }
                        case COMPUTE -> kk = true;
                        default -> m = true;
                    }
                }
            }
            commBusy += c ? 1 : 0;
            computeBusy += kk ? 1 : 0;
            overlapped += c && kk ? 1 : 0;
            exposedGrad += gr && !kk ? 1 : 0;
            busy += c || kk || m ? 1 : 0;
        }
        return new Expected(g.size(), reduceStart, lastReduceEnd, lastComputeEnd, firstReady, lastReady, tail,
                startDelay, launchLate, hi - lo, commBusy, computeBusy, overlapped, commBusy - overlapped, exposedGrad,
                (hi - lo) - busy);
    }

    /**
     * Data-ready (metrics.md §4): with launch data, the latest end of the step's compute launched
     * strictly before the enqueue; without, the latest compute end at or before the collective's start.
     */
    private static Long ready(K g, List<K> compute, boolean host) {
        Long best = null;
        for (K k : compute) {
            boolean counts = host ? k.launch() < g.enqueue() : k.end() <= g.start();
            if (counts && (best == null || k.end() > best)) {
                best = k.end();
            }
        }
        return best;
    }
}
