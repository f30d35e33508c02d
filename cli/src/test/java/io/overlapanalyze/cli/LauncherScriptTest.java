package io.overlapanalyze.cli;


import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.RandomAccessFile;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The launcher script ({@code ./overlap-analyze}), issue 29 items 6 and 9, run by bash on a copy of
 * itself in a made-up checkout whose jar is "built" (no Maven runs) and whose JVM is a fake
 * ({@code JAVA}: a script that writes down its pid and arguments). Its input pre-scan is one
 * bounded {@code find}: 20,000 files take seconds (they took minutes: several processes per file),
 * option values are never scanned ({@code -o /usr} took a minute), sizes decide the JVM flags. It
 * {@code exec}s the JVM, except on the run that writes the class-data-sharing archive, which passes
 * a signal on and leaves neither a JVM nor a {@code .jsa.tmp} behind. Inputs are sparse files: their
 * size is what the scan reads, without the disk space.
 */
class LauncherScriptTest {
    private static final String SMALL_GC = "-XX:+UseSerialGC";
    private static final String BIG_GC = "-XX:+UseParallelGC";
    /** Only the flags for one big JSON trace (the serial collector, a heap that grows to what is live). */
    private static final String ONE_BIG_TRACE = "-XX:MinHeapFreeRatio=10";
    private static final long MB = 1024 * 1024;

    @TempDir
    Path tmp;
    private Path root;
    private Path launcher;
    private Path fakeJava;
    private Path fakeOut;

    @BeforeEach
    void checkout() throws IOException {
        assumeTrue(Files.isExecutable(Path.of("/bin/bash")) || Files.isExecutable(Path.of("/usr/bin/bash")),
                "bash is not installed: the launcher is a bash script");
        root = Files.createDirectories(tmp.resolve("checkout"));
        launcher = root.resolve("overlap-analyze");
        Files.copy(Path.of(System.getProperty("overlap.projectRoot", "..")).resolve("overlap-analyze"), launcher);
        launcher.toFile().setExecutable(true);
        // Sources older than the jar: the launcher does not build.
        Instant old = Instant.now().minus(Duration.ofDays(30));
        Files.setLastModifiedTime(Files.writeString(root.resolve("pom.xml"), "<project/>"), FileTime.from(old));
        for (String module : List.of("trace-formats", "synth", "analyzer", "render", "options", "cli")) {
            Files.createDirectories(root.resolve(module));
        }
        Files.writeString(Files.createDirectories(root.resolve("cli/target")).resolve("overlap-analyze.jar"), "jar");
        fakeOut = tmp.resolve("java-args.txt");
        fakeJava = tmp.resolve("fake-java");
        Files.writeString(fakeJava, """
                #!/usr/bin/env bash
                printf '%s\\n' "pid $$" "$@" > "$FAKE_OUT"
                for a; do
                  case "$a" in -XX:ArchiveClassesAtExit=*) printf 'half an archive' > "${a#*=}" ;; esac
                done
                if [[ -n "${FAKE_HANG:-}" ]]; then
                  echo $$ > "$FAKE_HANG.part" && mv "$FAKE_HANG.part" "$FAKE_HANG"
                  while :; do sleep 0.1; done
                fi
                """);
        Files.setPosixFilePermissions(fakeJava, PosixFilePermissions.fromString("rwx------"));
    }

    private ProcessBuilder launcherProcess(Map<String, String> env, String... args) {
        List<String> command = new ArrayList<>(List.of("bash", launcher.toString()));
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command).directory(tmp.toFile())
                .redirectOutput(tmp.resolve("stdout.txt").toFile())
                .redirectError(tmp.resolve("stderr.txt").toFile());
        pb.environment().remove("OVERLAP_ANALYZE_JAVA_OPTS");
        pb.environment().put("JAVA", fakeJava.toString());
        pb.environment().put("FAKE_OUT", fakeOut.toString());
        pb.environment().put("OVERLAP_ANALYZE_CDS", "0");
        pb.environment().putAll(env);
        return pb;
    }

    /** The fake JVM's lines: "pid N", then its arguments. */
    private List<String> run(Duration bound, String... args) throws Exception {
        Files.deleteIfExists(fakeOut);
        Process p = launcherProcess(Map.of(), args).start();
        try {
            assertTrue(p.waitFor(bound.toSeconds(), TimeUnit.SECONDS),
                    "the launcher did not finish within " + bound.toSeconds() + " s on " + List.of(args));
        } finally {
            p.destroyForcibly();
        }
        assertEquals(0, p.exitValue(), Files.readString(tmp.resolve("stderr.txt")));
        return Files.readAllLines(fakeOut);
    }

    private static void sparse(Path file, long bytes) throws IOException {
        Files.createDirectories(file.getParent());
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
            f.setLength(bytes);
        }
    }

    @Test
    void twentyThousandFilesInADirectoryAreScannedInSeconds() throws Exception {
        Path job = Files.createDirectories(tmp.resolve("job"));
        for (int i = 0; i < 20_000; i++) {
            sparse(job.resolve("rank-" + i + ".pt.trace.json"), 2048); // 20,000 x 2 KB: 39 MB, big
        }
        long start = System.nanoTime();
        List<String> jvm = run(Duration.ofSeconds(120), "-f", "json", job.toString());
        long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start);
        assertTrue(seconds < 30, "the pre-scan of 20,000 files took " + seconds + " s (bound 30 s; it took minutes)");
        assertTrue(jvm.contains(BIG_GC), "39 MB of inputs: the big-input flags: " + jvm);
        assertEquals(List.of("-f", "json", job.toString()), jvm.subList(jvm.size() - 3, jvm.size()),
                "the arguments reach the JVM as given");
    }

    @Test
    void aBigJobGetsABoundedHeapWithOrWithoutAnHtmlPage() throws Exception {
        Path job = Files.createDirectories(tmp.resolve("job"));
        for (int i = 0; i < 65; i++) {
            sparse(job.resolve("rank-" + i + ".pt.trace.json"), 4 * MB); // 65 inputs: the job path spills
        }
        List<String> json = run(Duration.ofSeconds(60), "-f", "json", "-o", tmp.resolve("r.json").toString(),
                job.toString());
        long cores = Runtime.getRuntime().availableProcessors();
        // The readers': 1 GB and half the largest input's 4 MB per reader (one per core), half of it young;
        // the digests': an eighth of the 65 x 4 MB of inputs (32.5 MB, whole MB).
        long readers = 1024 + cores * 2;
        assertTrue(json.contains("-Xmn" + readers / 2 + "m"), json.toString());
        assertTrue(json.contains("-Xmx" + (readers + 32) + "m"), json.toString());
        assertFalse(json.contains("-XX:MaxRAMPercentage=50"), json.toString());
        // The text and markdown reports and the HTML page (alone or beside another report) spill as JSON
        // does: the same heap.
        for (String[] args : List.of(new String[] {job.toString()}, new String[] {"-f", "markdown", job.toString()},
                new String[] {"-f", "json", "--html", tmp.resolve("p.html").toString(), job.toString()},
                new String[] {"--html=" + tmp.resolve("q.html"), "-o", tmp.resolve("r.txt").toString(),
                        job.toString()})) {
            List<String> human = run(Duration.ofSeconds(60), args);
            assertTrue(human.contains("-Xmx" + (readers + 32) + "m"), List.of(args) + ": " + human);
            assertFalse(human.contains("-XX:MaxRAMPercentage=50"), List.of(args) + ": " + human);
        }
        List<String> other = run(Duration.ofSeconds(60), "summary", job.toString());
        assertTrue(other.contains("-XX:MaxRAMPercentage=50"), "another command: the default heap, " + other);
        assertTrue(other.stream().noneMatch(a -> a.startsWith("-Xmx") || a.startsWith("-Xmn")), other.toString());
        Files.delete(job.resolve("rank-64.pt.trace.json"));
        List<String> small = run(Duration.ofSeconds(60), "-f", "json", job.toString());
        assertTrue(small.contains("-XX:MaxRAMPercentage=50"), "64 inputs are not spilled: " + small);
    }

    @Test
    void optionValuesAreNeverScannedInputsAre() throws Exception {
        Path big = tmp.resolve("big");
        sparse(big.resolve("deep/er/x.pt.trace.json"), 40 * MB);
        Path gz = tmp.resolve("one.pt.trace.json.gz");
        sparse(gz, 4 * MB); // counted ten-fold: what will be parsed
        Path dashed = tmp.resolve("-dashed");
        sparse(dashed.resolve("x.json"), 40 * MB);
        Path small = tmp.resolve("small.json");
        sparse(small, MB);

        assertTrue(run(Duration.ofSeconds(60), big.toString()).contains(BIG_GC), "a big directory as input");
        List<String> oneGz = run(Duration.ofSeconds(60), gz.toString());
        assertTrue(oneGz.contains(ONE_BIG_TRACE) && oneGz.contains(SMALL_GC) && !oneGz.contains(BIG_GC),
                "4 MB of gzip is 40 MB to parse, one trace: " + oneGz);
        assertTrue(run(Duration.ofSeconds(60), "--", dashed.getFileName().toString()).contains(BIG_GC),
                "after --, a name starting with - is an input");
        List<String> smallOne = run(Duration.ofSeconds(60), small.toString());
        assertTrue(smallOne.contains(SMALL_GC) && !smallOne.contains(ONE_BIG_TRACE), "1 MB: small: " + smallOne);
        // The same big directory as the value of options: never scanned.
        assertTrue(run(Duration.ofSeconds(60), small.toString(), "-o", big.toString()).contains(SMALL_GC), "-o DIR");
        assertTrue(run(Duration.ofSeconds(60), "--html", big.toString(), small.toString()).contains(SMALL_GC), "--html");
        assertTrue(run(Duration.ofSeconds(60), "gate", "--baseline", big.toString(), "--junit", gz.toString(),
                small.toString()).contains(SMALL_GC), "gate --baseline --junit");
        assertTrue(run(Duration.ofSeconds(60), "--output=" + big, small.toString()).contains(SMALL_GC), "--output=DIR");
        assertTrue(run(Duration.ofSeconds(60), "-f", "json", "--debug", big.toString()).contains(BIG_GC),
                "a flag (--debug) takes no value: the next argument is an input");
    }

    @Test
    void oneBigJsonTraceGetsTheSerialCollectorAndAGrowingHeap() throws Exception {
        Path one = tmp.resolve("rank0.pt.trace.json");
        sparse(one, 40 * MB);
        Path other = tmp.resolve("rank1.pt.trace.json");
        sparse(other, 40 * MB);
        Path sqlite = tmp.resolve("report.sqlite");
        sparse(sqlite, 40 * MB);

        List<String> single = run(Duration.ofSeconds(60), "-f", "json", one.toString());
        assertTrue(single.containsAll(List.of(SMALL_GC, ONE_BIG_TRACE, "-XX:MaxRAMPercentage=50", "-Xms256m",
                "-XX:MaxHeapFreeRatio=30", "-XX:TieredStopAtLevel=1")), single.toString());
        assertFalse(single.contains(BIG_GC), single.toString());
        assertTrue(single.stream().noneMatch(a -> a.startsWith("-Xmx")), "the limit stays half the machine: " + single);
        for (String[] args : List.of(new String[] {one.toString(), other.toString()}, new String[] {sqlite.toString()},
                new String[] {"diff", one.toString(), other.toString()})) {
            List<String> jvm = run(Duration.ofSeconds(60), args);
            assertTrue(jvm.contains(BIG_GC) && !jvm.contains(ONE_BIG_TRACE),
                    "not one JSON trace: the big-input flags, " + List.of(args) + ": " + jvm);
        }
    }

    @Test
    void theLauncherBecomesTheJvm() throws Exception {
        Process p = launcherProcess(Map.of(), "--version").start();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals("pid " + p.pid(), Files.readAllLines(fakeOut).get(0),
                "exec: killing the launcher's pid kills the JVM");
        // With an archive already written: exec too.
        String stamp = stamp();
        Files.writeString(root.resolve("cli/target/overlap-analyze-" + stamp + ".jsa"), "archive");
        Process q = launcherProcess(Map.of("OVERLAP_ANALYZE_CDS", "1"), "--version").start();
        assertTrue(q.waitFor(60, TimeUnit.SECONDS));
        List<String> jvm = Files.readAllLines(fakeOut);
        assertEquals("pid " + q.pid(), jvm.get(0));
        assertTrue(jvm.stream().anyMatch(a -> a.startsWith("-XX:SharedArchiveFile=")), jvm.toString());
    }

    /** The launcher's archive stamp: the jar's size and modification time, as stat -c '%s-%Y' says. */
    private String stamp() throws IOException {
        Path jar = root.resolve("cli/target/overlap-analyze.jar");
        return Files.size(jar) + "-" + Files.getLastModifiedTime(jar).to(TimeUnit.SECONDS);
    }

    @Test
    void killingTheRunThatWritesTheArchiveLeavesNoJvmAndNoTemporaryArchive() throws Exception {
        Path target = root.resolve("cli/target");
        // Left by a launcher killed earlier (a pid above any pid_max): swept. One of a live launcher stays.
        Path stale = Files.writeString(target.resolve("overlap-analyze-1-2.jsa.4194399999.tmp"), "stale");
        Path live = Files.writeString(target.resolve("overlap-analyze-1-2.jsa." + ProcessHandle.current().pid()
                + ".tmp"), "live");
        Path hang = tmp.resolve("jvm.pid");
        Process p = launcherProcess(Map.of("OVERLAP_ANALYZE_CDS", "1", "FAKE_HANG", hang.toString()), "x.json").start();
        long jvmPid;
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (!Files.exists(hang) && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            assertTrue(Files.exists(hang), "the fake JVM did not start: " + Files.readString(tmp.resolve("stderr.txt")));
            jvmPid = Long.parseLong(Files.readString(hang).trim());
            assertTrue(jvmPid != p.pid(), "the archive run has the JVM as a child");
            assertTrue(listing(target).stream().anyMatch(n -> n.matches("overlap-analyze-.*\\.jsa\\." + p.pid() + "\\.tmp")),
                    "the temporary archive is being written: " + listing(target));
            assertFalse(Files.exists(stale), "a stale temporary archive (its launcher is gone) is swept");

            p.destroy(); // SIGTERM, as a CI job's timeout sends
            assertTrue(p.waitFor(30, TimeUnit.SECONDS), "the launcher did not end on SIGTERM");
        } finally {
            p.destroyForcibly();
        }
        assertEquals(143, p.exitValue(), "128 + SIGTERM");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (ProcessHandle.of(jvmPid).map(ProcessHandle::isAlive).orElse(false) && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        assertFalse(ProcessHandle.of(jvmPid).map(ProcessHandle::isAlive).orElse(false), "the JVM outlived the launcher");
        assertEquals(List.of(live.getFileName().toString(), "overlap-analyze.jar"), listing(target),
                "no temporary archive left");
    }

    private static List<String> listing(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    /**
     * The launcher's list of options that take a value is every command's: an option missing from
     * it would have its value scanned as an input (an output directory walked), one too many would
     * hide an input from the scan.
     */
    @Test
    void theLaunchersValueOptionsAreTheCommands() throws IOException {
        String script = Files.readString(launcher);
        Matcher m = Pattern.compile("(?s)\\nvalue_options=\"(.*?)\"").matcher(script);
        assertTrue(m.find(), "value_options in the launcher");
        TreeSet<String> inLauncher = new TreeSet<>(List.of(m.group(1).replace("\\\n", "").trim().split("\\s+")));

        TreeSet<String> inCommands = new TreeSet<>();
        collect(Main.commandLine(new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter())), inCommands);
        assertEquals(inCommands, inLauncher, "options that take a value: the commands' (left), the launcher's (right)");
    }

    private static void collect(CommandLine cl, TreeSet<String> names) {
        for (CommandLine.Model.OptionSpec o : cl.getCommandSpec().options()) {
            if (o.arity().max() > 0) {
                names.addAll(List.of(o.names()));
            }
        }
        for (CommandLine sub : cl.getSubcommands().values()) {
            collect(sub, names);
        }
    }
}
