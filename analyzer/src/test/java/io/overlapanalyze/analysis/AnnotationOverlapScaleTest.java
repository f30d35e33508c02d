package io.overlapanalyze.analysis;

import io.overlapanalyze.analysis.rank.RankAnalyzer;
import io.overlapanalyze.model.Annotation;
import io.overlapanalyze.model.DeviceKind;
import io.overlapanalyze.model.HostSpanKind;
import io.overlapanalyze.report.AnnotationReport;
import io.overlapanalyze.report.StepReport;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

import static io.overlapanalyze.analysis.TraceBuilder.MAIN;
import static io.overlapanalyze.analysis.TraceBuilder.MS;
import static io.overlapanalyze.analysis.TraceBuilder.ORIGIN;
import static io.overlapanalyze.analysis.TraceBuilder.US;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * Issue 29 item 2: the micro-batch overlap is one sweep over the step, not names × pieces. A step
 * with 40,000 distinct annotation names finishes under a generous bound with the numbers worked out
 * by hand; random small steps give every number of {@link AnnotationOverlap}'s contract, worked out
 * on a 1 µs grid straight from its definition (the comparison the old name-by-name code made).
 */
class AnnotationOverlapScaleTest {
    private static long t(long us) {
        return ORIGIN + us * US;
    }

    /**
     * 20,000 pairs: compute kernel k on lane 7 at [3k, 3k+2) µs under GPU range "c k", a COMM kernel on
     * lane 30 at [3k+1, 3k+3) µs under GPU range "m k". Each "m k": comm 2 µs, exposed the 1 µs after
     * the compute ends, hidden the 1 µs under "c k"'s compute; each "c k": device 2 µs, no comm.
     */
    @Test
    void twentyThousandDistinctNamesFinishWithTheirNumbers() {
        int pairs = 20_000;
        TraceBuilder b = new TraceBuilder();
        int l7 = b.lane("stream 7");
        int l30 = b.lane("stream 30");
        b.thread(MAIN, false);
        b.span(HostSpanKind.STEP, "ProfilerStep#1", ORIGIN - MS, t(3L * pairs + 10), MAIN);
        for (int k = 0; k < pairs; k++) {
            b.compute(t(3L * k), t(3L * k + 2), l7, ORIGIN - MS / 2 + 2L * k, MAIN);
            b.kernel(t(3L * k + 1), t(3L * k + 3), l30, DeviceKind.COMM, "a2a", ORIGIN - MS / 2 + 2L * k + 1, MAIN);
            b.annotation(Annotation.onDevice("c " + k, t(3L * k), t(3L * k + 2), l7));
            b.annotation(Annotation.onDevice("m " + k, t(3L * k + 1), t(3L * k + 3), l30));
        }
        StepReport s = assertTimeoutPreemptively(Duration.ofSeconds(30),
                () -> RankAnalyzer.analyze(b.build()).steps().get(0));
        assertEquals(2 * pairs, s.annotations().size());
        for (AnnotationReport a : s.annotations()) {
            if (a.name().startsWith("m ")) {
                assertEquals(List.of(2 * US, 2 * US, US, US),
                        List.of(a.deviceNs(), a.commNs(), a.exposedCommNs(), a.hiddenUnderNs()), a.name());
            } else {
                assertEquals(List.of(2 * US, 0L, 0L, 0L),
                        List.of(a.deviceNs(), a.commNs(), a.exposedCommNs(), a.hiddenUnderNs()), a.name());
            }
        }
    }

    /**
     * One GPU range over the whole step on lane 7 (Kineto draws {@code ProfilerStep#N} so) and 80,000
     * short ranges under it, each over its own 2 µs kernel at [3k, 3k+2) µs: "step" holds every
     * kernel (160 ms of device work), each "r k" its own 2 µs. Looking back from each kernel by the
     * longest range met every earlier range: kernels × ranges (24 s at 50,000 on the shared build machine, 3.5 s now).
     */
    @Test
    void aRangeOverTheWholeStepDoesNotMakeEveryKernelMeetEveryRange() {
        int n = 80_000;
        TraceBuilder b = new TraceBuilder();
        int l7 = b.lane("stream 7");
        b.thread(MAIN, false);
        b.span(HostSpanKind.STEP, "ProfilerStep#1", ORIGIN - MS, t(3L * n + 10), MAIN);
        b.annotation(Annotation.onDevice("step", t(0), t(3L * n), l7));
        for (int k = 0; k < n; k++) {
            b.compute(t(3L * k), t(3L * k + 2), l7, ORIGIN - MS / 2 + k, MAIN);
            b.annotation(Annotation.onDevice("r " + k, t(3L * k), t(3L * k + 2), l7));
        }
        StepReport s = assertTimeoutPreemptively(Duration.ofSeconds(30),
                () -> RankAnalyzer.analyze(b.build()).steps().get(0));
        assertEquals(n + 1, s.annotations().size());
        for (AnnotationReport a : s.annotations()) {
            assertEquals(a.name().equals("step") ? 2L * n * US : 2 * US, a.deviceNs(), a.name());
        }
    }

    /** One kernel of a random step: lane, kind and µs bounds. */
    private record Kernel(int index, int lane, DeviceKind kind, long start, long end) {
    }

    /** One range: a GPU range on a lane, or a host range with the kernels it launched. */
    private record Range(String name, boolean onDevice, int lane, long start, long end, List<Integer> launched) {
    }

    @Test
    void randomStepsGiveTheNumbersOfTheDefinition() {
        Random rnd = new Random(29);
        for (int round = 0; round < 300; round++) {
            TraceBuilder b = new TraceBuilder();
            int[] lanes = {b.lane("stream 7"), b.lane("stream 8"), b.lane("stream 30")};
            b.thread(MAIN, false);
            b.span(HostSpanKind.STEP, "ProfilerStep#1", ORIGIN - MS, t(100), MAIN);
            List<Kernel> kernels = new ArrayList<>();
            int n = 1 + rnd.nextInt(12);
            for (int k = 0; k < n; k++) {
                int lane = rnd.nextInt(lanes.length);
                DeviceKind kind = switch (rnd.nextInt(4)) {
                    case 0, 1 -> DeviceKind.COMM;
                    case 2 -> DeviceKind.COMPUTE;
                    default -> DeviceKind.FUSED;
                };
                long s = rnd.nextInt(40);
                long e = rnd.nextInt(5) == 0 ? s : s + 1 + rnd.nextInt(15); // some zero-length kernels
                int index = b.kernel(t(s), t(e), lanes[lane], kind, kind.name(), ORIGIN - MS / 2 + k, MAIN);
                kernels.add(new Kernel(index, lanes[lane], kind, s, e));
            }
            List<Range> ranges = new ArrayList<>();
            int m = 1 + rnd.nextInt(8);
            for (int r = 0; r < m; r++) {
                String name = "n" + rnd.nextInt(4);
                if (rnd.nextBoolean()) {
                    long s = rnd.nextInt(50);
                    long e = rnd.nextInt(5) == 0 ? s : s + 1 + rnd.nextInt(20); // some zero-length ranges
                    int lane = lanes[rnd.nextInt(lanes.length)];
                    ranges.add(new Range(name, true, lane, s, e, List.of()));
                    b.annotation(Annotation.onDevice(name, t(s), t(e), lane));
                } else {
                    List<Integer> launched = new ArrayList<>();
                    for (Kernel k : kernels) {
                        if (rnd.nextInt(3) == 0) {
                            launched.add(k.index());
                        }
                    }
                    ranges.add(new Range(name, false, -1, 0, 0, launched));
                    b.annotation(Annotation.onHost(name, ORIGIN - MS / 2 - 10, ORIGIN - MS / 2 + n + 10, MAIN,
                            launched.stream().mapToInt(Integer::intValue).toArray()));
                }
            }
            StepReport s = RankAnalyzer.analyze(b.build()).steps().get(0);
            Map<String, List<Long>> expected = byDefinition(kernels, ranges);
            Map<String, List<Long>> actual = new HashMap<>();
            for (AnnotationReport a : s.annotations()) {
                actual.put(a.name(), List.of(a.deviceNs(), a.commNs(), a.exposedCommNs(), a.hiddenUnderNs()));
            }
            assertEquals(expected, actual, "round " + round + ": " + kernels + " " + ranges);
        }
    }

    /**
     * Whether kernel k belongs to range r: launched by a host range; for a GPU range on its lane, a
     * positive overlap, or a zero-length kernel at an instant of the range (ends included).
     */
    private static boolean member(Range r, Kernel k) {
        if (!r.onDevice()) {
            return r.launched().contains(k.index());
        }
        if (r.lane() != k.lane()) {
            return false;
        }
        if (k.start() == k.end()) {
            return r.start() <= k.start() && k.start() <= r.end();
        }
        return Math.min(r.end(), k.end()) > Math.max(r.start(), k.start());
    }

    /** Which µs cells [u, u+1) a range gives a name of kernel k: clipped for a GPU range, whole for a host one. */
    private static Set<Long> cells(Range r, Kernel k) {
        Set<Long> out = new HashSet<>();
        if (r.onDevice()) {
            if (r.lane() == k.lane()) {
                for (long u = Math.max(r.start(), k.start()); u < Math.min(r.end(), k.end()); u++) {
                    out.add(u);
                }
            }
        } else if (r.launched().contains(k.index())) {
            for (long u = k.start(); u < k.end(); u++) {
                out.add(u);
            }
        }
        return out;
    }

    /** deviceNs, commNs, exposedCommNs, hiddenUnderNs per name, cell by cell (AnnotationOverlap's javadoc). */
    private static Map<String, List<Long>> byDefinition(List<Kernel> kernels, List<Range> ranges) {
        Set<Long> computeAnywhere = new HashSet<>();
        for (Kernel k : kernels) {
            if (k.kind() != DeviceKind.COMM) {
                for (long u = k.start(); u < k.end(); u++) {
                    computeAnywhere.add(u);
                }
            }
        }
        Set<String> names = new HashSet<>();
        ranges.forEach(r -> names.add(r.name()));
        Map<String, List<Long>> out = new HashMap<>();
        for (String name : names) {
            Set<Long> all = new HashSet<>();
            Set<Long> comm = new HashSet<>();
            Set<Integer> members = new HashSet<>();
            boolean listed = false;
            for (Range r : ranges) {
                if (r.name().equals(name)) {
                    for (Kernel k : kernels) {
                        Set<Long> c = cells(r, k);
                        if (member(r, k)) {
                            members.add(k.index());
                            listed = true;
                            all.addAll(c);
                            if (k.kind() == DeviceKind.COMM) {
                                comm.addAll(c);
                            }
                        }
                    }
                }
            }
            if (!listed) {
                continue; // no device work of the name in the step (a zero-length kernel counts: it is listed)
            }
            Set<Long> others = new HashSet<>();
            for (Range r : ranges) {
                if (!r.name().equals(name)) {
                    for (Kernel k : kernels) {
                        if (k.kind() != DeviceKind.COMM && !members.contains(k.index())) {
                            others.addAll(cells(r, k));
                        }
                    }
                }
            }
            long exposed = comm.stream().filter(u -> !computeAnywhere.contains(u)).count();
            long hidden = comm.stream().filter(others::contains).count();
            out.put(name, List.of(all.size() * US, comm.size() * US, exposed * US, hidden * US));
        }
        return out;
    }
}
