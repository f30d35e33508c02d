package io.overlapanalyze.crossrank.digest;

import io.overlapanalyze.crossrank.RankInput;
import io.overlapanalyze.model.Collective;
import io.overlapanalyze.model.CollectiveType;
import io.overlapanalyze.model.DeviceIntervals;
import io.overlapanalyze.model.DeviceKind;
import io.overlapanalyze.model.HostSpan;
import io.overlapanalyze.model.HostSpanKind;
import io.overlapanalyze.model.HostThread;
import io.overlapanalyze.model.Lane;
import io.overlapanalyze.model.MemorySamples;
import io.overlapanalyze.model.ProcessGroup;
import io.overlapanalyze.model.RankSource;
import io.overlapanalyze.model.RankTrace;
import io.overlapanalyze.model.StringPool;
import io.overlapanalyze.model.Time;
import io.overlapanalyze.model.TraceFormat;
import io.overlapanalyze.report.Attribution;
import io.overlapanalyze.report.BoundBy;
import io.overlapanalyze.report.ChainLink;
import io.overlapanalyze.report.RankReport;
import io.overlapanalyze.report.StepReport;
import io.overlapanalyze.report.TailKind;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What a digest keeps of one hand-built rank, interval by interval, and that its encoding gives it back. */
class CrossRankDigestTest {
    /**
     * Lane 0 compute, lane 1 communication (ns): collective 0 = COMM [0, 10), a COMM kernel of no
     * collective [30, 40), compute [5, 20) and [35, 50), a pre-capture collective COMM [-10, -5) and
     * a pre-capture compute [-20, -2). Exposed communication C − K = [0, 5) ∪ [30, 35); the compute
     * under the kept collective (pre-capture left out) is [5, 10).
     */
    private static RankInput rank() {
        DeviceIntervals d = new DeviceIntervals(new StringPool());
        int gemm1 = d.add(5, 20, 0, DeviceKind.COMPUTE, "gemm", 3, 11);
        int coll = d.add(0, 10, 1, DeviceKind.COMM, "nccl AllReduce", 1, 11);
        int loose = d.add(30, 40, 1, DeviceKind.COMM, "nccl SendRecv", 25, 11);
        d.add(35, 50, 0, DeviceKind.COMPUTE, "gemm", 26, 11);
        int pre = d.add(-10, -5, 1, DeviceKind.COMM, "nccl AllReduce", Time.UNKNOWN, -1);
        int preCompute = d.add(-20, -2, 0, DeviceKind.COMPUTE, "gemm", Time.UNKNOWN, -1);
        d.markPreCapture(pre);
        d.markPreCapture(preCompute);
        d.setCollective(coll, 1);
        d.setCollective(pre, 0);
        ProcessGroup g = new ProcessGroup("0", "default_pg", List.of(0, 1));
        List<Collective> collectives = List.of(
                new Collective(0, CollectiveType.ALL_REDUCE, fresh("nccl:all_reduce"), g, -1, 4, 4, fresh("Float"), 16,
                        Time.UNKNOWN, -1, new int[] {pre}),
                new Collective(1, CollectiveType.ALL_REDUCE, fresh("nccl:all_reduce"), g, 7, 4, 4, fresh("Float"), 16, 1, 11,
                        new int[] {coll}));
        List<HostSpan> spans = List.of(new HostSpan(HostSpanKind.STEP, fresh("ProfilerStep#1"), 0, 60, 11),
                new HostSpan(HostSpanKind.BACKWARD, "MmBackward0", 2, 4, 12));
        List<HostThread> threads = List.of(new HostThread(11, List.of("python"), false),
                new HostThread(12, List.of("pt_autograd_0"), true));
        RankTrace t = new RankTrace("r0.json", TraceFormat.KINETO, 0, RankSource.TRACE, 2,
                List.of(new Lane(0, 0, 7, "stream 7"), new Lane(1, 0, 20, "stream 20")), d, spans, threads,
                collectives, List.of(g), new long[] {44}, true, false, List.of("a warning"), List.of(), List.of(),
                MemorySamples.empty(), null, List.of());
        ChainLink head = new ChainLink(1, fresh("ALL_REDUCE"), 16L, 0, 10, 5L, 1L, null, BoundBy.DATA);
        ChainLink before = new ChainLink(0, fresh("ALL_REDUCE"), 16L, -10, -5, null, null, null, BoundBy.UNEXPLAINED);
        StepReport withTail = StepReport.empty(fresh("ProfilerStep#1")).withTailNs(4L)
                .withAttribution(new Attribution(TailKind.LAST_BUCKET, List.of(head, before)));
        StepReport noTail = StepReport.empty("ProfilerStep#2");
        StepReport windowOnly = StepReport.empty("ProfilerStep#3").withDeviceWindow(30, 50);
        RankReport r = new RankReport(0, "TRACE", "r0.json", "KINETO", 2, List.of(withTail, noTail, windowOnly), null,
                List.of("a note"), List.of("a warning"), List.of(), null, List.of(), null, null, List.of(), null, null);
        return new RankInput(t, r);
    }

    /** A string of its own, as each reader builds a rank's names (a literal would be one instance). */
    private static String fresh(String s) {
        return new String(s.toCharArray());
    }

    private static List<String> intervals(DeviceIntervals d) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < d.size(); i++) {
            out.add(d.kind(i) + " [" + d.start(i) + ", " + d.end(i) + ") lane " + d.lane(i) + " coll "
                    + d.collective(i) + " launch " + d.launchNs(i) + "/" + d.launchThread(i)
                    + (d.preCapture(i) ? " pre" : ""));
        }
        return out;
    }

    private static void assertDigest(RankInput x) {
        RankTrace t = x.trace();
        assertEquals(List.of(
                "COMM [-10, -5) lane 1 coll 0 launch " + Time.UNKNOWN + "/-1 pre",
                "COMM [0, 10) lane 1 coll 1 launch 1/11",
                "COMM [0, 5) lane -1 coll -1 launch " + Time.UNKNOWN + "/-1",
                "COMM [30, 35) lane -1 coll -1 launch " + Time.UNKNOWN + "/-1",
                "COMPUTE [5, 10) lane -1 coll -1 launch " + Time.UNKNOWN + "/-1"), intervals(t.device()));
        assertArrayEquals(new int[] {0}, t.collectives().get(0).deviceIntervals());
        assertArrayEquals(new int[] {1}, t.collectives().get(1).deviceIntervals());
        assertEquals(new ProcessGroup("0", "default_pg", List.of(0, 1)), t.collectives().get(1).group());
        assertEquals(7, t.collectives().get(1).sequence());
        assertEquals(List.of(new HostSpan(HostSpanKind.STEP, "ProfilerStep#1", 0, 60, 11)), t.hostSpans());
        assertEquals(List.of(new HostThread(11, List.of("python"), false)), t.threads(), "the issuing thread only");
        assertEquals(List.of(new Lane(0, 0, 7, "stream 7"), new Lane(1, 0, 20, "stream 20")), t.lanes());
        assertEquals("r0.json", t.source());
        assertEquals(2, t.worldSize());
        assertTrue(t.warnings().isEmpty());
        assertEquals(0, t.unmatchedLaunchNs().length);

        RankReport r = x.report();
        assertEquals(2, r.steps().size(), "the step without a tail or a window is read by no cross-rank analysis");
        assertEquals(StepReport.empty("ProfilerStep#3").withDeviceWindow(30, 50), r.steps().get(1),
                "a step's device window is kept (the transfer/waiting split per step reads it)");
        StepReport s = r.steps().get(0);
        assertEquals("ProfilerStep#1", s.name());
        assertEquals(4L, s.tailNs());
        assertEquals(new Attribution(TailKind.LAST_BUCKET,
                List.of(new ChainLink(1, "ALL_REDUCE", 16L, 0, 10, 5L, 1L, null, BoundBy.DATA),
                        new ChainLink(0, "ALL_REDUCE", null, -10, -5, null, null, null, BoundBy.UNEXPLAINED))),
                s.attribution(), "the whole chain (the WAIT cause reads every link's collective and span)");
        assertTrue(s.gradBuckets().isEmpty());
        assertTrue(r.notes().isEmpty());
        assertNull(r.totals());
        assertEquals(2, r.worldSize());
    }

    @Test
    void keepsTheCollectivesTheExposedCommunicationAndTheComputeUnderTheCollectives() {
        assertDigest(CrossRankDigest.of(rank()));
    }

    @Test
    void theDigestsOfOneJobHoldEachNameAndProcessGroupOnce() {
        SharedValues shared = new SharedValues();
        RankInput a = rank();
        RankInput b = rank(); // equal names and groups, but other instances, as two readers build them
        assertNotSame(a.trace().collectives().get(0).name(), b.trace().collectives().get(0).name());
        RankTrace ta = CrossRankDigest.trace(a.trace(), shared);
        RankTrace tb = CrossRankDigest.trace(b.trace(), shared);
        RankReport ra = CrossRankDigest.report(a.report(), shared);
        RankReport rb = CrossRankDigest.report(b.report(), shared);
        Collective ca = ta.collectives().get(1);
        Collective cb = tb.collectives().get(1);
        assertSame(ca.name(), cb.name());
        assertSame(ca.dtype(), cb.dtype());
        assertSame(ca.group(), cb.group());
        assertSame(ta.hostSpans().get(0).name(), tb.hostSpans().get(0).name());
        assertSame(ta.hostSpans().get(0).name(), ra.steps().get(0).name(), "the step's name in trace and report");
        assertSame(ra.steps().get(0).name(), rb.steps().get(0).name());
        assertSame(ra.steps().get(0).attribution().chain().get(1).type(),
                rb.steps().get(0).attribution().chain().get(1).type());
        assertDigest(new RankInput(tb, rb));
    }

    @Test
    void digestsDecodedForOneJobHoldEachNameAndProcessGroupOnce() {
        SharedValues shared = new SharedValues();
        RankInput a = RankDigest.of(rank()).toInput(shared);
        RankInput b = RankDigest.of(rank()).toInput(shared);
        assertSame(a.trace().collectives().get(1).name(), b.trace().collectives().get(1).name());
        assertSame(a.trace().collectives().get(1).group(), b.trace().collectives().get(1).group());
        assertSame(a.report().steps().get(0).name(), b.report().steps().get(0).name());
        RankInput alone = RankDigest.of(rank()).toInput();
        assertNotSame(a.trace().collectives().get(1).name(), alone.trace().collectives().get(1).name(),
                "decoded alone, a digest has names of its own");
        assertDigest(b);
    }

    @Test
    void theEncodingGivesTheDigestBack() {
        RankDigest d = DigestCheck.roundTrip(RankDigest.of(rank()));
        assertEquals(0, d.rank());
        assertDigest(d.toInput());
    }
}
