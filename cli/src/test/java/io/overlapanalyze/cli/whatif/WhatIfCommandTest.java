package io.overlapanalyze.cli.whatif;

import io.overlapanalyze.cli.CliRun;
import io.overlapanalyze.cli.SharedTraces;
import io.overlapanalyze.cli.analyse.SamplesTest;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.overlapanalyze.render.JsonRenderer;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.GZIPInputStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@code overlap-analyze whatif}: output contract, the seed numbers end to end, the README sample, bad input. */
class WhatIfCommandTest {
    private static final long MS = 1_000_000L;

    @TempDir
    Path tmp;

    private static Path sample(String name) {
        return SamplesTest.samples().resolve(name);
    }

    private static JsonNode json(CliRun run) throws IOException {
        assertEquals(0, run.exitCode(), run.err());
        return JsonRenderer.mapper().readTree(run.out());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"seed-1ms, 7, 1, 9", "seed-4ms, 14, 8, 18"})
    void seedTraceReplaysToTheSeedNumbers(String name, long stepMs, long tailMs, long serialMs) throws IOException {
        JsonNode r = json(CliRun.of("whatif", sample(name + ".pt.trace.json").toString(), "-f", "json"));
        assertEquals(stepMs * MS, r.at("/measured/stepTimeNs").asLong());
        assertEquals(tailMs * MS, r.at("/measured/tailNs").asLong());
        assertEquals(tailMs * MS, r.at("/measured/exposedCommNs").asLong());
        JsonNode asMeasured = r.at("/options/0");
        assertEquals("measured buckets", asMeasured.get("label").asText());
        assertTrue(asMeasured.get("bucketCapBytes").isNull());
        assertEquals(1.0, asMeasured.get("bandwidthScale").asDouble());
        assertEquals(stepMs * MS, asMeasured.get("stepTimeNs").asLong());
        assertEquals(tailMs * MS, asMeasured.get("tailNs").asLong());
        assertEquals(tailMs * MS, asMeasured.get("exposedCommNs").asLong());
        assertEquals(serialMs * MS, asMeasured.get("serialNs").asLong());
        assertEquals(0.0, r.at("/model/alphaNs").asDouble());
        assertTrue(r.at("/model/betaBytesPerNs").isNumber());
        assertTrue(r.at("/model").has("r2"));
        assertEquals("DEGENERATE", r.at("/model/quality").asText());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"seed-1ms, 7, 1", "seed-4ms, 14, 8"})
    void seedScenarioFileReplaysToTheSeedNumbers(String name, long stepMs, long tailMs) throws IOException {
        JsonNode r = json(CliRun.of("whatif", "--scenario", sample(name + ".scenario.json").toString(), "-f", "json"));
        assertEquals("scenario", r.get("input").asText());
        assertEquals(stepMs * MS, r.at("/measured/stepTimeNs").asLong());
        assertEquals(tailMs * MS, r.at("/measured/tailNs").asLong());
    }

    @Test
    void jsonCarriesTheContractFields() throws IOException {
        JsonNode r = json(CliRun.of("whatif", sample("gpt2-ddp-100mb.pt.trace.json.gz").toString(), "-f", "json",
                "--bucket-caps", "5,10,25", "--bandwidth-scale", "2"));
        for (String f : List.of("stepTimeNs", "tailNs", "exposedCommNs")) {
            assertTrue(r.get("measured").has(f), f);
        }
        for (String f : List.of("alphaNs", "betaBytesPerNs", "r2")) {
            assertTrue(r.get("model").has(f), f);
        }
        assertEquals(8, r.get("options").size()); // (measured buckets + 3 caps) x (as measured, bandwidth x2)
        for (JsonNode o : r.get("options")) {
            for (String f : List.of("label", "bucketCapBytes", "bandwidthScale", "stepTimeNs", "tailNs",
                    "exposedCommNs")) {
                assertTrue(o.has(f), f);
            }
        }
        assertEquals("cap 5 MiB, bandwidth x2", r.at("/options/5/label").asText());
        assertEquals(5L << 20, r.at("/options/5/bucketCapBytes").asLong());
        assertEquals(2.0, r.at("/options/5/bandwidthScale").asDouble());
        assertTrue(r.get("recommended").asText().endsWith(", bandwidth x2"), r.get("recommended").asText());
    }

    /** The worked example of "Choosing a bucket size" (docs/whatif.md). */
    @Test
    void readmeSampleRecommendsTenMiBBecauseTheMeasuredBucketsAreTooBig() throws IOException {
        JsonNode r = json(CliRun.of("whatif", sample("gpt2-ddp-100mb.pt.trace.json.gz").toString(), "-f", "json"));
        assertEquals("cap 10 MiB", r.get("recommended").asText());
        assertEquals("LATE_FIRST_BUCKET", r.get("dominantEffect").asText());
        assertEquals("GOOD", r.at("/model/quality").asText());
        // The fit recovers the scenario's interconnect (alpha 150 us, 25 GB/s; 2 % jitter) within 5 %.
        assertEquals(150_000, r.at("/model/alphaNs").asDouble(), 7_500);
        assertEquals(25, r.at("/model/betaBytesPerNs").asDouble(), 1.25);

        CliRun text = CliRun.of("whatif", sample("gpt2-ddp-100mb.pt.trace.json.gz").toString());
        assertEquals(0, text.exitCode(), text.err());
        assertTrue(text.out().contains("recommended: cap 10 MiB"), text.out());
        assertTrue(text.out().contains("timeline of cap 10 MiB"), text.out());
        assertTrue(text.out().contains("  compute |#"), text.out());
    }

    @Test
    void readmeSamplePredictionMatchesTheTenMiBRun() throws IOException {
        // Ground truth: the same model scenario generated at bucket_cap_mb=10 and analysed.
        String scenario = Files.readString(sample("gpt2-ddp-100mb.scenario.json"))
                .replace("\"bucketCapMB\": 100", "\"bucketCapMB\": 10");
        Path file = tmp.resolve("gpt2-ddp-10mb.scenario.json");
        Files.writeString(file, scenario);
        Path trace = tmp.resolve("gpt2-ddp-10mb.pt.trace.json");
        assertEquals(0, CliRun.of("synth", file.toString(), "-o", trace.toString()).exitCode());
        JsonNode truth = json(CliRun.of(trace.toString(), "-f", "json")).at("/ranks/0/totals/medians");
        JsonNode predicted = json(CliRun.of("whatif", sample("gpt2-ddp-100mb.pt.trace.json.gz").toString(),
                "-f", "json", "--bucket-caps", "10")).at("/options/1");
        long step = truth.get("stepTimeNs").asLong();
        long tail = truth.get("tailNs").asLong();
        assertEquals(step, predicted.get("stepTimeNs").asLong(), 0.05 * step);
        assertEquals(tail, predicted.get("tailNs").asLong(), Math.max(0.10 * tail, 200_000));
    }

    @Test
    void committedSampleIsWhatTheGeneratorWrites() throws IOException {
        Path regenerated = tmp.resolve("gpt2-ddp-100mb.pt.trace.json.gz");
        CliRun run = CliRun.of("synth", sample("gpt2-ddp-100mb.scenario.json").toString(), "-o", regenerated.toString());
        assertEquals(0, run.exitCode(), run.err());
        assertArrayEquals(gunzip(sample("gpt2-ddp-100mb.pt.trace.json.gz")), gunzip(regenerated),
                "samples/gpt2-ddp-100mb.pt.trace.json.gz is stale: regenerate it");
    }

    private static byte[] gunzip(Path p) throws IOException {
        try (InputStream in = new GZIPInputStream(Files.newInputStream(p))) {
            return in.readAllBytes();
        }
    }

    @Test
    void modelScenarioUsesItsOwnInterconnect() throws IOException {
        JsonNode r = json(CliRun.of("whatif", "--scenario", sample("gpt2-ddp-100mb.scenario.json").toString(), "-f",
                "json"));
        assertEquals(150_000.0, r.at("/model/alphaNs").asDouble());
        assertEquals(25.0, r.at("/model/betaBytesPerNs").asDouble());
        assertEquals("cap 10 MiB", r.get("recommended").asText());
    }

    @Test
    void outputFileIsWritten() throws IOException {
        Path out = tmp.resolve("whatif.json");
        CliRun run = CliRun.of("whatif", "--scenario", "seed-1ms", "-f", "json", "-o", out.toString());
        assertEquals(0, run.exitCode(), run.err());
        assertEquals(7 * MS, JsonRenderer.mapper().readTree(out.toFile()).at("/measured/stepTimeNs").asLong());
    }

    @Test
    void missingTraceIsOneLineNamingTheFile() {
        CliRun run = CliRun.of("whatif", tmp.resolve("nope.json").toString());
        assertEquals(2, run.exitCode());
        assertEquals(1, run.errLines().size(), run.err());
        assertTrue(run.err().contains("nope.json"), run.err());
    }

    @Test
    void badScenarioIsOneLineNamingTheFile() throws IOException {
        Path bad = tmp.resolve("bad.scenario.json");
        Files.writeString(bad, "{\"name\": \"x\", \"layers\": [{\"us\": 10, \"gradBytes\": 6}], \"bucketCapMB\": 1, "
                + "\"alphaUs\": 1, \"betaGBps\": 1}");
        CliRun run = CliRun.of("whatif", "--scenario", bad.toString());
        assertEquals(2, run.exitCode());
        assertEquals(1, run.errLines().size(), run.err());
        assertTrue(run.err().contains(bad.toString()) && run.err().contains("gradBytes"), run.err());
    }

    @Test
    void traceWithoutGradientReductionsIsOneLine() throws IOException {
        Path scenario = tmp.resolve("fwd.scenario.json");
        Files.writeString(scenario, "{\"name\": \"fwd\", \"forward\": [{\"us\": 100}]}");
        Path trace = tmp.resolve("fwd.pt.trace.json");
        assertEquals(0, CliRun.of("synth", scenario.toString(), "-o", trace.toString()).exitCode());
        CliRun run = CliRun.of("whatif", trace.toString());
        assertEquals(2, run.exitCode());
        assertEquals(1, run.errLines().size(), run.err());
        assertTrue(run.err().contains(trace.toString()), run.err());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "--bucket-caps|0|caps must be > 0",
        "--bandwidth-scale|-1|--bandwidth-scale: must be > 0",
        // Issue 29 item 10: 1e-12 wrapped the predicted times around, 1e30 MiB was an ArithmeticException (exit 3).
        "--bandwidth-scale|1e-12|--bandwidth-scale: must be between 0.001 and 1000",
        "--bandwidth-scale|1e300|--bandwidth-scale: must be between 0.001 and 1000",
        "--latency-scale|1e300|--latency-scale: must be at most 1000",
        "--bucket-caps|1e30|--bucket-caps: caps must be at most 1048576 MiB",
        "-f|markdown|expected text or json"})
    void badOptionsExitTwo(String option, String value, String message) {
        CliRun run = CliRun.of("whatif", "--scenario", "seed-1ms", option, value);
        assertEquals(2, run.exitCode());
        assertTrue(run.err().contains(message), run.err());
        assertFalse(run.err().contains("Exception"), run.err());
    }

    @Test
    void traceAndScenarioTogetherIsAUsageError() {
        CliRun run = CliRun.of("whatif", sample("seed-1ms.pt.trace.json").toString(), "--scenario", "seed-1ms");
        assertEquals(2, run.exitCode());
        assertFalse(run.err().isBlank());
    }

    /**
     * The ResNet DDP trace's five bucket sizes take times unrelated to their sizes (PROVENANCE: the same
     * five all-reduces each step): a line fits them with R^2 near 0, which the fit
     * calls POOR. Such a model cannot choose a cap: the options are printed, none is recommended, and
     * the reason says why.
     */
    @Test
    void aPoorFitPrintsTheOptionsButRecommendsNone() throws IOException {
        Path trace = SharedTraces.kineto("hta_nccl_data_resnet_ddp_rank0of2_a100.json.gz");
        JsonNode r = json(CliRun.of("whatif", "-f", "json", trace.toString()));
        assertEquals("POOR", r.at("/model/quality").asText());
        assertTrue(r.at("/model/r2").asDouble() < 0.5, r.at("/model").toString());
        assertTrue(r.get("recommended").isNull(), r.get("recommended").toString());
        assertEquals("NONE", r.get("dominantEffect").asText());
        assertTrue(r.get("reason").asText().startsWith("no recommendation: the cost model"), r.get("reason").asText());
        assertTrue(r.get("options").size() > 1, "the options stay for reference");

        CliRun text = CliRun.of("whatif", trace.toString());
        assertEquals(0, text.exitCode(), text.err());
        assertFalse(text.out().contains("recommended:"), text.out());
        assertFalse(text.out().contains(" <"), "no option is marked as the choice");
        assertTrue(text.out().contains("no recommendation"), text.out());
    }
}
