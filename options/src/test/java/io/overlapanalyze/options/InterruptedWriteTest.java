package io.overlapanalyze.options;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 29 item 9: a run ended by SIGTERM (a CI job's timeout; Ctrl-C takes the same shutdown)
 * while it writes its output leaves no hidden {@code .tmp} beside the output. A JVM of its own
 * ({@link WriteForever}) writes through {@link SafeOutput} and stops half-way; the test checks that
 * the temporary file is there, ends the JVM, and lists the directory.
 */
class InterruptedWriteTest {
    @TempDir
    Path dir;

    /** Writes part of a report to {@code args[0]} through SafeOutput, says so, then never finishes. */
    public static final class WriteForever {
        public static void main(String[] args) {
            SafeOutput.writeBytes(Path.of(args[0]), List.of(), out -> {
                out.write("half a report\n".getBytes(StandardCharsets.UTF_8));
                out.flush();
                System.out.println("writing");
                System.out.flush();
                try {
                    Thread.sleep(Long.MAX_VALUE);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
        }
    }

    private static List<String> names(Path d) throws IOException {
        try (Stream<Path> s = Files.list(d)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void sigtermWhileWritingLeavesNoTemporaryFileBesideTheOutput() throws Exception {
        Path out = Files.createDirectories(dir.resolve("out"));
        Path tmp = Files.createDirectories(dir.resolve("tmp"));
        Path report = out.resolve("report.txt");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), "-Djava.io.tmpdir=" + tmp,
                WriteForever.class.getName(), report.toString())
                .redirectError(dir.resolve("err.txt").toFile())
                .start();
        try {
            BufferedReader lines = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
            String said = CompletableFuture.supplyAsync(() -> {
                try {
                    return lines.readLine();
                } catch (IOException e) {
                    return "(unreadable: " + e + ")";
                }
            }).get(60, TimeUnit.SECONDS);
            assertEquals("writing", said, () -> "stderr: " + read(dir.resolve("err.txt")));
            List<String> during = names(out);
            assertEquals(1, during.size(), "one file while writing: " + during);
            assertTrue(during.get(0).startsWith(".report.txt.") && during.get(0).endsWith(".tmp"),
                    "the hidden temporary file is there while writing: " + during);

            p.destroy(); // SIGTERM
            assertTrue(p.waitFor(30, TimeUnit.SECONDS), "the JVM did not end on SIGTERM");
        } finally {
            p.destroyForcibly();
        }
        assertEquals(List.of(), names(out), "files left beside the output");
        assertEquals(List.of(), names(tmp), "files left in the temporary directory");
    }

    private static String read(Path f) {
        try {
            return Files.readString(f);
        } catch (IOException e) {
            return "(" + e + ")";
        }
    }
}
