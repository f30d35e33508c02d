package io.overlapanalyze.pipeline;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.overlapanalyze.formats.input.ThreadBudget;
import io.overlapanalyze.formats.json.ParallelArrayScan;
import io.overlapanalyze.report.AnalysisReport;
import io.overlapanalyze.synth.BuiltinScenarios;
import io.overlapanalyze.synth.NsysScenarioWriter;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A read within a budget of one thread (a Spark task of one core) uses one thread and gives the
 * same report as a read with the machine's threads.
 */
class ThreadBudgetReadTest {
    private static final ObjectMapper JSON = new ObjectMapper().disable(SerializationFeature.FAIL_ON_EMPTY_BEANS);

    @TempDir
    Path tmp;

    @Test
    void theBudgetCapsTheScanThreadsAndIsRestored() throws Exception {
        System.setProperty("overlap.budgettest.threads", "3");
        try {
            assertEquals(3, ParallelArrayScan.threads("overlap.budgettest.threads"));
            assertEquals(1, (int) ThreadBudget.within(1, () -> ParallelArrayScan.threads("overlap.budgettest.threads")));
            assertEquals(2, (int) ThreadBudget.within(2, () -> ThreadBudget.within(5,
                    () -> ParallelArrayScan.threads("overlap.budgettest.threads")) - 1));
            assertEquals(Integer.MAX_VALUE, ThreadBudget.limit(), "no budget outside within()");
        } finally {
            System.clearProperty("overlap.budgettest.threads");
        }
    }

    @Test
    void anNsightExportReadOnOneThreadGivesTheSameReport() throws Exception {
        Path export = tmp.resolve("rank-0.sqlite");
        NsysScenarioWriter.write(BuiltinScenarios.get("seed-4ms"), export);
        assertSameReport(export);
    }

    @Test
    void aRealNsightExportReadOnOneThreadGivesTheSameReport() throws Exception {
        String shared = System.getProperty("overlap.sharedTraces");
        Path trace = shared == null ? null : Path.of(shared, "nsys", "nsys2026.2.1_torchrun2gpu_nccl_before.sqlite");
        Assumptions.assumeTrue(trace != null && Files.isRegularFile(trace),
                "skipped: ../shared/traces (real traces) is not here");
        assertSameReport(trace);
    }

    private static void assertSameReport(Path trace) throws Exception {
        String machine = report(trace);
        String oneThread = ThreadBudget.within(1, () -> report(trace));
        assertEquals(machine, oneThread);
    }

    private static String report(Path trace) throws Exception {
        AnalysisReport r = AnalysisPipeline.run(PipelineInput.of(List.of(trace))).report();
        return JSON.writeValueAsString(r.ranks());
    }
}
