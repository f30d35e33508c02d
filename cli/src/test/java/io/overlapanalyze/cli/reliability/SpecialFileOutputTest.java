package io.overlapanalyze.cli.reliability;

import io.overlapanalyze.cli.ExitCodes;
import io.overlapanalyze.synth.KinetoScenarioWriter;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Outputs that are not regular files stay what they are: a FIFO and a character device are
 * written through (never replaced by a regular file, no temporary file next to them), a socket is
 * refused with one line; {@code -} is standard output; two outputs of one run on the same file are
 * refused before anything is written (one would silently replace the other).
 */
class SpecialFileOutputTest {
    @TempDir
    Path tmp;

    private Path trace;

    private record Writer(String name, BiFunction<Path, Path, String[]> args) {
    }

    private static final List<Writer> WRITERS = List.of(
            new Writer("analyse -o", (in, out) -> a(in, "-o", out)),
            new Writer("analyse --html", (in, out) -> a(in, "--html", out)),
            new Writer("summary -o", (in, out) -> a("summary", in, "-o", out)),
            new Writer("annotate -o", (in, out) -> a("annotate", in, "-o", out)),
            new Writer("whatif -o", (in, out) -> a("whatif", in, "-o", out)),
            new Writer("gate --json", (in, out) -> a("gate", "--baseline", in, in, "--json", out)));

    private static String[] a(Object... parts) {
        return Arrays.stream(parts).map(Object::toString).toArray(String[]::new);
    }

    @BeforeEach
    void trace() throws IOException {
        trace = tmp.resolve("rank0.pt.trace.json");
        KinetoScenarioWriter.write(HostileCorpus.scenario(), trace);
    }

    private static boolean isRoot() {
        return "root".equals(System.getProperty("user.name"));
    }

    private static int mode(Path p) throws IOException {
        return ((Integer) Files.getAttribute(p, "unix:mode")) & 0170000;
    }

    private static void exec(String... cmd) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        assertTrue(p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0, List.of(cmd) + ": " + out);
    }

    private List<Path> listing() throws IOException {
        try (Stream<Path> s = Files.list(tmp)) {
            return s.map(Path::getFileName).sorted().toList();
        }
    }

    @Test
    void aFifoIsWrittenThroughAndStaysAFifo() throws Exception {
        Path fifo = tmp.resolve("report.fifo");
        exec("mkfifo", fifo.toString());
        for (Writer w : WRITERS) {
            List<Path> before = listing();
            // The reader opens the FIFO as `cat` would; the writer's open waits for it.
            CompletableFuture<byte[]> reader = CompletableFuture.supplyAsync(() -> {
                try {
                    return Files.readAllBytes(fifo);
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
            Cli run = Cli.run(w.args().apply(trace, fifo));
            run.assertNoCrash(w.name());
            assertTrue(run.exitCode() == ExitCodes.OK || run.exitCode() == ExitCodes.REGRESSION,
                    w.name() + ": exit " + run.exitCode() + ": " + run.err());
            byte[] got = reader.get(20, TimeUnit.SECONDS);
            assertTrue(got.length > 100, w.name() + ": the report went through the FIFO (" + got.length + " bytes)");
            assertEquals(0010000, mode(fifo), w.name() + ": still a FIFO");
            assertEquals(before, listing(), w.name() + ": no temporary file next to the FIFO");
        }
    }

    @Test
    void aCharacterDeviceIsWrittenThroughAndStaysADevice() throws Exception {
        Path device;
        if (isRoot()) {
            // A private null device (major 1, minor 3): the real /dev/null is never put at risk.
            device = tmp.resolve("null-device");
            exec("mknod", device.toString(), "c", "1", "3");
        } else {
            System.out.println("SpecialFileOutputTest: not root: writing to the real /dev/null (which a non-root "
                    + "user cannot replace; the root case uses a private device node)");
            device = Path.of("/dev/null");
        }
        for (Writer w : WRITERS) {
            List<Path> before = listing();
            Cli run = Cli.run(w.args().apply(trace, device));
            run.assertNoCrash(w.name());
            assertTrue(run.exitCode() == ExitCodes.OK || run.exitCode() == ExitCodes.REGRESSION,
                    w.name() + " -> " + device + ": exit " + run.exitCode() + ": " + run.err());
            assertEquals(0020000, mode(device), w.name() + ": still a character device");
            assertEquals(0, Files.size(device), w.name() + ": still the null device");
            assertEquals(before, listing(), w.name() + ": no temporary file next to the device");
        }
    }

    @Test
    void aSocketIsRefused() throws Exception {
        Path socket = tmp.resolve("report.sock");
        try (ServerSocketChannel ch = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            ch.bind(UnixDomainSocketAddress.of(socket));
            for (Writer w : WRITERS) {
                Cli.run(w.args().apply(trace, socket)).assertOneLineError(socket, w.name() + " onto a socket");
                assertEquals(0140000, mode(socket), w.name() + ": still a socket");
            }
        } finally {
            Files.deleteIfExists(socket);
        }
    }

    @Test
    void dashIsStandardOutput() throws IOException {
        List<Path> before = listing();
        Cli run = Cli.run(trace.toString(), "-f", "json", "-o", "-");
        assertEquals(ExitCodes.OK, run.exitCode(), run.err());
        assertTrue(run.out().contains("\"schemaVersion\""), "the report on standard output: " + run.out());
        Cli summary = Cli.run("summary", trace.toString(), "-o", "-");
        assertEquals(ExitCodes.OK, summary.exitCode(), summary.err());
        assertTrue(summary.out().contains("overlap-analyze summary"), summary.out());
        assertEquals(before, listing(), "no file named '-'");
    }

    @Test
    void twoOutputsOnOneFileAreRefused() throws IOException {
        Path x = tmp.resolve("x.out");
        Path link = Files.createSymbolicLink(tmp.resolve("x-link.out"), x);
        String[][] runs = {
                {trace.toString(), "-o", x.toString(), "--html", x.toString()},
                {trace.toString(), "-o", x.toString(), "--html", link.toString()},
                {trace.toString(), "--html", "-"},
                {"gate", "--baseline", trace.toString(), trace.toString(), "--json", x.toString(), "--junit",
                        x.toString()},
                {"gate", "--baseline", trace.toString(), trace.toString(), "--markdown", x.toString(), "--json",
                        link.toString()},
                {"gate", "--baseline", trace.toString(), trace.toString(), "--json", "-"},
        };
        for (String[] args : runs) {
            Cli run = Cli.run(args);
            String what = String.join(" ", args);
            run.assertNoCrash(what);
            assertEquals(ExitCodes.BAD_INPUT, run.exitCode(), what + ": " + run.err());
            assertEquals(1, run.errLines().size(), what + ": one line: " + run.err());
            assertTrue(run.err().contains("both write to"), what + ": " + run.err());
            assertFalse(Files.exists(x), what + ": nothing written");
        }
        // Two devices are fine: nothing is lost.
        Assumptions.assumeTrue(Files.exists(Path.of("/dev/null")));
        if (!isRoot()) {
            Cli ok = Cli.run(trace.toString(), "-o", "/dev/null", "--html", "/dev/null");
            assertEquals(ExitCodes.OK, ok.exitCode(), ok.err());
        }
    }
}
