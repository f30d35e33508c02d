package io.overlapanalyze.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.overlapanalyze.render.JsonRenderer;
import io.overlapanalyze.report.AnalysisReport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The CLI's outputs as users and scripts see them. */
class CliOutputTest {
    @TempDir
    Path tmp;

    private Path sample(String builtin) {
        Path out = tmp.resolve(builtin + ".pt.trace.json");
        CliRun run = CliRun.of("synth", builtin, "-o", out.toString());
        assertEquals(0, run.exitCode(), run.err());
        return out;
    }

    /** The JSON field names the issue lists are a contract read by scripts. */
    @Test
    void jsonHasTheContractFields() throws IOException {
        CliRun run = CliRun.of("--format", "json", sample("seed-4ms").toString());
        assertEquals(0, run.exitCode(), run.err());
        JsonNode root = JsonRenderer.mapper().readTree(run.out());
        assertEquals(AnalysisReport.SCHEMA_VERSION, root.get("schemaVersion").asInt());
        JsonNode rank = root.get("ranks").get(0);
        for (String f : List.of("rank", "source", "steps", "totals")) {
            assertTrue(rank.has(f), "ranks[]." + f);
        }
        JsonNode step = rank.get("steps").get(0);
        for (String f : List.of("name", "partial", "deviceStartNs", "deviceEndNs", "stepTimeNs", "commBusyNs",
                "computeBusyNs", "overlappedNs", "exposedCommNs", "exposedGradCommNs", "idleNs", "serialEstimateNs",
                "gradCollectives", "markers", "tailNs", "startDelayNs", "launchLateNs", "attribution")) {
            assertTrue(step.has(f), "ranks[].steps[]." + f);
        }
        for (String f : List.of("firstBucketReadyNs", "reduceStartNs", "lastComputeEndNs", "lastReduceEndNs")) {
            assertTrue(step.get("markers").has(f), "markers." + f);
        }
        assertTrue(step.get("attribution").has("kind"));
        assertTrue(step.get("attribution").get("chain").isArray());
        assertEquals("COMM_BOUND", step.get("attribution").get("kind").asText());
        // Markers are absolute, on the same clock as deviceStartNs.
        assertEquals(step.get("deviceStartNs").asLong() + 14_000_000L,
                step.get("markers").get("lastReduceEndNs").asLong());
        assertEquals(8_000_000L, step.get("tailNs").asLong());
    }

    @Test
    void undefinedValuesAreNullNotNaN() throws IOException {
        Path f = tmp.resolve("compute-only.json");
        Files.writeString(f, "{\"traceEvents\":[{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"gemm\",\"pid\":0,\"tid\":7,"
                + "\"ts\":100.000,\"dur\":5.000,\"args\":{\"stream\":7,\"correlation\":1}}]}");
        CliRun run = CliRun.of("--format", "json", f.toString());
        assertEquals(0, run.exitCode(), run.err());
        assertFalse(run.out().contains("NaN"), run.out());
        JsonNode step = JsonRenderer.mapper().readTree(run.out()).get("ranks").get(0).get("steps").get(0);
        assertTrue(step.get("overlapRatio").isNull(), "no communication: overlap ratio absent");
        assertTrue(step.get("tailNs").isNull());
        assertTrue(step.get("markers").get("firstBucketReadyNs").isNull());
    }

    @Test
    void textReportShowsMarkersTailAndCause() {
        CliRun run = CliRun.of(sample("seed-1ms").toString());
        assertEquals(0, run.exitCode(), run.err());
        assertTrue(run.out().contains("LAST_BUCKET"), run.out());
        assertTrue(run.out().contains("+6.000"), "lastComputeEnd relative to step start: " + run.out());
        assertTrue(run.out().contains("66.7%"), run.out());
        assertTrue(run.err().isEmpty(), "nothing on stderr for a clean run: " + run.err());
    }

    @Test
    void markdownIsATable() {
        CliRun run = CliRun.of("--format", "markdown", sample("seed-4ms").toString());
        assertEquals(0, run.exitCode(), run.err());
        // Each table (a run of consecutive "|" lines) keeps one column count.
        int tables = 0;
        int columns = -1;
        for (String line : run.out().lines().toList()) {
            if (!line.startsWith("|")) {
                columns = -1;
                continue;
            }
            int here = line.replace("\\|", "").split("\\|", -1).length;
            if (columns < 0) {
                columns = here;
                tables++;
            }
            assertEquals(columns, here, "same column count: " + line);
        }
        assertTrue(tables >= 1 && run.out().contains("| step | partial |"), run.out());
    }

    @Test
    void outputFileIsWrittenAndStdoutStaysEmpty() throws IOException {
        Path report = tmp.resolve("reports/run.json");
        CliRun run = CliRun.of("--format", "json", "-o", report.toString(), sample("seed-1ms").toString());
        assertEquals(0, run.exitCode(), run.err());
        assertTrue(run.out().isEmpty());
        assertEquals(1, JsonRenderer.mapper().readTree(report.toFile()).get("schemaVersion").asInt());
        try (var files = Files.list(report.getParent())) {
            assertEquals(List.of(report), files.toList(), "no temporary file left behind");
        }
    }

    @Test
    void stepSelectionKeepsOnlyTheChosenSteps() throws IOException {
        Path trace = tmp.resolve("jitter.json");
        assertEquals(0, CliRun.of("synth", "training-jitter", "-o", trace.toString()).exitCode());
        CliRun all = CliRun.of("--format", "json", trace.toString());
        JsonNode allSteps = JsonRenderer.mapper().readTree(all.out()).get("ranks").get(0).get("steps");
        assertEquals(5, allSteps.size());
        String second = allSteps.get(1).get("name").asText();
        String number = second.substring(second.indexOf('#') + 1);
        CliRun one = CliRun.of("--format", "json", "--steps", number, trace.toString());
        JsonNode rank = JsonRenderer.mapper().readTree(one.out()).get("ranks").get(0);
        assertEquals(1, rank.get("steps").size());
        assertEquals(second, rank.get("steps").get(0).get("name").asText());
        assertEquals(1, rank.get("totals").get("steps").asInt(), "totals over the selection");
        assertEquals(allSteps.get(1).get("stepTimeNs").asLong(), rank.get("totals").get("stepTimeNs").asLong());
    }

    @Test
    void versionAndHelp() {
        CliRun v = CliRun.of("--version");
        assertEquals(0, v.exitCode());
        assertTrue(v.out().startsWith("overlap-analyze "), v.out());
        CliRun h = CliRun.of("--help");
        assertEquals(0, h.exitCode());
        assertTrue(h.out().contains("--include-partial") && h.out().contains("synth"), h.out());
    }

    /** PROVENANCE.md: a kernel without args is device work: commBusy 50 µs, exposed 50 µs, ratio 0. */
    @Test
    void largeIntegerHandmadeTraceMatchesProvenance() throws IOException {
        Path f = SharedTraces.kineto("hta_large_integer_comms_id_handmade.json.gz");
        CliRun run = CliRun.of("--format", "json", f.toString());
        assertEquals(0, run.exitCode(), run.err());
        JsonNode step = JsonRenderer.mapper().readTree(run.out()).get("ranks").get(0).get("steps").get(0);
        assertEquals("all", step.get("name").asText());
        assertEquals(50_000L, step.get("commBusyNs").asLong());
        assertEquals(0L, step.get("computeBusyNs").asLong());
        assertEquals(0L, step.get("overlappedNs").asLong());
        assertEquals(50_000L, step.get("exposedCommNs").asLong());
        assertEquals(0.0, step.get("overlapRatio").asDouble());
    }

    @Test
    void cpuOnlyTraceSaysNothingToAnalyse() {
        CliRun run = CliRun.of(SharedTraces.kineto("hta_cpu_only_gloo_rank34of300.json.gz").toString());
        assertEquals(0, run.exitCode(), run.err());
        assertTrue(run.out().contains("nothing to analyse"), run.out());
    }
}
