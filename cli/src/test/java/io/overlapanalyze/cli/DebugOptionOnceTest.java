package io.overlapanalyze.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code --debug} is declared once, on the root command, and every subcommand inherits it: before or
 * after the subcommand's name it prints the stack trace of an error.
 */
class DebugOptionOnceTest {
    @TempDir
    Path dir;

    @Test
    void everySubcommandInheritsTheRootsDebugOption() {
        CommandLine root = Main.commandLine(new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter()));
        OptionSpec own = root.getCommandSpec().findOption("--debug");
        assertNotNull(own);
        assertFalse(own.inherited(), "the root declares it");
        for (var sub : root.getSubcommands().entrySet()) {
            if (sub.getKey().equals("help")) {
                continue;
            }
            OptionSpec o = sub.getValue().getCommandSpec().findOption("--debug");
            assertNotNull(o, sub.getKey() + " accepts --debug");
            assertTrue(o.inherited(), sub.getKey() + " inherits --debug instead of declaring its own");
        }
    }

    @Test
    void afterOrBeforeTheSubcommandItPrintsTheStackTrace() {
        String missing = dir.resolve("missing.json").toString();
        String out = dir.resolve("s.json").toString();
        CliRun plain = CliRun.of("summary", "-o", out, missing);
        CliRun after = CliRun.of("summary", "--debug", "-o", out, missing);
        CliRun before = CliRun.of("--debug", "summary", "-o", out, missing);

        assertEquals(ExitCodes.BAD_INPUT, plain.exitCode(), plain.err());
        assertFalse(plain.err().contains("\tat "), plain.err());
        for (CliRun r : new CliRun[] {after, before}) {
            assertEquals(ExitCodes.BAD_INPUT, r.exitCode(), r.err());
            assertTrue(r.err().startsWith(plain.err().lines().findFirst().orElseThrow()), r.err());
            assertTrue(r.err().contains("\tat "), "the stack trace: " + r.err());
        }
    }
}
