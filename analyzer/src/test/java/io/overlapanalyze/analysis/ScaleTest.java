package io.overlapanalyze.analysis;

import static io.overlapanalyze.analysis.TraceBuilder.AUTOGRAD;
import static io.overlapanalyze.analysis.TraceBuilder.MAIN;
import static io.overlapanalyze.analysis.TraceBuilder.ORIGIN;
import static io.overlapanalyze.analysis.TraceBuilder.US;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.overlapanalyze.analysis.rank.RankAnalyzer;
import io.overlapanalyze.model.CollectiveType;
import io.overlapanalyze.model.HostSpanKind;
import io.overlapanalyze.report.RankReport;

import java.time.Duration;

import org.junit.jupiter.api.Test;

/** Guards the O(n log n) promise: a rank with many kernels and buckets per step stays fast. */
class ScaleTest {
    @Test
    void manyKernelsAndCollectivesAnalyseQuickly() {
        int steps = 20;
        int blocksPerStep = 500;
        int kernelsPerBlock = 40;
        TraceBuilder b = new TraceBuilder();
        int compute = b.lane("compute");
        int comm = b.lane("comm");
        b.thread(MAIN, false).thread(AUTOGRAD, true);
        long t = ORIGIN;
        for (int s = 0; s < steps; s++) {
            long stepStart = t;
            long hostLaunch = t - 1_000 * US;
            long commFree = Long.MIN_VALUE;
            for (int k = 0; k < blocksPerStep; k++) {
                for (int j = 0; j < kernelsPerBlock; j++) {
                    b.compute(t, t + 10 * US, compute, hostLaunch++, AUTOGRAD);
                    t += 10 * US;
                }
                long start = Math.max(t, commFree);
                b.collective(CollectiveType.ALL_REDUCE, 1 << 20, hostLaunch++, AUTOGRAD, start, start + 300 * US, comm,
                        hostLaunch++);
                commFree = start + 300 * US;
            }
            t = Math.max(t, commFree) + 100 * US;
            b.span(HostSpanKind.STEP, "ProfilerStep#" + s, stepStart - 1_100 * US, t - 1_100 * US, MAIN);
        }
        var trace = b.build();
        RankReport r = assertTimeoutPreemptively(Duration.ofSeconds(20),
                () -> RankAnalyzer.analyze(trace, AnalysisOptions.defaults()));
        assertEquals(steps, r.steps().size());
        assertEquals(blocksPerStep, r.steps().get(3).gradCollectives());
    }
}
