package io.overlapanalyze.crossrank;

import io.overlapanalyze.model.CollectiveType;
import io.overlapanalyze.model.DeviceIntervals;
import io.overlapanalyze.model.FlightEntry;
import io.overlapanalyze.model.FlightGroupStatus;
import io.overlapanalyze.model.FlightRecorderDump;
import io.overlapanalyze.model.MemorySamples;
import io.overlapanalyze.model.ProcessGroup;
import io.overlapanalyze.model.RankSource;
import io.overlapanalyze.model.RankTrace;
import io.overlapanalyze.model.StringPool;
import io.overlapanalyze.model.Time;
import io.overlapanalyze.model.TraceFormat;
import io.overlapanalyze.report.HangReport;
import io.overlapanalyze.report.HangReport.HangDivergence;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The hang rules (metrics.md §8 on Flight Recorder dumps), each on dumps written by hand here: the
 * expected ranks are the ones the test made behave differently.
 */
class HangAnalysisTest {
    private static final ProcessGroup WORLD = new ProcessGroup("0", "default_pg", List.of(0, 1, 2, 3));
    private static final ProcessGroup DP = new ProcessGroup("5", "DATA_PARALLEL_GROUP", List.of(0, 1, 2, 3));
    private static final ProcessGroup PP = new ProcessGroup("7", "PIPELINE_MODEL_PARALLEL_GROUP", List.of(1, 3));

    private long record;

    private FlightEntry coll(ProcessGroup g, long seq, String name, long elements, String dtype) {
        return new FlightEntry(record++, g.name(), g.description(), 1, seq, 0, false, name, CollectiveType.fromName(name),
                -1, -1, List.of(List.of(elements)), List.of(dtype), List.of(List.of(elements)), List.of(dtype),
                "scheduled", 1_000 + record, Time.UNKNOWN, Time.UNKNOWN, "main");
    }

    private FlightEntry p2p(ProcessGroup g, long collSeq, long p2pSeq, boolean send, int from, int to) {
        String name = send ? "nccl:send " + from + "->" + to : "nccl:recv " + to + "<-" + from;
        return new FlightEntry(record++, g.name(), g.description(), 2, collSeq, p2pSeq, true, name,
                send ? CollectiveType.SEND : CollectiveType.RECV, from, to, List.of(List.of(64L)), List.of("Float"),
                List.of(List.of(64L)), List.of("Float"), "scheduled", 1_000 + record, Time.UNKNOWN, Time.UNKNOWN, "main");
    }

    private static RankTrace rank(int r, List<FlightEntry> entries, List<FlightGroupStatus> status) {
        return new RankTrace("dump_" + r, TraceFormat.FLIGHT_RECORDER, r, RankSource.FILE_NAME, 4, List.of(),
                new DeviceIntervals(new StringPool(), 0), List.of(), List.of(), List.of(), List.of(WORLD, DP, PP),
                new long[0], false, false, List.of(), List.of(), List.of(), MemorySamples.empty(), "no timeline",
                List.of(), List.of(), new FlightRecorderDump("2.9", null, entries, status));
    }

    /** Ranks 0–3 all reached all_reduce #10 of DP, except those in {@code behind}, which stopped at #9. */
    private List<RankTrace> job(List<Integer> behind) {
        List<RankTrace> out = new ArrayList<>();
        for (int r = 0; r < 4; r++) {
            List<FlightEntry> e = new ArrayList<>();
            e.add(coll(DP, 9, "nccl:all_reduce", 1024, "Float"));
            if (!behind.contains(r)) {
                e.add(coll(DP, 10, "nccl:all_reduce", 1024, "Float"));
            }
            out.add(rank(r, e, List.of()));
        }
        return out;
    }

    private static HangDivergence only(HangReport report, String group, boolean p2p) {
        List<HangDivergence> found = report.divergences().stream()
                .filter(d -> d.group().equals(group) && d.p2p() == p2p).toList();
        assertEquals(1, found.size(), report.divergences().toString());
        return found.get(0);
    }

    @Test
    void aRankThatNeverEnqueuedTheNextCollectiveIsMissingAndTheOthersWait() {
        HangReport report = HangAnalysis.analyze(job(List.of(2)));
        HangDivergence d = only(report, "5", false);
        assertEquals("MISSING", d.kind());
        assertEquals(10, d.sequence());
        assertEquals(List.of(2), d.missing());
        assertEquals(List.of(0, 1, 3), d.waiting());
        assertEquals("nccl:all_reduce", d.operation());
        assertEquals(9L, d.progress().get(2).lastEnqueued());
        assertEquals(10L, d.progress().get(0).lastEnqueued());
        assertEquals("hang: group 5 DATA_PARALLEL_GROUP nccl:all_reduce #10: rank 2 never enqueued it; ranks 0, 1, 3 wait",
                report.verdict());
        assertEquals("MISSING_EVERYWHERE", report.ranks().get(0).verdict());
        assertEquals(2, report.ranks().get(0).rank());
    }

    @Test
    void aDifferentTypeAtTheSameNumberIsATypeMismatch() {
        List<RankTrace> ranks = job(List.of());
        List<FlightEntry> e = new ArrayList<>(ranks.get(3).flightRecorder().entries());
        e.set(1, coll(DP, 10, "nccl:all_gather", 1024, "Float"));
        ranks.set(3, rank(3, e, List.of()));
        HangDivergence d = only(HangAnalysis.analyze(ranks), "5", false);
        assertEquals("TYPE", d.kind());
        assertEquals(10, d.sequence());
        assertEquals(List.of(3), d.mismatched());
        assertEquals(List.of(0, 1, 2), d.waiting());
    }

    @Test
    void aDifferentSizeOrDtypeIsASizeOrDtypeMismatch() {
        List<RankTrace> ranks = job(List.of());
        List<FlightEntry> e = new ArrayList<>(ranks.get(1).flightRecorder().entries());
        e.set(0, coll(DP, 9, "nccl:all_reduce", 2048, "Float"));
        ranks.set(1, rank(1, e, List.of()));
        HangDivergence size = only(HangAnalysis.analyze(ranks), "5", false);
        assertEquals("SIZE", size.kind());
        assertEquals(9, size.sequence());
        assertEquals(List.of(1), size.mismatched());

        ranks = job(List.of());
        e = new ArrayList<>(ranks.get(0).flightRecorder().entries());
        e.set(1, coll(DP, 10, "nccl:all_reduce", 1024, "BFloat16"));
        ranks.set(0, rank(0, e, List.of()));
        HangDivergence dtype = only(HangAnalysis.analyze(ranks), "5", false);
        assertEquals("DTYPE", dtype.kind());
        assertEquals(List.of(0), dtype.mismatched());
    }

    @Test
    void aSendWhosePeerNeverPostedTheRecvNamesThePeer() {
        // PP = ranks [1, 3]: group-local 0 is rank 1, local 1 is rank 3. Rank 1 sends p2p #5 and #6 to 3;
        // rank 3 received #5 and never posted #6.
        List<RankTrace> ranks = job(List.of());
        List<FlightEntry> one = new ArrayList<>(ranks.get(1).flightRecorder().entries());
        one.add(p2p(PP, 0, 5, true, 0, 1));
        one.add(p2p(PP, 0, 6, true, 0, 1));
        ranks.set(1, rank(1, one, List.of()));
        List<FlightEntry> three = new ArrayList<>(ranks.get(3).flightRecorder().entries());
        three.add(p2p(PP, 0, 5, false, 0, 1));
        ranks.set(3, rank(3, three, List.of()));
        HangReport report = HangAnalysis.analyze(ranks);
        HangDivergence d = only(report, "7", true);
        assertEquals(6, d.sequence());
        assertEquals(List.of(3), d.missing());
        assertEquals(List.of(1), d.waiting());
        assertEquals("nccl:send 0->1", d.operation());
        assertEquals(1, report.divergences().size(), "send #5 and recv #5 match: " + report.divergences());
    }

    @Test
    void aRankWhoseBufferIsEmptyIsPlacedByItsGroupStatus() {
        // Rank 2 crashed before everything: its buffer is empty, its status says it enqueued up to #8.
        List<RankTrace> ranks = job(List.of());
        ranks.set(2, rank(2, List.of(), List.of(new FlightGroupStatus("5", 1, 8, -1, 8))));
        HangReport report = HangAnalysis.analyze(ranks);
        HangDivergence d = only(report, "5", false);
        assertEquals(9, d.sequence());
        assertEquals(List.of(2), d.missing());
        assertEquals(List.of(0, 1, 3), d.waiting());
        assertEquals("MISSING_EVERYWHERE", report.ranks().get(0).verdict());
        assertNull(report.ranks().get(0).lastOperation());
        assertTrue(report.notes().get(0).contains("pg_status"), report.notes().toString());
    }

    @Test
    void aMemberWithoutADumpIsMissingAndSaidSo() {
        List<RankTrace> ranks = job(List.of());
        ranks.remove(3);
        HangReport report = HangAnalysis.analyze(ranks);
        HangDivergence d = only(report, "5", false);
        assertEquals(List.of(3), d.missing());
        assertEquals("NO_DUMP", report.ranks().get(0).verdict());
    }

    @Test
    void aRankMissingInOneGroupButWaitingInAnotherIsHeldUpNotTheCause() {
        // Rank 2 is behind in DP; rank 3 waits in DP and never posted the recv rank 1 sends it in PP.
        List<RankTrace> ranks = job(List.of(2));
        List<FlightEntry> one = new ArrayList<>(ranks.get(1).flightRecorder().entries());
        one.add(p2p(PP, 0, 6, true, 0, 1));
        ranks.set(1, rank(1, one, List.of()));
        List<FlightEntry> three = new ArrayList<>(ranks.get(3).flightRecorder().entries());
        three.add(p2p(PP, 0, 5, false, 0, 1));
        ranks.set(3, rank(3, three, List.of()));
        HangReport report = HangAnalysis.analyze(ranks);
        assertEquals("5", report.divergences().get(0).group(), "DP holds three ranks, PP one");
        HangReport.HangRank two = report.ranks().stream().filter(r -> r.rank() == 2).findFirst().orElseThrow();
        HangReport.HangRank threeR = report.ranks().stream().filter(r -> r.rank() == 3).findFirst().orElseThrow();
        assertEquals("MISSING_EVERYWHERE", two.verdict());
        assertEquals("MISSING_SOMEWHERE", threeR.verdict());
        assertEquals(List.of("7"), threeR.missingIn());
        assertEquals(List.of("5"), threeR.waitingIn());
    }

    @Test
    void oneDumpAloneIsNoJob() {
        HangReport report = HangAnalysis.analyze(job(List.of(2)).subList(2, 3));
        assertEquals("hang: one dump only (rank 2): where ranks diverge needs the dumps of every rank of a group",
                report.verdict());
        assertEquals(List.of(), report.divergences());
    }

    @Test
    void noDumpsNoSection() {
        assertNull(HangAnalysis.analyze(List.of()));
    }

    @Test
    void rankRangesUseAnEnDash() {
        assertEquals("0–11, 13–15", HangAnalysis.ranges(List.of(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 14, 15)));
        assertEquals("8, 10–13, 15", HangAnalysis.ranges(List.of(15, 8, 10, 11, 12, 13)));
        assertEquals("1, 2", HangAnalysis.ranges(List.of(2, 1)));
    }
}
