package io.overlapanalyze.whatif;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.overlapanalyze.analysis.AnalysisOptions;
import io.overlapanalyze.synth.ModelScenario;

import java.util.List;
import java.util.Locale;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Acceptance 2: the same model generated at bucket caps 10 MiB and 50 MiB; predicting either run
 * from the other's trace (fit, extract, re-bucket, replay) lands within 5 % of the other run's
 * measured step time and within 10 % (or 0.2 ms) of its tail. The ground truth is the other
 * run's own analysis, an independent generated run.
 */
class PredictAcrossBucketCapsTest {
    private static final long MIB = ModelScenario.MIB;

    @ParameterizedTest(name = "alpha {0} ns, beta {1} B/ns, jitter {2}%, {3} -> {4} MiB")
    @CsvSource({
        "150000, 12.5, 0, 10, 50", "150000, 12.5, 0, 50, 10",
        "50000, 25, 0, 10, 50", "50000, 25, 0, 50, 10",
        "150000, 25, 3, 10, 50", "150000, 25, 3, 50, 10",
        "50000, 12.5, 3, 10, 50", "50000, 12.5, 3, 50, 10"})
    void predictsOneBucketCapFromTheOther(long alphaNs, double beta, double jitter, long fromMiB, long toMiB) {
        ModelScenario from = Generated.gpt(fromMiB * MIB, alphaNs, beta, 4, jitter);
        ModelScenario to = from.withBucketCap(toMiB * MIB, "to").withJitter(jitter, 11);
        WhatIfOptions options = new WhatIfOptions(List.of(toMiB * MIB), 1, 1, 2);
        WhatIfReport predicted = WhatIf.fromTrace(Generated.trace(from.toScenario()), AnalysisOptions.defaults(),
                options, "test");
        WhatIfReport truth = WhatIf.fromTrace(Generated.trace(to.toScenario()), AnalysisOptions.defaults(),
                new WhatIfOptions(List.of(), 1, 1, 2), "test");

        WhatIfReport.Option p = predicted.options().get(1);
        assertEquals("cap " + toMiB + " MiB", p.label());
        long stepTrue = truth.measured().stepTimeNs();
        long tailTrue = truth.measured().tailNs();
        double stepErr = Math.abs(p.stepTimeNs() - stepTrue) / (double) stepTrue;
        long tailDiff = Math.abs(p.tailNs() - tailTrue);
        System.out.printf(Locale.ROOT, "predict %d->%d MiB (alpha %d, beta %s, jitter %s%%): step %d vs %d (%.3f%%), "
                        + "tail %d vs %d (%.3f ms)%n", fromMiB, toMiB, alphaNs, beta, jitter, p.stepTimeNs(), stepTrue,
                stepErr * 100, p.tailNs(), tailTrue, tailDiff / 1e6);
        assertTrue(stepErr <= 0.05, "step time off by " + stepErr * 100 + "%");
        assertTrue(tailDiff <= Math.max(0.10 * tailTrue, 200_000), "tail off by " + tailDiff + " ns");
        // The bucket structure is recovered too: same number of buckets as the real run.
        assertEquals(truth.measured().buckets(), p.buckets());
    }
}
