package io.overlapanalyze.cli.reliability;

import io.overlapanalyze.cli.ExitCodes;
import io.overlapanalyze.cli.Main;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Runs the CLI in-process under a hang guard and checks the error contract: exit 0 or
 * 2 (never 3, never a stack trace); on exit 2 exactly one line on stderr that names the input.
 */
record Cli(int exitCode, String out, String err) {
    /** A hang guard, not a performance assertion: every case here takes milliseconds. */
    static final Duration HANG_GUARD = Duration.ofSeconds(20);

    static Cli run(String... args) {
        return assertTimeoutPreemptively(HANG_GUARD, () -> {
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            int code = Main.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
            return new Cli(code, out.toString(), err.toString());
        }, () -> "hang guard: the CLI did not finish within " + HANG_GUARD.toSeconds() + " s on " + List.of(args));
    }

    List<String> errLines() {
        return err.lines().filter(l -> !l.isBlank()).toList();
    }

    /** No stack trace, no exception class names, no internal error. */
    Cli assertNoCrash(String what) {
        assertFalse(err.contains("\tat ") || err.contains("Exception") || err.contains("Error:")
                        || err.contains("internal error"),
                what + ": stack trace or internal error on stderr:\n" + err);
        assertTrue(exitCode == ExitCodes.OK || exitCode == ExitCodes.BAD_INPUT,
                what + ": exit code " + exitCode + " (documented: 0 analysed, 2 input error); stderr: " + err);
        return this;
    }

    /** Exit 2, one line on stderr naming {@code input}, nothing on stdout. */
    Cli assertOneLineError(Path input, String what) {
        assertNoCrash(what);
        assertEquals(ExitCodes.BAD_INPUT, exitCode, what + ": exit code; stderr: " + err + "\nstdout: " + abbreviate(out));
        assertEquals(1, errLines().size(), what + ": exactly one line on stderr, got:\n" + err);
        assertTrue(errLines().get(0).contains(input.getFileName().toString()),
                what + ": the line names the file: " + errLines().get(0));
        assertTrue(errLines().get(0).length() < 1000, what + ": one short line, got " + errLines().get(0).length()
                + " characters");
        assertTrue(out.isEmpty(), what + ": nothing on stdout: " + abbreviate(out));
        return this;
    }

    /** Exit 0 and a report. */
    Cli assertAnalysed(String what) {
        assertNoCrash(what);
        if (exitCode != ExitCodes.OK) {
            fail(what + ": expected the input to be analysed (exit 0), got " + exitCode + ": " + err);
        }
        assertFalse(out.isBlank(), what + ": a report on stdout");
        return this;
    }

    static String abbreviate(String s) {
        return s.length() > 2000 ? s.substring(0, 2000) + "..." : s;
    }
}
