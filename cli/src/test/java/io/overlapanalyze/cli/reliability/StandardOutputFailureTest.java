package io.overlapanalyze.cli.reliability;

import io.overlapanalyze.cli.ExitCodes;
import io.overlapanalyze.synth.KinetoScenarioWriter;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A report that cannot be written to standard output is a failure: with standard output on
 * {@code /dev/full} (every write fails with "No space left on device", as on a full disk) each
 * command exits 2 with one line, where the print writers alone would swallow the error and exit 0.
 * A reader that goes away ({@code | head}: a broken pipe) still ends quietly. These run the real
 * {@code main} in a child JVM: only there is standard output a file descriptor.
 */
class StandardOutputFailureTest {
    @TempDir
    Path tmp;

    private Path trace;

    @BeforeEach
    void trace() throws IOException {
        trace = tmp.resolve("rank0.pt.trace.json");
        KinetoScenarioWriter.write(HostileCorpus.scenario(), trace);
    }

    private record Result(int exitCode, String err) {
        List<String> errLines() {
            return err.lines().filter(l -> !l.isBlank()).toList();
        }
    }

    private Result child(ProcessBuilder.Redirect stdout, boolean closeAtOnce, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1", "-Xshare:auto", "-cp", System.getProperty("java.class.path"),
                "io.overlapanalyze.cli.Main"));
        cmd.addAll(List.of(args));
        Path err = tmp.resolve("stderr.txt");
        Process p = new ProcessBuilder(cmd).redirectOutput(stdout).redirectError(err.toFile()).start();
        if (closeAtOnce) {
            p.getInputStream().close();
        }
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the child JVM finished: " + cmd);
        return new Result(p.exitValue(), Files.readString(err, StandardCharsets.UTF_8));
    }

    @Test
    void aFullStandardOutputIsExit2() throws Exception {
        File full = new File("/dev/full");
        Assumptions.assumeTrue(full.exists(), "no /dev/full on this system: skipping");
        String t = trace.toString();
        String[][] runs = {{t}, {"-f", "json", t}, {"summary", t}, {"whatif", t}, {"diff", t, t},
                {"gate", "--baseline", t, t}, {"-f", "json", "--html", tmp.resolve("r.html").toString(), t}};
        for (String[] args : runs) {
            Result r = child(ProcessBuilder.Redirect.to(full), false, args);
            String what = String.join(" ", args);
            assertEquals(ExitCodes.BAD_INPUT, r.exitCode(), what + ": exit code; stderr: " + r.err());
            assertEquals(1, r.errLines().size(), what + ": one line: " + r.err());
            assertTrue(r.err().contains("cannot write to standard output") && r.err().contains("No space left"),
                    what + ": says what failed: " + r.err());
            assertFalse(r.err().contains("Exception") || r.err().contains("\tat "), what + ": " + r.err());
        }
    }

    @Test
    void aBrokenPipeEndsQuietly() throws Exception {
        // The read end is closed before the child writes: every write gets EPIPE.
        for (String[] args : new String[][] {{trace.toString()}, {"-f", "json", trace.toString()},
                {"summary", trace.toString()}}) {
            Result r = child(ProcessBuilder.Redirect.PIPE, true, args);
            String what = String.join(" ", args);
            assertEquals(ExitCodes.OK, r.exitCode(), what + ": exit code; stderr: " + r.err());
            assertEquals("", r.err().strip(), what + ": nothing on stderr");
        }
    }
}
