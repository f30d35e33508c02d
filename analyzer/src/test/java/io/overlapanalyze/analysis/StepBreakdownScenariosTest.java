package io.overlapanalyze.analysis;

import io.overlapanalyze.pipeline.AnalysisPipeline;
import io.overlapanalyze.pipeline.PipelineInput;
import io.overlapanalyze.report.HostActivity;
import io.overlapanalyze.report.IdleBreakdown;
import io.overlapanalyze.report.RankReport;
import io.overlapanalyze.report.StepBreakdown;
import io.overlapanalyze.report.StepReport;
import io.overlapanalyze.synth.KinetoScenarioWriter;
import io.overlapanalyze.synth.NsysScenarioWriter;
import io.overlapanalyze.synth.Scenario;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Where the step went (metrics.md §11) on generated traces whose answer is derived by hand from
 * the scenario's parameters and the generator's documented host model (TimelinePlanner: the
 * step's host start h; data loader [h+2, h+2+DL) µs; zero_grad 8 µs after it for 20 µs; the
 * forward annotation 10 µs after that; each op launches its first kernel 5 µs in (2 µs gap + 3 µs
 * nesting), 7 µs apart, an op lasting 13 µs; the device origin t0 is 100 µs after the first
 * launch; the next step's host starts 20 µs after this one's host end). Written as Kineto and as
 * an Nsight export: both must give the same nanoseconds.
 */
class StepBreakdownScenariosTest {
    private static final long US = 1_000;

    @TempDir
    Path tmp;

    private RankReport analyse(Scenario scenario, String format) throws Exception {
        Path file;
        if (format.equals("kineto")) {
            file = tmp.resolve("rank-0.json");
            KinetoScenarioWriter.write(scenario, file);
        } else {
            file = tmp.resolve("rank-0.sqlite");
            NsysScenarioWriter.write(scenario, file);
        }
        List<RankReport> ranks = AnalysisPipeline.run(PipelineInput.of(List.of(file))).report().ranks();
        assertEquals(1, ranks.size());
        return ranks.get(0);
    }

    /**
     * Two steps, stepGapUs 0, a 10 ms data loader. Per step: forward 1 ms, backward 2 ms, then its
     * 1 ms all-reduce alone; no optimizer kernel. By hand (µs, h = step 1's host start, DL = 10,000):
     * step 1: first launch h+DL+45, t0₁ = h+DL+145, device end t0₁+4000 = h+DL+4145; host end
     * h+DL+134 (the all-reduce enqueued at h+DL+79 for 30 µs, +2, optimizer annotation 5 µs later
     * for 15 µs, +3). Step 2's host starts 20 µs later, h₂ = h+DL+154: the data loader runs
     * [h+DL+156, h+2DL+156), zero_grad [h+2DL+164, h+2DL+184), forward from h+2DL+194, first
     * launch h+2DL+199, t0₂ = h+2DL+299. Step 1's period [t0₁, t0₂) = DL+154 = 10,154 µs: compute
     * 3,000, comm alone 1,000, idle 6,154, of which host-bound up to the launch 6,054 (data loader
     * 6,011, zero_grad 20, forward 5, between ranges 8+10) and launched 100 (the host's lead).
     */
    @ParameterizedTest
    @ValueSource(strings = {"kineto", "nsys"})
    void aSlowDataLoaderIsHostBoundIdle(String format) throws Exception {
        Scenario s = Scenario.parse("""
                {"name": "slow-data-loader", "steps": 2, "stepGapUs": 0, "dataLoaderUs": 10000,
                 "forward": [{"us": 1000}],
                 "backward": [{"us": 2000, "bucket": {"bytes": 4194304, "commUs": 1000}}]}""");
        RankReport rank = analyse(s, format);
        StepReport first = rank.steps().get(0);
        assertEquals(10_154 * US, first.stepPeriodNs());
        assertEquals(new StepBreakdown(3_000 * US, 0, 1_000 * US, 0, 6_154 * US), first.breakdown());
        assertEquals(first.idleNs(), first.breakdown().idleNs());
        IdleBreakdown idle = first.idle();
        assertEquals(6_054 * US, idle.hostNs());
        assertEquals(100 * US, idle.launchedNs());
        assertEquals(0, idle.unknownNs());
        assertEquals(List.of(
                new HostActivity("enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__", 6_011 * US),
                new HostActivity("Optimizer.zero_grad#SGD.zero_grad", 20 * US),
                new HostActivity(HostActivity.BETWEEN_RANGES, 18 * US),
                new HostActivity("## forward ##", 5 * US)), idle.hostActivity());

        // The last step's period is its window: no idle at all.
        StepReport second = rank.steps().get(1);
        assertEquals(new StepBreakdown(3_000 * US, 0, 1_000 * US, 0, 0), second.breakdown());
        assertEquals(new IdleBreakdown(0, 0, 0, List.of()), second.idle());

        // Totals add the steps; medians take each part on its own.
        assertEquals(new StepBreakdown(6_000 * US, 0, 2_000 * US, 0, 6_154 * US), rank.totals().breakdown());
        assertEquals(6_054 * US, rank.totals().idle().hostNs());
        assertEquals(100 * US, rank.totals().idle().launchedNs());
        assertEquals((10_154 + 4_000) * US / 2, rank.totals().medians().stepPeriodNs());
        assertEquals(6_154 * US / 2, rank.totals().medians().breakdown().idleNs());
        assertEquals(3_000 * US, rank.totals().medians().breakdown().computeNs());
    }

    /**
     * One step; the second forward block's kernel waits 500 µs on the stream after the first
     * (deviceWaitUs), though it was launched at h+90 µs, long before the device origin t0 = h+175.
     * Period = window: forward 1,000 + wait 500 + forward 1,000 + backward 2,000 + all-reduce 1,000
     * = 5,500 µs: compute 4,000, comm alone 1,000, idle 500, all of it launched (the work had been
     * issued): no host-bound idle, no host activity.
     */
    @ParameterizedTest
    @ValueSource(strings = {"kineto", "nsys"})
    void aStreamDependencyIsLaunchedIdle(String format) throws Exception {
        Scenario s = Scenario.parse("""
                {"name": "dependency-idle",
                 "forward": [{"us": 1000}, {"us": 1000, "deviceWaitUs": 500}],
                 "backward": [{"us": 2000, "bucket": {"bytes": 4194304, "commUs": 1000}}]}""");
        StepReport step = analyse(s, format).steps().get(0);
        assertEquals(5_500 * US, step.stepPeriodNs());
        assertEquals(new StepBreakdown(4_000 * US, 0, 1_000 * US, 0, 500 * US), step.breakdown());
        assertEquals(new IdleBreakdown(0, 500 * US, 0, List.of()), step.idle());
    }
}
