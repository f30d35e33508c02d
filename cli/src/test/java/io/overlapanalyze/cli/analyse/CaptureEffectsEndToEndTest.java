package io.overlapanalyze.cli.analyse;

import io.overlapanalyze.cli.CliRun;
import io.overlapanalyze.cli.ExitCodes;

import io.overlapanalyze.formats.TraceFormats;
import io.overlapanalyze.analysis.AnalysisOptions;
import io.overlapanalyze.analysis.rank.RankAnalyzer;
import io.overlapanalyze.model.DeviceIntervals;
import io.overlapanalyze.model.DeviceKind;
import io.overlapanalyze.model.RankTrace;
import io.overlapanalyze.report.RankReport;
import io.overlapanalyze.report.StepReport;
import io.overlapanalyze.report.TailKind;
import io.overlapanalyze.synth.BuiltinScenarios;
import io.overlapanalyze.synth.CaptureEffects;
import io.overlapanalyze.synth.KinetoScenarioWriter;
import io.overlapanalyze.synth.Scenario;
import io.overlapanalyze.synth.SyntheticTimeline;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Generated captures that behave like real ones (metrics.md §1–2, §5), through the whole product:
 * the generator writes a Kineto trace with {@link CaptureEffects}, the reader reads it, the
 * analyzer computes. Expected values are worked out here from the scenario definition (the seed's
 * three 2 ms backward blocks, one bucket after each; metrics.md §7) and the effect's own numbers.
 */
class CaptureEffectsEndToEndTest {
    private static final long MS = 1_000_000L;
    private static final long LAG = 10 * MS;

    @TempDir
    Path tmp;

    private RankTrace write(Scenario s, CaptureEffects effects, String file) throws Exception {
        Path trace = tmp.resolve(file);
        KinetoScenarioWriter.write(s, effects, trace);
        return TraceFormats.standard().read(trace).get(0);
    }

    /**
     * The seed table holds exactly when the device lags the host by 10 ms and every all-reduce's
     * "Stream Wait Event" carries its host call's time: 10 ms before the step's device work. Were
     * those rows part of the window, every marker (relative to the window start) would move.
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource({
            "seed-1ms,           0, 1",
            "seed-4ms,           0, 4",
            "seed-1ms-optimizer, 1, 1",
            "seed-4ms-optimizer, 1, 4"})
    void seedTableHoldsWithSyncRowsAtHostTimeAndALaggingDevice(String scenario, int withOptimizer, int commMs)
            throws Exception {
        Scenario s = BuiltinScenarios.get(scenario).withSyncEvents(true);
        RankTrace trace = write(s, new CaptureEffects(LAG, true, false, 0), scenario + ".pt.trace.json");
        RankReport rank = RankAnalyzer.analyze(trace, AnalysisOptions.defaults());
        assertEquals(1, rank.steps().size());
        StepReport step = rank.steps().get(0);
        SeedTable.assertHolds(step, scenario, withOptimizer, commMs);
        // The effect is in the file: three sync rows (one per bucket) lie before the window, by
        // about the lag (their host call is inside the c10d op, a few µs after the block's end).
        DeviceIntervals d = trace.device();
        int early = 0;
        for (int i = 0; i < d.size(); i++) {
            if (d.kind(i) == DeviceKind.SYNC && d.start(i) < step.deviceStartNs()) {
                early++;
            }
        }
        assertEquals(3, early, "each bucket's Stream Wait Event is drawn at host time, before the device work");
        assertEquals(step.stepTimeNs(), step.stepPeriodNs(), "one step: period = window");
        assertTrue(step.notes().contains(RankAnalyzer.NOTE_EXPLICIT_DEPENDENCIES),
                "the waits still give explicit dependencies: " + step.notes());
    }

    /**
     * The capture begins at the second step's host start, with the device 10 ms behind: the first
     * step's work is all still running then, so its 3 compute kernels and 3 all-reduces are in the
     * file without launches. By hand: 6 intervals; busy = [0,6] ∪ [2,3] ∪ [4,5] ∪ [6,7] = 7 ms;
     * communication 3 × 1 ms. Steps 2 and 3 are each exactly the seed step.
     */
    @Test
    void captureStartingMidStepLeavesTheEarlierWorkInNoStep() throws Exception {
        Scenario s = BuiltinScenarios.get("seed-1ms").withSteps(3);
        CaptureEffects effects = new CaptureEffects(LAG, false, true, 0);
        SyntheticTimeline plan = KinetoScenarioWriter.plan(s);
        long cut = effects.captureStartNs(plan);
        // Precondition of the hand count: the first step's first kernel ([0,2] ms) ends after the cut.
        assertTrue(plan.steps().get(0).deviceStart() + 2 * MS + LAG > cut, "all of step 1 is still running");
        RankTrace trace = write(s, effects, "mid-step.pt.trace.json");
        RankReport rank = RankAnalyzer.analyze(trace, AnalysisOptions.defaults());
        assertEquals(List.of("ProfilerStep#2", "ProfilerStep#3"), rank.steps().stream().map(StepReport::name).toList());
        for (StepReport step : rank.steps()) {
            SeedTable.assertHolds(step, "seed-1ms", 0, 1);
        }
        assertEquals(6, rank.preCapture().intervals());
        assertEquals(7 * MS, rank.preCapture().busyNs());
        assertEquals(3 * MS, rank.preCapture().commBusyNs());
        // Step 2's period: its window (7 ms) and the 1 ms step gap; the gap is idle.
        StepReport second = rank.steps().get(0);
        assertEquals(8 * MS, second.stepPeriodNs());
        assertEquals(1 * MS, second.idleNs());
    }

    /**
     * Pipelined steps: each step but the last ends with a 3 ms next-batch copy from its device end.
     * By hand, with the scenario's 1 ms step gap (next step 8 ms after this one's start): steps 1
     * and 2 have a 10 ms window, an 8 ms period, 2 ms of window overlap and no idle (own work
     * [0,7], copy [7,8) of the period); step 3 is the seed step (7 ms, period 7, no overlap). The
     * markers, tail and exposure are the seed's in every step.
     */
    @Test
    void pipelinedStepsOverlapTheirWindowsButNotTheirPeriods() throws Exception {
        Scenario s = BuiltinScenarios.get("seed-1ms").withSteps(3);
        SyntheticTimeline plan = KinetoScenarioWriter.plan(s);
        for (int k = 0; k + 1 < plan.steps().size(); k++) {
            assertEquals(8 * MS, plan.steps().get(k + 1).deviceStart() - plan.steps().get(k).deviceStart(),
                    "precondition: 7 ms step, 1 ms gap");
        }
        RankTrace trace = write(s, new CaptureEffects(0, false, false, 3 * MS), "pipelined.pt.trace.json");
        RankReport rank = RankAnalyzer.analyze(trace, AnalysisOptions.defaults());
        assertEquals(3, rank.steps().size());
        for (int k = 0; k < 3; k++) {
            StepReport step = rank.steps().get(k);
            boolean last = k == 2;
            assertEquals(last ? 7 * MS : 10 * MS, step.stepTimeNs(), step.name());
            assertEquals(last ? 7 * MS : 8 * MS, step.stepPeriodNs(), step.name());
            assertEquals(last ? 0 : 2 * MS, step.windowOverlapNs(), step.name());
            assertEquals(0L, step.idleNs(), step.name());
            assertEquals(MS, step.tailNs(), step.name());
            assertEquals(MS, step.exposedCommNs(), step.name());
            assertEquals(TailKind.LAST_BUCKET, step.attribution().kind(), step.name());
            assertEquals(3, step.gradCollectives(), step.name());
        }
        // Whole run: periods 8 + 8 + 7 = 23 ms = the device span; step times add to 27 ms.
        assertEquals(23 * MS, rank.totals().stepPeriodNs());
        assertEquals(27 * MS, rank.totals().stepTimeNs());
        assertTrue(rank.notes().stream().anyMatch(n -> n.startsWith("step windows overlap: 2 step(s), by up to 2.000 ms")),
                rank.notes().toString());
    }

    /** The same effects from the command line; the text report says the windows overlap. */
    @Test
    void synthCommandWritesTheEffects() throws Exception {
        Path lagged = tmp.resolve("lagged.json");
        CliRun w = CliRun.of("synth", "seed-1ms", "--host-time-sync", "--device-lag-us", "10000", "-o", lagged.toString());
        assertEquals(ExitCodes.OK, w.exitCode(), w.err());
        StepReport step = RankAnalyzer.analyze(TraceFormats.standard().read(lagged).get(0), AnalysisOptions.defaults()).steps().get(0);
        SeedTable.assertHolds(step, "seed-1ms", 0, 1);

        Path piped = tmp.resolve("piped.json");
        CliRun p = CliRun.of("synth", "training-jitter", "--pipeline-us", "5000", "-o", piped.toString());
        assertEquals(ExitCodes.OK, p.exitCode(), p.err());
        CliRun text = CliRun.of("--no-timeline", piped.toString());
        assertEquals(ExitCodes.OK, text.exitCode(), text.err());
        assertTrue(text.out().contains("note: step windows overlap"), text.out());
        assertTrue(text.out().contains("in step periods"), text.out());

        CliRun bad = CliRun.of("synth", "seed-1ms", "--capture-starts-mid-step", "-o", tmp.resolve("x.json").toString());
        assertEquals(ExitCodes.BAD_INPUT, bad.exitCode(), "one step cannot start mid-step: " + bad.err());
        assertEquals(1, bad.errLines().size(), bad.err());
    }
}
