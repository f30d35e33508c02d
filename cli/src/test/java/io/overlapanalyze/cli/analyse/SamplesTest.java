package io.overlapanalyze.cli.analyse;

import io.overlapanalyze.cli.CliRun;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The bundled samples are the generator's output for their scenario files, byte for byte, and
 * the README's first command works on them.
 */
public class SamplesTest {
    @TempDir
    Path tmp;

    public static Path samples() {
        return Path.of(System.getProperty("overlap.projectRoot", "..")).resolve("samples");
    }

    @ParameterizedTest
    @ValueSource(strings = {"seed-1ms", "seed-4ms"})
    void committedSampleIsWhatTheGeneratorWrites(String name) throws IOException {
        Path regenerated = tmp.resolve(name + ".pt.trace.json");
        CliRun run = CliRun.of("synth", samples().resolve(name + ".scenario.json").toString(), "-o",
                regenerated.toString());
        assertEquals(0, run.exitCode(), run.err());
        assertArrayEquals(Files.readAllBytes(samples().resolve(name + ".pt.trace.json")),
                Files.readAllBytes(regenerated), "samples/" + name + ".pt.trace.json is stale: regenerate it");
    }

    @ParameterizedTest
    @ValueSource(strings = {"seed-1ms", "seed-4ms"})
    void sampleAnalysesAsTheReadmeSays(String name) {
        CliRun run = CliRun.of(samples().resolve(name + ".pt.trace.json").toString());
        assertEquals(0, run.exitCode(), run.err());
        assertTrue(run.out().contains(name.equals("seed-1ms") ? "LAST_BUCKET" : "COMM_BOUND"), run.out());
    }
}
