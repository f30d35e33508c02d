package io.overlapanalyze.cli.reliability;

import io.overlapanalyze.cli.ExitCodes;
import io.overlapanalyze.synth.KinetoScenarioWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A file name holding a newline or terminal escape bytes is printed escaped: the error stays one
 * line, the terminal gets no escape sequence, and the name can still be read
 * ({@code bad\nname\x1b[31m.json}).
 */
class MessageQuotingTest {
    @TempDir
    Path tmp;

    private static final String NAME = "bad\nname\u001b[31m.json";
    private static final String SHOWN = "bad\\nname\\x1b[31m.json";

    @Test
    void anErrorNamingSuchAFileIsOneEscapedLine() throws IOException {
        Path empty = Files.write(tmp.resolve(NAME), new byte[0]);
        for (String[] args : new String[][] {{empty.toString()}, {"summary", empty.toString()},
                {"-o", tmp.resolve("out\u001b]0;title\u0007.txt").toString(), empty.toString()}}) {
            Cli run = Cli.run(args);
            run.assertNoCrash(String.join(" ", args));
            assertEquals(ExitCodes.BAD_INPUT, run.exitCode(), run.err());
            assertEquals(1, run.errLines().size(), "one line: " + run.err());
            assertFalse(run.err().contains("\u001b") || run.err().contains("\u0007"), "no raw escape: " + run.err());
            assertTrue(run.err().contains(SHOWN), "the name, escaped: " + run.err());
        }
    }

    @Test
    void aWarningNamingSuchAFileIsOneEscapedLine() throws IOException {
        Path empty = Files.write(tmp.resolve(NAME), new byte[0]);
        Path good = tmp.resolve("rank1.pt.trace.json");
        KinetoScenarioWriter.write(HostileCorpus.scenario(), good);
        Cli run = Cli.run(empty.toString(), good.toString());
        assertEquals(ExitCodes.OK, run.exitCode(), run.err());
        // The good file has a warning of its own (its name and its trace disagree on the rank).
        assertEquals(1, run.errLines().stream().filter(l -> l.contains(SHOWN)).count(),
                "one warning line for the bad name: " + run.err());
        assertFalse(run.err().contains("\u001b"), "no raw escape: " + run.err());
        assertTrue(run.err().contains(SHOWN), "the name, escaped: " + run.err());
    }
}
