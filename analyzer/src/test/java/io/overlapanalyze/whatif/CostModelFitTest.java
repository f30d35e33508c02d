package io.overlapanalyze.whatif;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.overlapanalyze.analysis.AnalysisOptions;
import io.overlapanalyze.model.CollectiveType;
import io.overlapanalyze.synth.BuiltinScenarios;
import io.overlapanalyze.synth.ModelScenario;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Acceptance 3: the α–β fit recovers the generator's parameters within 2 % from an exact trace,
 * and calls the fit poor when the collectives are noisy or mix two interconnects.
 */
class CostModelFitTest {

    @ParameterizedTest(name = "alpha {0} ns, beta {1} B/ns, cap {2} MiB")
    @CsvSource({"150000, 12.5, 10", "50000, 25, 10", "20000, 100, 5", "80000, 6.25, 25"})
    void recoversTheGeneratorsInterconnectFromAnExactTrace(long alphaNs, double beta, long capMiB) {
        ModelScenario m = Generated.gpt(capMiB * ModelScenario.MIB, alphaNs, beta, 2, 0);
        TraceWorkloads.Extracted x = TraceWorkloads.extract(Generated.trace(m.toScenario()), AnalysisOptions.defaults());
        List<CostModel> models = CostModelFitter.fitAll(x.samples());
        assertEquals(1, models.size());
        CostModel fit = models.get(0);
        assertEquals(CollectiveType.ALL_REDUCE, fit.type());
        assertEquals(8, fit.groupSize());
        assertEquals(alphaNs, fit.alphaNs(), 0.02 * alphaNs);
        assertEquals(beta, fit.betaBytesPerNs(), 0.02 * beta);
        assertEquals(CostModel.Quality.GOOD, fit.quality());
        assertTrue(fit.r2() > 0.9999, "R2 " + fit.r2());
        assertTrue(fit.rmsRelativeResidual() < 1e-4);
    }

    @Test
    void noisyCollectivesAreAPoorFit() {
        // 25 % jitter on every duration: the generator's noise, not a line any more.
        ModelScenario m = Generated.gpt(10 * ModelScenario.MIB, 50_000, 25, 6, 25);
        TraceWorkloads.Extracted x = TraceWorkloads.extract(Generated.trace(m.toScenario()), AnalysisOptions.defaults());
        CostModel fit = CostModelFitter.fitAll(x.samples()).get(0);
        assertEquals(CostModel.Quality.POOR, fit.quality(), fit.toString());
        assertTrue(fit.note().startsWith("poor fit"), fit.note());
    }

    @Test
    void twoInterconnectsMixedAreAPoorFit() {
        // The same sizes over a fast (alpha 20 us, 50 B/ns) and a slow link (alpha 200 us, 5 B/ns),
        // as when two groups are not told apart.
        List<CommSample> samples = new ArrayList<>();
        for (long mb = 1; mb <= 64; mb *= 2) {
            long bytes = mb * ModelScenario.MIB;
            samples.add(new CommSample(CollectiveType.ALL_REDUCE, 8, bytes, Math.round(20_000 + bytes / 50.0)));
            samples.add(new CommSample(CollectiveType.ALL_REDUCE, 8, bytes, Math.round(200_000 + bytes / 5.0)));
        }
        CostModel fit = CostModelFitter.fit(samples);
        assertEquals(CostModel.Quality.POOR, fit.quality(), fit.toString());
    }

    @Test
    void groupsOfDifferentSizesAreFittedApart() {
        List<CommSample> samples = new ArrayList<>();
        for (long mb = 1; mb <= 64; mb *= 2) {
            long bytes = mb * ModelScenario.MIB;
            samples.add(new CommSample(CollectiveType.ALL_REDUCE, 8, bytes, Math.round(20_000 + bytes / 50.0)));
            samples.add(new CommSample(CollectiveType.ALL_REDUCE, 64, bytes, Math.round(200_000 + bytes / 5.0)));
        }
        List<CostModel> models = CostModelFitter.fitAll(samples);
        assertEquals(2, models.size());
        for (CostModel m : models) {
            assertEquals(CostModel.Quality.GOOD, m.quality());
            assertEquals(m.groupSize() == 8 ? 20_000 : 200_000, m.alphaNs(), 1);
        }
    }

    @Test
    void oneMessageSizeCannotSeparateLatencyFromBandwidth() {
        TraceWorkloads.Extracted x = TraceWorkloads.extract(Generated.trace(BuiltinScenarios.get("seed-4ms")),
                AnalysisOptions.defaults());
        CostModel fit = CostModelFitter.fitAll(x.samples()).get(0);
        assertEquals(CostModel.Quality.DEGENERATE, fit.quality());
        assertEquals(0.0, fit.alphaNs());
        assertNull(fit.r2());
        assertEquals(4_000_000L, fit.timeNs(26_214_400L));
    }

    @Test
    void extrapolationIsFlaggedBeyondTheFactor() {
        CostModel m = new CostModel(CollectiveType.ALL_REDUCE, 8, 1000, 10, 1.0, 0, 0, 0, 10, 1000, 10_000,
                CostModel.Quality.GOOD, "");
        assertTrue(m.extrapolates(499, 2));
        assertTrue(m.extrapolates(20_001, 2));
        assertEquals(false, m.extrapolates(500, 2));
        assertEquals(false, m.extrapolates(20_000, 2));
        assertEquals(3000, m.timeNs(20_000));
        assertEquals(2000, m.scaled(2, 1).timeNs(20_000));
        assertEquals(2500, m.scaled(1, 0.5).timeNs(20_000));
    }
}
