package io.overlapanalyze.crossrank;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.overlapanalyze.report.CrossRankReport;
import io.overlapanalyze.report.PeerBoundTail;
import io.overlapanalyze.report.TailKind;
import io.overlapanalyze.synth.BuiltinScenarios;
import io.overlapanalyze.synth.Durations;
import io.overlapanalyze.synth.Job;
import io.overlapanalyze.synth.Scenario;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * metrics.md §8 "Advice agrees with the whole job": a tail whose last collective mostly waited for a
 * late peer is named as such. Expected values follow from how the job is built (see {@link Job}: a
 * collective ends on every rank at the latest arrival plus its transfer time).
 */
class PeerBoundTailTest {
    private static final long US = 1000;
    private static final long MS = 1_000_000;

    @TempDir
    Path dir;

    /**
     * Three 10 ms backward blocks, 1 ms all-reduce after each; rank 1 starts every step 3 ms late.
     * No bucket ever queues (10 ms of compute between 4 ms collectives), so on rank 0 each bucket
     * arrives when its data is ready and waits 3 ms for rank 1: the last one runs [30, 34] ms,
     * tail 4 ms (LAST_BUCKET, bound by DATA), 3 ms of it waiting: most of its duration.
     */
    @Test
    void aTailThatMostlyWaitedForALatePeerNamesThatPeer() throws Exception {
        Scenario gaps = Scenario.of("gaps", "three 10 ms blocks", List.of(), List.of(
                Scenario.Block.us(10_000, Scenario.Bucket.of(26_214_400, 1000)),
                Scenario.Block.us(10_000, Scenario.Bucket.of(26_214_400, 1000)),
                Scenario.Block.us(10_000, Scenario.Bucket.of(26_214_400, 1000))), Durations.us(0)).withSteps(2);
        Job job = Job.healthy("late-peer", 2, gaps).withSlowRank(1, 3000 * US);
        List<RankInput> inputs = JobFixture.read(job, dir);
        assertEquals(TailKind.LAST_BUCKET, inputs.get(0).report().steps().get(0).attribution().kind());
        assertEquals(4 * MS, inputs.get(0).report().steps().get(0).tailNs());

        CrossRankReport r = CrossRankAnalyzer.analyze(inputs, List.of());

        List<PeerBoundTail> rank0 = r.peerBoundTails(0);
        assertEquals(2, rank0.size(), rank0.toString());
        for (PeerBoundTail t : rank0) {
            assertEquals(4 * MS, t.durationNs());
            assertEquals(3 * MS, t.waitNs());
            assertEquals(1, t.lateRank());
            assertEquals("ALL_REDUCE", t.type());
        }
        assertEquals(List.of("ProfilerStep#1", "ProfilerStep#2"), rank0.stream().map(PeerBoundTail::step).toList());
        // The late rank itself waited for nobody: its 1 ms tail is its own last transfer.
        assertTrue(r.peerBoundTails(1).isEmpty());
    }

    /**
     * seed-1ms with a rank 250 µs late: the fast ranks' last bucket runs 1.25 ms, 0.25 ms of it
     * waiting: a minority of its time, so the tail stays the bucket's own.
     */
    @Test
    void aShortWaitInsideTheLastBucketIsNotCalledPeerBound() throws Exception {
        Job job = Job.healthy("job", 4, BuiltinScenarios.get("seed-1ms").withSteps(3)).withSlowRank(2, 250 * US);
        CrossRankReport r = JobFixture.analyze(job, dir);
        assertTrue(r.peerBoundTails().isEmpty(), r.peerBoundTails().toString());
    }
}
