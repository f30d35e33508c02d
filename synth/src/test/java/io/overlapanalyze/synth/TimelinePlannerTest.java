package io.overlapanalyze.synth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.overlapanalyze.synth.SyntheticTimeline.Interval;
import io.overlapanalyze.synth.SyntheticTimeline.PlannedPhase;
import io.overlapanalyze.synth.SyntheticTimeline.PlannedKernel;
import io.overlapanalyze.synth.SyntheticTimeline.PlannedReduction;
import io.overlapanalyze.synth.SyntheticTimeline.PlannedStep;
import java.util.List;
import org.junit.jupiter.api.Test;

class TimelinePlannerTest {
    private static final long MS = 1_000_000L;

    private static List<Interval> ms(long... bounds) {
        List<Interval> out = new java.util.ArrayList<>();
        for (int i = 0; i < bounds.length; i += 2) {
            out.add(new Interval(bounds[i] * MS, bounds[i + 1] * MS));
        }
        return out;
    }

    private static PlannedStep onlyStep(String builtin) {
        SyntheticTimeline t = KinetoScenarioWriter.plan(BuiltinScenarios.get(builtin));
        assertEquals(1, t.steps().size());
        return t.steps().get(0);
    }

    @Test
    void seed1msHasTheWorkedExampleIntervals() {
        PlannedStep s = onlyStep("seed-1ms");
        assertEquals(ms(0, 2, 2, 4, 4, 6), s.computeRelative());
        assertEquals(ms(2, 3, 4, 5, 6, 7), s.commRelative());
        assertEquals(7 * MS, s.stepTime());
        assertEquals(1, s.number());
    }

    @Test
    void seed4msHasTheWorkedExampleIntervals() {
        PlannedStep s = onlyStep("seed-4ms");
        assertEquals(ms(0, 2, 2, 4, 4, 6), s.computeRelative());
        assertEquals(ms(2, 6, 6, 10, 10, 14), s.commRelative());
        assertEquals(14 * MS, s.stepTime());
    }

    @Test
    void optimizerVariantsAddOneKernelAfterTheLastReduction() {
        for (String name : List.of("seed-1ms-optimizer", "seed-4ms-optimizer")) {
            PlannedStep s = onlyStep(name);
            long lastReduce = name.startsWith("seed-1ms") ? 7 * MS : 14 * MS;
            List<Interval> compute = s.computeRelative();
            assertEquals(4, compute.size(), name);
            assertEquals(ms(0, 2, 2, 4, 4, 6), compute.subList(0, 3), name);
            assertEquals(new Interval(lastReduce, lastReduce + 500_000), compute.get(3), name);
            assertEquals(PlannedPhase.OPTIMIZER, s.compute().get(3).phase());
            assertEquals(lastReduce + 500_000, s.stepTime(), name);
            assertEquals(onlyStep(name.replace("-optimizer", "")).commRelative(), s.commRelative(), name);
        }
    }

    @Test
    void hostRunsAheadAndEveryLaunchIsInsideItsStep() {
        for (String name : BuiltinScenarios.names()) {
            for (PlannedStep s : KinetoScenarioWriter.plan(BuiltinScenarios.get(name)).steps()) {
                for (PlannedKernel k : s.compute()) {
                    assertTrue(k.launch() + TimelinePlanner.LAUNCH_LATENCY <= k.start(), name + " " + k);
                    assertTrue(k.launch() > s.hostStart() && k.launch() < s.hostEnd(), name + " " + k);
                }
                boolean behindLate = false; // DDP issues buckets in order: one late bucket holds back the next
                for (PlannedReduction r : s.reductions()) {
                    assertTrue(r.start() >= r.dataReady() + r.launchDelayNs(), name + " " + r);
                    if (!r.late()) {
                        assertTrue(r.launch() < r.start(), name + " " + r);
                        if (!behindLate) {
                            assertTrue(r.enqueue() < r.dataReady(), name + ": on time means host ahead " + r);
                        }
                    }
                    behindLate |= r.late();
                    assertTrue(r.hostEnd() < s.hostEnd(), name + " " + r);
                }
                assertEquals(s.compute().get(0).start(), s.deviceStart(), name);
                assertTrue(s.hostStart() < s.deviceStart(), name);
            }
        }
    }

    @Test
    void lateLastBucketIsEnqueuedExactlyAtReadyPlusDelay() {
        PlannedStep s = onlyStep("late-last-bucket");
        PlannedReduction g3 = s.reductions().get(2);
        assertEquals(300_000, g3.launchDelayNs());
        assertEquals(g3.dataReady() + 300_000, g3.enqueue());
        assertEquals(g3.enqueue(), g3.start());
        assertEquals(ms(0, 2, 2, 4, 4, 6), s.computeRelative());
        assertEquals(List.of(new Interval(2 * MS, 3 * MS), new Interval(4 * MS, 5 * MS),
                new Interval(6_300_000, 7_300_000)), s.commRelative());
    }

    @Test
    void lateMiddleBucketKeepsComputeBackToBackAndBucketsInOrder() {
        Scenario sc = Scenario.of("late-middle", "", List.of(), List.of(
                Scenario.Block.us(2000, Scenario.Bucket.of(1024, 1000)),
                Scenario.Block.us(2000, new Scenario.Bucket(1024, 1_000_000, 2_500_000)),
                Scenario.Block.us(2000, Scenario.Bucket.of(1024, 1000)),
                Scenario.Block.us(2000, null)), 0);
        PlannedStep s = KinetoScenarioWriter.plan(sc).steps().get(0);
        assertEquals(ms(0, 2, 2, 4, 4, 6, 6, 8), s.computeRelative());
        // g2 ready at 4 ms, enqueued at 6.5 ms; g3 (ready at 6) queues behind it.
        assertEquals(List.of(new Interval(2 * MS, 3 * MS), new Interval(6_500_000, 7_500_000),
                new Interval(7_500_000, 8_500_000)), s.commRelative());
        PlannedReduction g2 = s.reductions().get(1);
        assertEquals(g2.dataReady() + 2_500_000, g2.enqueue());
        assertTrue(s.reductions().get(2).enqueue() > g2.enqueue());
    }

    @Test
    void stepsFollowEachOtherAfterTheGap() {
        Scenario sc = BuiltinScenarios.get("seed-4ms").withSteps(3);
        List<PlannedStep> steps = KinetoScenarioWriter.plan(sc).steps();
        assertEquals(3, steps.size());
        for (int i = 0; i < 3; i++) {
            PlannedStep s = steps.get(i);
            assertEquals(i + 1, s.number());
            assertEquals(ms(2, 6, 6, 10, 10, 14), s.commRelative());
            if (i > 0) {
                assertEquals(steps.get(i - 1).deviceEnd() + MS, s.deviceStart());
                assertTrue(steps.get(i - 1).hostEnd() < s.hostStart());
            }
        }
    }

    @Test
    void jitterIsDeterministicBoundedAndExact() {
        Scenario sc = BuiltinScenarios.get("training-jitter");
        SyntheticTimeline a = KinetoScenarioWriter.plan(sc);
        assertEquals(a, KinetoScenarioWriter.plan(sc));
        assertEquals(5, a.steps().size());
        assertEquals(10, a.steps().get(0).number());
        boolean differs = false;
        for (PlannedStep s : a.steps()) {
            // Backward block 0 has 4 kernels summing to a jittered 1200 us within ±5 %.
            long b0 = s.compute().stream().filter(k -> k.phase() == PlannedPhase.BACKWARD && k.block() == 0)
                    .mapToLong(k -> k.end() - k.start()).sum();
            assertTrue(b0 >= 1_140_000 && b0 <= 1_260_000, "block 0 " + b0);
            differs |= b0 != 1_200_000;
            for (int i = 1; i < s.compute().size(); i++) {
                PlannedKernel prev = s.compute().get(i - 1);
                PlannedKernel k = s.compute().get(i);
                if (k.phase() != PlannedPhase.OPTIMIZER) {
                    assertEquals(prev.end(), k.start(), "back-to-back compute");
                }
            }
            PlannedKernel opt = s.compute().get(s.compute().size() - 1);
            long lastReduce = s.reductions().get(s.reductions().size() - 1).end();
            assertEquals(Math.max(lastReduce, s.compute().get(s.compute().size() - 2).end()), opt.start());
        }
        assertTrue(differs, "jitter changed something");
        SyntheticTimeline other = KinetoScenarioWriter.plan(sc.withJitter(5, 43));
        assertTrue(!other.equals(a), "another seed gives another timeline");
    }
}
