package io.overlapanalyze.crossrank;

import io.overlapanalyze.formats.TraceFormats;
import io.overlapanalyze.model.RankTrace;
import io.overlapanalyze.report.HangReport;
import io.overlapanalyze.report.HangReport.HangDivergence;
import io.overlapanalyze.synth.FlightRecorderJob;
import io.overlapanalyze.synth.FlightRecorderJob.Fault;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every hang rule on generated Flight Recorder dumps ({@link FlightRecorderJob}, whose fault the test
 * sets): read through the front door as pickles and as PyTorch's JSON variant, the first divergence is
 * the generator's ground truth, and both variants give the same section.
 */
class GeneratedHangTest {
    @TempDir
    Path tmp;

    @ParameterizedTest
    @EnumSource(Fault.class)
    void theFirstDivergenceIsTheGeneratedFault(Fault fault) throws Exception {
        FlightRecorderJob job = new FlightRecorderJob(6, 8, fault, 4);
        HangReport pickles = analyze(job, false);
        HangReport json = analyze(job, true);
        assertEquals(pickles, json, "the JSON variant reads the same");
        FlightRecorderJob.Truth truth = job.truth();
        if (truth == null) {
            assertEquals(List.of(), pickles.divergences());
            assertTrue(pickles.verdict().startsWith("hang: no divergence"), pickles.verdict());
            return;
        }
        assertEquals(1, pickles.divergences().size(), pickles.divergences().toString());
        HangDivergence d = pickles.divergences().get(0);
        assertEquals(truth.group(), d.group());
        assertEquals(truth.p2p(), d.p2p());
        assertEquals(truth.sequence(), d.sequence());
        assertEquals(truth.kind(), d.kind());
        assertEquals(truth.culprits(), "MISSING".equals(truth.kind()) ? d.missing() : d.mismatched());
        assertEquals(truth.culprits(), pickles.ranks().stream().map(HangReport.HangRank::rank).toList());
    }

    private HangReport analyze(FlightRecorderJob job, boolean json) throws Exception {
        Path dir = tmp.resolve(json ? "json" : "pickle");
        job.write(dir, json);
        List<RankTrace> traces = new ArrayList<>();
        for (Path f : TraceFormats.standard().expand(dir)) {
            traces.addAll(TraceFormats.standard().read(f));
        }
        assertEquals(job.ranks(), traces.size());
        return HangAnalysis.analyze(traces);
    }
}
