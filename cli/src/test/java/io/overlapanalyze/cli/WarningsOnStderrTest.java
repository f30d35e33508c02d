package io.overlapanalyze.cli;

import io.overlapanalyze.cli.analyse.SamplesTest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.overlapanalyze.render.JsonRenderer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A truncated trace is analysed as far as it is sound, and every command says so on standard error,
 * whatever -f and -o say; a gate's JSON carries the warning too (a CI check must not pass silently
 * on damaged input).
 */
class WarningsOnStderrTest {
    @TempDir
    Path dir;

    private Path good() {
        Path p = dir.resolve("jitter.pt.trace.json");
        if (!Files.exists(p)) {
            assertEquals(0, CliRun.of("synth", "training-jitter", "-o", p.toString()).exitCode());
        }
        return p;
    }

    /** The 5-step training-jitter trace cut at 90 %: complete steps remain, the last one is cut. */
    private Path truncated() throws IOException {
        byte[] all = Files.readAllBytes(good());
        Path p = dir.resolve("cut.pt.trace.json");
        Files.write(p, Arrays.copyOf(all, all.length * 9 / 10));
        return p;
    }

    private static void assertWarnsOnStderr(CliRun run, Path file, String what) {
        assertTrue(run.exitCode() == 0 || run.exitCode() == 1, what + ": " + run.err());
        List<String> warnings = run.errLines().stream().filter(l -> l.startsWith("overlap-analyze: warning: ")).toList();
        assertTrue(warnings.stream().anyMatch(l -> l.contains("truncated") && l.contains(file.toString())),
                what + " printed no truncation warning naming the file on stderr:\n" + run.err());
    }

    @Test
    void everyCommandPrintsTheTruncationOnStderr() throws IOException {
        Path cut = truncated();
        Path good = good();
        assertWarnsOnStderr(CliRun.of("-f", "json", "-o", dir.resolve("r.json").toString(), cut.toString()), cut,
                "analyze -f json -o");
        assertWarnsOnStderr(CliRun.of(cut.toString()), cut, "analyze");
        assertWarnsOnStderr(CliRun.of("summary", "-o", dir.resolve("s.json").toString(), cut.toString()), cut,
                "summary");
        assertWarnsOnStderr(CliRun.of("diff", good.toString(), cut.toString()), cut, "diff");
        assertWarnsOnStderr(CliRun.of("gate", "--baseline", good.toString(), cut.toString()), cut, "gate");
        assertWarnsOnStderr(CliRun.of("whatif", cut.toString()), cut, "whatif");
        assertWarnsOnStderr(CliRun.of("annotate", cut.toString(), "-o", dir.resolve("a.json").toString()), cut,
                "annotate");
    }

    @Test
    void gateAndDiffJsonCarryTheWarnings() throws IOException {
        Path cut = truncated();
        Path good = good();
        CliRun gate = CliRun.of("gate", "-f", "json", "--baseline", good.toString(), cut.toString());
        JsonNode warnings = JsonRenderer.mapper().readTree(gate.out()).get("warnings");
        assertTrue(warnings.isArray() && warnings.size() > 0, gate.out());
        assertTrue(warnings.get(0).asText().startsWith("current: ") && warnings.get(0).asText().contains(cut.toString()),
                warnings.toString());

        CliRun diff = CliRun.of("diff", "-f", "json", cut.toString(), good.toString());
        JsonNode d = JsonRenderer.mapper().readTree(diff.out()).get("warnings");
        assertTrue(d.get(0).asText().startsWith("A: ") && d.get(0).asText().contains(cut.toString()), d.toString());
    }

    @Test
    void aCleanRunPrintsNoWarning() {
        CliRun run = CliRun.of("-f", "json", SamplesTest.samples().resolve("seed-4ms.pt.trace.json").toString());
        assertEquals(0, run.exitCode());
        assertTrue(run.err().isEmpty(), run.err());
    }
}
