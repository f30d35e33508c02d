package io.overlapanalyze.crossrank.digest;

import io.overlapanalyze.pipeline.PipelineResult;
import io.overlapanalyze.report.AnalysisReport;
import io.overlapanalyze.report.CrossRankReport;
import io.overlapanalyze.report.RankReport;
import io.overlapanalyze.synth.BuiltinScenarios;
import io.overlapanalyze.synth.Job;
import io.overlapanalyze.synth.JobWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;

/**
 * Full rank reports and cross-rank reports travel by Java serialization (what a Spark task returns
 * to the driver) and come back equal, on the samples (DDP, FSDP prefetch, pipeline, jobs) and on a
 * generated job with a mismatch and a slow rank.
 */
class ReportSerializationTest {
    @TempDir
    Path dir;

    private static void assertRoundTrips(AnalysisReport report) {
        for (RankReport r : report.ranks()) {
            RankReport back = DigestCheck.roundTrip(r);
            assertNotSame(r, back);
            assertEquals(r, back, r.source());
            assertEquals(DigestCheck.json(r), DigestCheck.json(back), r.source());
        }
        if (report.crossRank() != null) {
            CrossRankReport back = DigestCheck.roundTrip(report.crossRank());
            assertEquals(report.crossRank(), back);
            assertEquals(DigestCheck.json(report.crossRank()), DigestCheck.json(back));
        }
        assertEquals(report, DigestCheck.roundTrip(report));
    }

    @Test
    void theSamplesReportsRoundTrip() {
        Path s = RankDigestTest.samples();
        for (String name : List.of("job-healthy-4rank", "job-order-mismatch", "fsdp-late-prefetch.pt.trace.json.gz",
                "pipeline-4stage.pt.trace.json.gz", "gpt2-ddp-100mb.pt.trace.json.gz", "seed-4ms.pt.trace.json")) {
            PipelineResult r = DigestCheck.pipeline(List.of(s.resolve(name)));
            assertFalse(r.report().ranks().isEmpty(), name);
            if (name.startsWith("job-")) {
                assertNotNull(r.report().crossRank(), name);
            }
            assertRoundTrips(r.report());
        }
    }

    @Test
    void aGeneratedJobsReportsRoundTrip() throws Exception {
        Job job = Job.healthy("job", 8, BuiltinScenarios.get("seed-1ms").withSteps(6)).withSlowRank(2, 200_000)
                .withPerturbation(new Job.Perturbation(Job.Perturbation.Kind.DTYPE, 1, 2, 3, "Half"));
        JobWriter.write(job, dir, false);
        PipelineResult r = DigestCheck.pipeline(List.of(dir));
        assertEquals(8, r.report().ranks().size());
        assertFalse(r.report().crossRank().mismatches().isEmpty());
        assertRoundTrips(r.report());
    }
}
