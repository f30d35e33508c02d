package io.overlapanalyze.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletionException;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * Issue 29 item 3: any {@link Error} (out of memory, stack overflow, on the command's thread or a
 * worker's, wrapped) is one line on stderr and exit 3: before, it left picocli raw, the JVM printed
 * the stack trace and exited 1, the gate's "regression". For memory the line says how to raise the
 * heap.
 */
class ErrorExitTest {
    @CommandLine.Command(name = "boom")
    static final class Boom implements Callable<Integer> {
        private final Supplier<Throwable> what;

        Boom(Supplier<Throwable> what) {
            this.what = what;
        }

        // --debug: the root's, inherited as by every subcommand.

        @Override
        public Integer call() throws Exception {
            Throwable t = what.get();
            if (t instanceof Error e) {
                throw e;
            }
            throw (Exception) t;
        }
    }

    private record Run(int code, List<String> errLines, String err) {
    }

    private static Run run(Supplier<Throwable> what, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cl = Main.commandLine(new PrintWriter(out, true), new PrintWriter(err, true));
        cl.addSubcommand(new CommandLine(new Boom(what)));
        // Streams set again: picocli hands them to the subcommands present when they are set.
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        int code = Main.execute(cl, args);
        assertEquals("", out.toString(), "nothing on standard output");
        return new Run(code, err.toString().lines().toList(), err.toString());
    }

    @Test
    void outOfMemoryIsOneLineExit3SayingHowToRaiseTheHeap() {
        Run r = run(() -> new OutOfMemoryError("Java heap space"), "boom");
        assertEquals(ExitCodes.INTERNAL_ERROR, r.code());
        assertEquals(1, r.errLines().size(), r.err());
        String line = r.errLines().get(0);
        assertTrue(line.startsWith("overlap-analyze: out of memory (Java heap space; the Java heap is at most "), line);
        assertTrue(line.contains("OVERLAP_ANALYZE_JAVA_OPTS=-Xmx"), line);
        assertFalse(r.err().contains("\tat "), "no stack trace");
        Run bare = run(OutOfMemoryError::new, "boom");
        assertTrue(bare.errLines().get(0).startsWith("overlap-analyze: out of memory (the Java heap is at most "),
                bare.err());
    }

    @Test
    void outOfMemoryOnAWorkerThreadIsTheSameLine() {
        Run r = run(() -> new CompletionException(new OutOfMemoryError("Java heap space")), "boom");
        assertEquals(ExitCodes.INTERNAL_ERROR, r.code());
        assertEquals(1, r.errLines().size(), r.err());
        assertTrue(r.errLines().get(0).contains("OVERLAP_ANALYZE_JAVA_OPTS=-Xmx"), r.err());
    }

    @Test
    void stackOverflowIsOneLineExit3() {
        Run r = run(StackOverflowError::new, "boom");
        assertEquals(ExitCodes.INTERNAL_ERROR, r.code());
        assertEquals(1, r.errLines().size(), r.err());
        assertTrue(r.errLines().get(0).startsWith("overlap-analyze: internal error: stack overflow"), r.err());
        assertFalse(r.err().contains("\tat "), "no stack trace");
    }

    @Test
    void anyOtherErrorIsOneLineExit3AndDebugAddsTheTrace() {
        Run r = run(() -> new AssertionError("x\u001b[2Jy"), "boom");
        assertEquals(ExitCodes.INTERNAL_ERROR, r.code());
        assertEquals(1, r.errLines().size(), r.err());
        assertFalse(r.err().contains("\u001b"), "control characters are not printed raw");
        Run d = run(() -> new LinkageError("x"), "boom", "--debug");
        assertEquals(ExitCodes.INTERNAL_ERROR, d.code());
        assertTrue(d.err().contains("\tat "), "--debug prints the stack trace");
    }
}
