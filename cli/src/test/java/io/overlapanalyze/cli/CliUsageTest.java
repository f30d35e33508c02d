package io.overlapanalyze.cli;

import io.overlapanalyze.cli.analyse.SamplesTest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.overlapanalyze.render.timeline.TerminalTimeline;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/** Usage that must be answered clearly: bad --steps values, help texts, the help command, TERM=dumb. */
class CliUsageTest {
    private static Path seed() {
        return SamplesTest.samples().resolve("seed-1ms.pt.trace.json");
    }

    @ParameterizedTest(name = "--steps {0}")
    @ValueSource(strings = {"abc", "-1", "99999999999999999999", "4--6", "7"})
    void aStepSelectionThatCannotMatchIsBadUsage(String value) {
        for (String[] args : new String[][] {
                {"--steps", value, seed().toString()},
                {"summary", "--steps", value, seed().toString()},
                {"gate", "--steps", value, "--baseline", seed().toString(), seed().toString()}}) {
            CliRun run = CliRun.of(args);
            assertEquals(2, run.exitCode(), String.join(" ", args) + "\n" + run.out() + run.err());
            assertEquals(1, run.errLines().size(), run.err());
            assertTrue(run.err().contains("--steps") && run.err().contains(value), run.err());
        }
    }

    @Test
    void aStepSelectionThatMatchesNamesTheStepsThereAre() {
        CliRun run = CliRun.of("--steps", "abc", seed().toString());
        assertTrue(run.err().contains("no step matches (the input has ProfilerStep#1)"), run.err());
        assertEquals(0, CliRun.of("--steps", "ProfilerStep#1", seed().toString()).exitCode());
        assertEquals(0, CliRun.of("--steps", "1", seed().toString()).exitCode());
    }

    /** picocli writes its own warnings to System.err, not to the command's writer: capture both. */
    @ParameterizedTest(name = "{0} --help")
    @ValueSource(strings = {"", "synth", "summary", "diff", "gate", "whatif", "annotate"})
    void everyHelpPrintsNoInternalWarningAndTheExitCodes(String command) {
        PrintStream saved = System.err;
        ByteArrayOutputStream raw = new ByteArrayOutputStream();
        CliRun run;
        try {
            System.setErr(new PrintStream(raw, true, StandardCharsets.UTF_8));
            run = command.isEmpty() ? CliRun.of("--help") : CliRun.of(command, "--help");
        } finally {
            System.setErr(saved);
        }
        assertEquals(0, run.exitCode(), run.err());
        String all = run.out() + run.err() + raw.toString(StandardCharsets.UTF_8);
        assertFalse(all.contains("picocli WARN"), all);
        assertFalse(all.contains("%n"), all);
        assertTrue(run.out().contains("Exit codes:"), run.out());
    }

    @Test
    void helpIsACommandNotAFile() {
        CliRun root = CliRun.of("help");
        assertEquals(0, root.exitCode(), root.err());
        assertTrue(root.out().startsWith("Usage: overlap-analyze"), root.out());
        CliRun gate = CliRun.of("help", "gate");
        assertEquals(0, gate.exitCode(), gate.err());
        assertTrue(gate.out().startsWith("Usage: overlap-analyze gate"), gate.out());
    }

    @Test
    void anUnknownScenarioListsEveryBuiltIn() {
        CliRun run = CliRun.of("synth", "nosuch");
        assertEquals(2, run.exitCode());
        for (String name : new String[] {"seed-1ms", "late-middle-bucket-sync", "fsdp-late-prefetch", "pipeline-4stage",
                "contention-20pct"}) {
            assertTrue(run.err().contains(name), name + " missing from: " + run.err());
        }
    }

    @Test
    void aDumbTerminalGetsNoColour() {
        assertTrue(TerminalTimeline.colourWanted(true, Map.of("TERM", "xterm-256color")));
        assertFalse(TerminalTimeline.colourWanted(true, Map.of("TERM", "dumb")));
        assertFalse(TerminalTimeline.colourWanted(true, Map.of("NO_COLOR", "")));
        assertFalse(TerminalTimeline.colourWanted(false, Map.of()));
    }
}
