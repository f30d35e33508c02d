package io.overlapanalyze.cli.analyse;

import io.overlapanalyze.cli.CliRun;
import io.overlapanalyze.cli.ExitCodes;

import io.overlapanalyze.formats.input.FormatDetector;
import io.overlapanalyze.formats.input.InputLimits;
import io.overlapanalyze.formats.input.SniffedInput;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The Nsight paths through the command line: synth to SQLite, analyse, --step-pattern, bad input. */
class NsysCliTest {
    @TempDir
    Path tmp;

    @Test
    void synthWritesSqliteAndAnalyzeReadsIt() throws Exception {
        Path out = tmp.resolve("seed.sqlite");
        CliRun synth = CliRun.of("synth", "seed-4ms", "-o", out.toString());
        assertEquals(ExitCodes.OK, synth.exitCode(), synth.err());
        assertEquals(FormatDetector.Content.SQLITE, SniffedInput.of(out, InputLimits.DEFAULT).content());
        try (var s = Files.list(tmp)) {
            assertEquals(1, s.count(), "no scratch file left behind");
        }
        CliRun run = CliRun.of("--format", "json", out.toString());
        assertEquals(ExitCodes.OK, run.exitCode(), run.err());
        assertTrue(run.out().contains("\"format\" : \"NSYS\"") || run.out().contains("\"format\":\"NSYS\""), run.out());
        assertTrue(run.out().contains("COMM_BOUND"), run.out());
    }

    @Test
    void synthFormatOption() throws Exception {
        Path out = tmp.resolve("seed.db");
        CliRun synth = CliRun.of("synth", "seed-1ms", "--format", "nsys", "-o", out.toString());
        assertEquals(ExitCodes.OK, synth.exitCode(), synth.err());
        assertEquals(FormatDetector.Content.SQLITE, SniffedInput.of(out, InputLimits.DEFAULT).content());
    }

    @Test
    void stepPatternOption() throws Exception {
        Path out = tmp.resolve("jitter.sqlite");
        assertEquals(ExitCodes.OK, CliRun.of("synth", "training-jitter", "-o", out.toString()).exitCode());
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + out); Statement st = c.createStatement()) {
            st.execute("UPDATE NVTX_EVENTS SET text = replace(text, 'ProfilerStep#', 'train iter ')"
                    + " WHERE text LIKE 'ProfilerStep#%'");
        }
        CliRun plain = CliRun.of("--format", "json", out.toString());
        assertTrue(plain.out().contains("\"name\" : \"all\""), "no default step name: one step 'all'");
        CliRun custom = CliRun.of("--format", "json", "--step-pattern", "train iter \\d+", out.toString());
        assertEquals(ExitCodes.OK, custom.exitCode(), custom.err());
        assertTrue(custom.out().contains("\"name\" : \"train iter 14\""), custom.out());
        CliRun bad = CliRun.of("--step-pattern", "(", out.toString());
        assertEquals(ExitCodes.BAD_INPUT, bad.exitCode());
        assertEquals(1, bad.errLines().size(), bad.err());
    }

    @Test
    void sqliteThatIsNotAnExportIsOneLineAndExitTwo() throws Exception {
        Path f = tmp.resolve("app.sqlite");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + f); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE t (x INTEGER)");
        }
        CliRun run = CliRun.of(f.toString());
        assertEquals(ExitCodes.BAD_INPUT, run.exitCode(), run.err());
        assertEquals(1, run.errLines().size(), run.err());
        assertTrue(run.err().contains("not an Nsight Systems export"), run.err());
    }
}
