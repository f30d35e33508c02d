package io.overlapanalyze.cli.reliability;

import io.overlapanalyze.cli.ExitCodes;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every case of the generated hostile-input corpus ({@link HostileCorpus}:
 * garbage, wrong shapes, every field of every event kind with every wrong type, NaN/Infinity, numbers
 * beyond 64 bits, deep nesting, huge strings, invalid UTF-8, control characters, duplicate, zero,
 * negative, overlapping and out-of-order events, truncations at structural points, damaged gzip,
 * SQLite that is not an export, corrupt and cut SQLite pages, wrong column types, Ascend {@code ts}
 * that are not numbers, Ascend truncations) runs through the whole CLI under a 20 s hang guard:
 * exit code 0 or 2 as documented, never a stack trace, on error one line naming the file, and the
 * input is left exactly as it was.
 */
class HostileInputCorpusTest {
    private static final String[] SIDE_FILES = {"-journal", "-wal", "-shm"};

    @TempDir
    static Path corpusDir;

    @TestFactory
    Stream<DynamicTest> everyCaseOfTheCorpus() throws IOException {
        List<HostileCorpus.Case> cases = HostileCorpus.generate(corpusDir);
        assertTrue(cases.size() > 1000, "corpus size " + cases.size());
        Map<HostileCorpus.Expect, Integer> counts = new EnumMap<>(HostileCorpus.Expect.class);
        cases.forEach(c -> counts.merge(c.expect(), 1, Integer::sum));
        assertTrue(counts.getOrDefault(HostileCorpus.Expect.ERROR, 0) >= 30
                && counts.getOrDefault(HostileCorpus.Expect.ANALYSED, 0) >= 15, "a mixed corpus: " + counts);
        List<DynamicTest> tests = new ArrayList<>();
        for (int i = 0; i < cases.size(); i++) {
            HostileCorpus.Case c = cases.get(i);
            boolean json = i % 2 == 1; // half through the JSON renderer, half through the text one
            tests.add(DynamicTest.dynamicTest(c.name() + (json ? " (-f json)" : ""), () -> check(c, json)));
        }
        return tests.stream();
    }

    private static void check(HostileCorpus.Case c, boolean json) throws IOException {
        Path in = c.input();
        long size = Files.isRegularFile(in) ? Files.size(in) : -1;
        FileTime mtime = Files.getLastModifiedTime(in);
        Map<String, Long> sideFiles = new java.util.HashMap<>(); // a -wal or -journal that is part of the case
        for (String side : SIDE_FILES) {
            Path p = in.resolveSibling(in.getFileName() + side);
            if (Files.exists(p)) {
                sideFiles.put(side, Files.size(p));
            }
        }
        Cli run = json ? Cli.run("-f", "json", in.toString()) : Cli.run(in.toString());
        switch (c.expect()) {
            case ERROR -> run.assertOneLineError(in, c.name());
            case ANALYSED -> run.assertAnalysed(c.name());
            case EITHER -> {
                run.assertNoCrash(c.name());
                if (run.exitCode() == ExitCodes.BAD_INPUT) {
                    run.assertOneLineError(in, c.name());
                }
            }
        }
        if (run.exitCode() == ExitCodes.OK && c.name().startsWith("kineto-truncated/")) {
            assertTrue(run.out().contains("truncated"), c.name() + ": analysed with a warning that names the cut: "
                    + Cli.abbreviate(run.out()));
        }
        if (c.name().startsWith("parser-limits/")) {
            assertTrue(!run.out().contains("truncated"), c.name() + ": a sound file is read whole, not cut at a "
                    + "parser limit: " + Cli.abbreviate(run.out()));
        }
        // Never touch an input: same size, same time, no side files (-journal, -wal, -shm).
        if (size >= 0) {
            assertEquals(size, Files.size(in), c.name() + ": input size changed");
        }
        assertEquals(mtime, Files.getLastModifiedTime(in), c.name() + ": input modified");
        for (String side : SIDE_FILES) {
            Path p = in.resolveSibling(in.getFileName() + side);
            if (sideFiles.containsKey(side)) {
                assertEquals(sideFiles.get(side), Files.size(p), c.name() + ": " + p.getFileName() + " changed");
            } else {
                assertTrue(!Files.exists(p), c.name() + ": " + p.getFileName() + " appeared next to the input");
            }
        }
    }

    /**
     * Issue 29, item 5: names from a trace (step, user annotation, kernel, process group, thread,
     * device, file) that hold ESC sequences, CR LF, a forged table row and headline, a remote image,
     * a script tag and U+202E ({@link HostileNames}) reach no output raw: text and stderr with every
     * control shown as {@code \xHH}, markdown with one title and no image or HTML from the input,
     * JUnit XML that parses, JSON that parses and keeps the name exactly, HTML with no element from a
     * name.
     */
    @TestFactory
    Stream<DynamicTest> hostileNamesInEveryOutput() throws IOException {
        Path dir = Files.createDirectories(corpusDir.resolve("hostile-names"));
        List<Path> ranks = HostileNames.writeJob(dir);
        String job = ranks.get(0).getParent().toString();
        String a = ranks.get(0).toString();
        String b = ranks.get(1).toString();
        return Stream.of(
                DynamicTest.dynamicTest("analyze, text with timelines", () -> {
                    Cli run = HostileNames.assertCleanRun("analyze", Cli.run("--timeline", job));
                    assertTrue(run.out().contains(HostileNames.STEP_SHOWN), run.out());
                    assertTrue(run.err().contains("negative\\x1b[2J"), "the warning quotes the kernel: " + run.err());
                }),
                DynamicTest.dynamicTest("analyze, markdown", () -> HostileNames.assertMarkdownSafe("-f markdown",
                        HostileNames.assertCleanRun("-f markdown", Cli.run("-f", "markdown", job)).out(), null)),
                DynamicTest.dynamicTest("analyze, JSON and HTML", () -> {
                    Path html = dir.resolve("report.html");
                    Cli run = HostileNames.assertCleanRun("-f json --html",
                            Cli.run("-f", "json", "--html", html.toString(), job));
                    com.fasterxml.jackson.databind.JsonNode report =
                            new com.fasterxml.jackson.databind.ObjectMapper().readTree(run.out());
                    assertEquals("ProfilerStep#1 " + HostileNames.NAME,
                            report.get("ranks").get(0).get("steps").get(0).get("name").asText(),
                            "the name kept exactly");
                    HostileNames.assertHtmlSafe(html);
                }),
                DynamicTest.dynamicTest("diff, text and markdown", () -> {
                    HostileNames.assertCleanRun("diff", Cli.run("diff", a, b));
                    Cli md = HostileNames.assertCleanRun("diff -f markdown", Cli.run("diff", "-f", "markdown", a, b));
                    HostileNames.assertMarkdownSafe("diff -f markdown", md.out(), null);
                }),
                DynamicTest.dynamicTest("summary, then gate with --markdown and --junit", () -> {
                    Path summary = dir.resolve("baseline.json");
                    HostileNames.assertCleanRun("summary", Cli.run("summary", "-o", summary.toString(), a));
                    HostileNames.assertNoRawControl("summary file", Files.readString(summary));
                    Path md = dir.resolve("gate.md");
                    Path junit = dir.resolve("gate.xml");
                    HostileNames.assertCleanRun("gate", Cli.run("gate", "--baseline", summary.toString(), "--check",
                            "annotations", "--markdown", md.toString(), "--junit", junit.toString(), b));
                    HostileNames.assertMarkdownSafe("gate --markdown", Files.readString(md), 1);
                    HostileNames.assertJunitSafe(junit, 4);
                }),
                DynamicTest.dynamicTest("whatif", () -> HostileNames.assertCleanRun("whatif", Cli.run("whatif", a))));
    }

    /**
     * Issue 29 items 9 and 11: a job directory assembled with {@code ln -s}. A link named only by rank
     * to a trace outside it is read; a loop, a link to nothing and a link to a directory outside it
     * (named with an escape sequence) are named one line each on stderr, escaped; the run is analysed
     * (exit 0, it was "holds no trace files"), the JSON report written with {@code -o} is valid and
     * alone in its directory (no temporary file left beside it).
     */
    @org.junit.jupiter.api.Test
    void aJobDirectoryOfSymbolicLinksIsAnalysedAndItsBadLinksNamed() throws IOException {
        Path base = Files.createDirectories(corpusDir.resolve("fs-links"));
        Path ranks = Files.createDirectories(base.resolve("ranks"));
        Path job = Files.createDirectories(base.resolve("job"));
        Path elsewhere = Files.createDirectories(base.resolve("elsewhere"));
        Files.write(ranks.resolve("rank-0.pt.trace.json"), HostileCorpus.kinetoSeed());
        Files.createSymbolicLink(job.resolve("r0"), ranks.resolve("rank-0.pt.trace.json"));
        Files.createSymbolicLink(job.resolve("loop"), Path.of("loop"));
        Files.createSymbolicLink(job.resolve("gone"), Path.of("no-such-file"));
        Files.createSymbolicLink(job.resolve("evil\u001b]0;owned\u0007\u001b[2J"), elsewhere);
        Path out = Files.createDirectories(base.resolve("out"));

        Cli run = Cli.run("-f", "json", "-o", out.resolve("report.json").toString(), job.toString());
        run.assertNoCrash("a job directory of links");
        assertEquals(ExitCodes.OK, run.exitCode(), run.err());
        List<String> err = run.errLines();
        assertEquals(3, err.stream().filter(l -> l.contains("symbolic link")).count(), "one line per bad link: " + err);
        assertTrue(err.stream().anyMatch(l -> l.contains("/job/loop") && l.contains("a loop of symbolic links")), err::toString);
        assertTrue(err.stream().anyMatch(l -> l.contains("/job/gone") && l.contains("a symbolic link to nothing")), err::toString);
        assertTrue(err.stream().anyMatch(l -> l.contains("/job/evil") && l.contains("a directory outside")), err::toString);
        assertTrue(run.err().chars().noneMatch(c -> c < 0x20 && c != '\n' && c != '\t'),
                "no raw control character on stderr: " + run.err());
        var report = HostileCorpus.JSON.readTree(out.resolve("report.json").toFile());
        assertTrue(report.has("steps") || report.toString().contains("\"steps\""), "a report was written");
        try (Stream<Path> files = Files.list(out)) {
            assertEquals(List.of("report.json"), files.map(f -> f.getFileName().toString()).toList(),
                    "nothing left beside the output");
        }
    }

    // ------------------------------------------------------------------ damaged Ascend side files, unreadable times, skewed clocks

    /**
     * issue 29 items 4, 7 and 8 through the whole CLI, each in text and JSON: a NUL-filled or oversized
     * side file of an Ascend capture (sparse files: no gigabyte is written), time columns that cannot be
     * read (Nsight launch calls, Ascend DB tables, the Ascend text timeline) and host and device clocks
     * that disagree. Each: exit 0 (the rest is analysed), a warning on stderr that names the input and
     * says what was wrong, no stack trace, no raw control character, valid JSON, nothing left beside
     * the input, and where the issue quotes a number that moved, the number of the undamaged input.
     */
    @TestFactory
    Stream<DynamicTest> readersCases() throws Exception {
        Path root = Files.createDirectories(corpusDir.resolve("readers"));
        List<ReadersCase> cases = new ArrayList<>();
        Path shared = sharedTraces();
        if (shared != null) {
            Path text = shared.resolve("ascend/torch_npu_text_level1/rank0_ascend_pt");
            Path db = shared.resolve("ascend/torch_npu_db_level1/rank0_ascend_pt");
            cases.add(new ReadersCase("ascend-nul-memory-record-3gb", () -> {
                Path c = copyTree(text, root.resolve("nul-memory/rank0_ascend_pt"));
                sparse(c.resolve("ASCEND_PROFILER_OUTPUT/memory_record.csv"), 3L << 30);
                return c;
            }, List.of(), "memory_record.csv not read (line 1 holds NUL bytes", null));
            cases.add(new ReadersCase("ascend-nul-profiler-info-3gb", () -> {
                Path c = copyTree(text, root.resolve("nul-info/rank0_ascend_pt"));
                sparse(c.resolve("profiler_info_0.json"), 3L << 30);
                return c;
            }, List.of(), "profiler_info_0.json: not read", null));
            cases.add(new ReadersCase("ascend-memory-record-over-max-input-size", () -> {
                Path c = copyTree(text, root.resolve("big-memory/rank0_ascend_pt"));
                sparse(c.resolve("ASCEND_PROFILER_OUTPUT/memory_record.csv"), 64L << 20);
                return c;
            }, List.of("--max-input-size=32m"), "over the input size limit", null));
            cases.add(new ReadersCase("ascend-text-ts-not-a-number", () -> {
                Path c = copyTree(text, root.resolve("text-ts/rank0_ascend_pt"));
                Path tv = c.resolve("ASCEND_PROFILER_OUTPUT/trace_view.json");
                String t = Files.readString(tv);
                String task = "{\"name\": \"trans_TransData_0\", \"pid\": 3170820512, \"tid\": 2, \"ts\": \"";
                assertTrue(t.contains(task), "the shared capture changed");
                Files.writeString(tv, t.replaceFirst(java.util.regex.Pattern.quote(task) + "[0-9.]+", task.replace("$", "") + "n/a"));
                return c;
            }, List.of(), "\"Ascend Hardware\" events without a readable \"ts\" skipped", null));
            cases.add(new ReadersCase("ascend-db-cann-start-null", () -> {
                Path c = copyTree(db, root.resolve("cann-null/rank0_ascend_pt"));
                sql(c.resolve("ASCEND_PROFILER_OUTPUT/ascend_pytorch_profiler_0.db"), "UPDATE CANN_API SET startNs = NULL");
                return c;
            }, List.of(), "CANN_API rows without an integer startNs", db));
            cases.add(new ReadersCase("ascend-db-step-time-end-not-a-number", () -> {
                Path c = copyTree(db, root.resolve("step-abc/rank0_ascend_pt"));
                sql(c.resolve("ASCEND_PROFILER_OUTPUT/ascend_pytorch_profiler_0.db"), "DELETE FROM PYTORCH_API WHERE name IN"
                        + " (SELECT id FROM STRING_IDS WHERE value LIKE 'ProfilerStep#%')", "UPDATE STEP_TIME SET endNs = 'abc'");
                return c;
            }, List.of(), "STEP_TIME rows without an integer endNs skipped", null));
        }
        Path nsysOriginal = root.resolve("nsys-original.sqlite");
        io.overlapanalyze.synth.NsysScenarioWriter.write(io.overlapanalyze.synth.BuiltinScenarios.get("training-jitter"),
                nsysOriginal);
        cases.add(new ReadersCase("nsys-launch-start-not-a-number", () -> {
            Path f = Files.copy(nsysOriginal, Files.createDirectories(root.resolve("nsys-na")).resolve("rank-0.sqlite"));
            sql(f, "UPDATE CUPTI_ACTIVITY_KIND_RUNTIME SET start = 'n/a' WHERE rowid = (SELECT rowid FROM"
                    + " CUPTI_ACTIVITY_KIND_RUNTIME WHERE nameId IN (SELECT id FROM StringIds WHERE value LIKE 'cudaLaunch%')"
                    + " ORDER BY start LIMIT 1 OFFSET 20)");
            return f;
        }, List.of(), "CUPTI_ACTIVITY_KIND_RUNTIME rows without an integer start", nsysOriginal));
        for (boolean links : new boolean[] {true, false}) {
            cases.add(new ReadersCase("kineto-device-clock-behind" + (links ? "" : "-without-launch-links"), () -> {
                Path dir = Files.createDirectories(root.resolve("skew" + links));
                return skewedKineto(dir, links ? -50_000 : -1_000_000, !links);
            }, List.of(), "host and device clocks disagree", null));
        }
        List<DynamicTest> tests = new ArrayList<>();
        for (ReadersCase c : cases) {
            tests.add(DynamicTest.dynamicTest("readers/" + c.name(), () -> checkReaders(c)));
        }
        return tests.stream();
    }

    /**
     * One case: {@code build} makes the input; {@code warning} must be on stderr; {@code sameAs}, when
     * set, is the undamaged input whose step times and exposed communication the damaged one must give.
     */
    private record ReadersCase(String name, java.util.concurrent.Callable<Path> build, List<String> options,
                               String warning, Path sameAs) {
    }

    private static void checkReaders(ReadersCase c) throws Exception {
        Path in = c.build().call();
        List<String> beside = listing(in.toAbsolutePath().getParent());
        for (boolean json : new boolean[] {false, true}) {
            List<String> args = new ArrayList<>(c.options());
            if (json) {
                args.add("-f");
                args.add("json");
            }
            args.add(in.toString());
            Cli run = Cli.run(args.toArray(String[]::new)).assertAnalysed(c.name());
            String line = run.errLines().stream().filter(l -> l.contains(c.warning())).findFirst()
                    .orElseThrow(() -> new AssertionError(c.name() + ": no warning with \"" + c.warning() + "\": " + run.err()));
            assertTrue(line.contains(in.getFileName().toString()), c.name() + ": the warning names the input: " + line);
            assertNoRawControl(c.name(), run.out());
            assertNoRawControl(c.name(), run.err());
            if (!json && c.name().startsWith("kineto-device-clock-behind")) {
                // The text report says it too, beside the step table, not only the JSON's step notes.
                assertTrue(run.out().contains("steps: not available: no usable data: "), c.name() + ": " + run.out());
            }
            if (json) {
                com.fasterxml.jackson.databind.JsonNode report = new com.fasterxml.jackson.databind.ObjectMapper().readTree(run.out());
                if (c.sameAs() != null) {
                    List<String> originalArgs = new ArrayList<>(args.subList(0, args.size() - 1));
                    originalArgs.add(c.sameAs().toString());
                    com.fasterxml.jackson.databind.JsonNode original = new com.fasterxml.jackson.databind.ObjectMapper()
                            .readTree(Cli.run(originalArgs.toArray(String[]::new)).assertAnalysed(c.name()).out());
                    assertEquals(stepFigures(original), stepFigures(report), c.name() + ": the numbers did not move");
                }
                if (c.name().startsWith("kineto-device-clock-behind")) {
                    for (com.fasterxml.jackson.databind.JsonNode step : report.path("ranks").get(0).path("steps")) {
                        assertTrue(step.path("partial").asBoolean() && step.path("notes").toString()
                                .contains("no usable data"), c.name() + ": " + step.path("name") + " marked unusable");
                    }
                }
            }
        }
        assertEquals(beside, listing(in.toAbsolutePath().getParent()), c.name() + ": files appeared beside the input");
    }

    /** Per step of the first rank: name, step time, exposed communication. */
    private static List<String> stepFigures(com.fasterxml.jackson.databind.JsonNode report) {
        List<String> out = new ArrayList<>();
        for (com.fasterxml.jackson.databind.JsonNode step : report.path("ranks").get(0).path("steps")) {
            out.add(step.path("name").asText() + " " + step.path("stepTimeNs").asLong() + " " + step.path("exposedCommNs").asLong());
        }
        assertTrue(!out.isEmpty(), "a step to compare");
        return out;
    }

    private static void assertNoRawControl(String what, String text) {
        for (int i = 0; i < text.length(); i++) {
            char ch = text.charAt(i);
            assertTrue(ch >= 0x20 || ch == '\n' || ch == '\t' || ch == '\r', what + ": a raw control character "
                    + (int) ch + " in the output");
        }
    }

    private static List<String> listing(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    /** ../shared/traces (or -Doverlap.sharedTraces), or {@code null}: its cases are then left out. */
    private static Path sharedTraces() {
        String prop = System.getProperty("overlap.sharedTraces");
        Path dir = prop != null ? Path.of(prop) : Path.of("..", "..", "shared", "traces");
        return Files.isDirectory(dir) ? dir : null;
    }

    private static Path copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> s = Files.walk(from)) {
            for (Path p : s.toList()) {
                Path t = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(t);
                } else {
                    Files.copy(p, t);
                    t.toFile().setWritable(true);
                }
            }
        }
        return to;
    }

    /** {@code file} replaced by a sparse file of {@code length} NUL bytes (nothing written to disk). */
    private static void sparse(Path file, long length) throws IOException {
        Files.deleteIfExists(file);
        try (java.io.RandomAccessFile f = new java.io.RandomAccessFile(file.toFile(), "rw")) {
            f.setLength(length);
        }
    }

    private static void sql(Path db, String... statements) throws java.sql.SQLException {
        try (java.sql.Connection c = java.sql.DriverManager.getConnection("jdbc:sqlite:" + db.toAbsolutePath());
             java.sql.Statement st = c.createStatement()) {
            for (String s : statements) {
                st.execute(s);
            }
        }
    }

    /** The generated training-jitter Kineto trace with every device event moved by {@code deltaUs}. */
    private static Path skewedKineto(Path dir, long deltaUs, boolean dropLaunchLinks) throws IOException {
        Path original = dir.resolve("original.json");
        io.overlapanalyze.synth.KinetoScenarioWriter.write(io.overlapanalyze.synth.BuiltinScenarios.get("training-jitter"),
                original);
        com.fasterxml.jackson.databind.ObjectMapper json = new com.fasterxml.jackson.databind.ObjectMapper();
        com.fasterxml.jackson.databind.node.ObjectNode root =
                (com.fasterxml.jackson.databind.node.ObjectNode) json.readTree(original.toFile());
        com.fasterxml.jackson.databind.node.ArrayNode kept = json.createArrayNode();
        for (com.fasterxml.jackson.databind.JsonNode e : root.get("traceEvents")) {
            String cat = e.path("cat").asText();
            if (dropLaunchLinks && cat.equals("ac2g")) {
                continue;
            }
            if (List.of("kernel", "gpu_memcpy", "gpu_memset", "gpu_user_annotation").contains(cat)) {
                com.fasterxml.jackson.databind.node.ObjectNode o = (com.fasterxml.jackson.databind.node.ObjectNode) e;
                o.put("ts", e.get("ts").decimalValue().add(java.math.BigDecimal.valueOf(deltaUs)));
                if (dropLaunchLinks) {
                    ((com.fasterxml.jackson.databind.node.ObjectNode) e.get("args")).remove(List.of("correlation", "External id"));
                }
            }
            kept.add(e);
        }
        root.set("traceEvents", kept);
        Files.delete(original);
        Path out = dir.resolve("skewed.json");
        json.writeValue(out.toFile(), root);
        return out;
    }

    // ---- regular expressions, annotation names, huge rank ids, Errors: each under the hang guard of Cli.run ----

    private static final com.fasterxml.jackson.databind.ObjectMapper JSON = new com.fasterxml.jackson.databind.ObjectMapper();

    /** The Kineto seed as a tree, for the cases below to change. */
    private static com.fasterxml.jackson.databind.node.ObjectNode seedTree() throws IOException {
        return (com.fasterxml.jackson.databind.node.ObjectNode) JSON.readTree(HostileCorpus.kinetoSeed());
    }

    private static Path write(Path dir, String name, com.fasterxml.jackson.databind.JsonNode root) throws IOException {
        Files.createDirectories(dir);
        Path p = dir.resolve(name);
        Files.write(p, JSON.writeValueAsBytes(root));
        return p;
    }

    /** The seed's events of category {@code cat} on device stream {@code tid}, in file order. */
    private static List<com.fasterxml.jackson.databind.node.ObjectNode> kernels(
            com.fasterxml.jackson.databind.node.ObjectNode root, int tid) {
        List<com.fasterxml.jackson.databind.node.ObjectNode> out = new ArrayList<>();
        for (com.fasterxml.jackson.databind.JsonNode e : root.get("traceEvents")) {
            if ("kernel".equals(e.path("cat").asText()) && e.path("tid").asInt() == tid) {
                out.add((com.fasterxml.jackson.databind.node.ObjectNode) e);
            }
        }
        return out;
    }

    /** {@code count} GPU ranges of distinct names, one after another from {@code startUs}, each {@code lengthNs} long. */
    private static void gpuRanges(com.fasterxml.jackson.databind.node.ObjectNode root, String prefix, int tid,
                                  long startUs, int count, long lengthNs) {
        com.fasterxml.jackson.databind.node.ArrayNode events = (com.fasterxml.jackson.databind.node.ArrayNode) root.get("traceEvents");
        for (int i = 0; i < count; i++) {
            long ns = i * lengthNs;
            com.fasterxml.jackson.databind.node.ObjectNode a = events.addObject();
            a.put("ph", "X").put("cat", "gpu_user_annotation").put("name", prefix + i).put("pid", 0).put("tid", tid);
            // Kineto writes microseconds with decimals: exact nanoseconds as a decimal number.
            a.put("ts", new java.math.BigDecimal(startUs).add(java.math.BigDecimal.valueOf(ns, 3)));
            a.put("dur", java.math.BigDecimal.valueOf(lengthNs, 3));
        }
    }

    @TestFactory
    Stream<DynamicTest> regularExpressionsAnnotationsRankIdsAndErrors(@TempDir Path dir) {
        return Stream.of(
                DynamicTest.dynamicTest("item 1: a kernel named pplx:: 120,000 times (720 KB) is analysed at once", () -> {
                    com.fasterxml.jackson.databind.node.ObjectNode root = seedTree();
                    kernels(root, 7).get(0).put("name", "pplx::".repeat(120_000));
                    Path in = write(dir.resolve("pplx"), "rank0.pt.trace.json", root);
                    Cli.run("-f", "json", in.toString()).assertAnalysed("pplx");
                }),
                DynamicTest.dynamicTest("item 2: 40,000 distinct gpu_user_annotation names in one step are analysed", () -> {
                    com.fasterxml.jackson.databind.node.ObjectNode root = seedTree();
                    // 20,000 ranges of 100 ns over the first compute kernel (2 ms), 20,000 of 50 ns over an NCCL one (1 ms).
                    long compute = kernels(root, 7).get(0).get("ts").asLong();
                    long nccl = kernels(root, 20).get(0).get("ts").asLong();
                    gpuRanges(root, "mlp(B) ", 7, compute, 20_000, 100);
                    gpuRanges(root, "dispatch(F) ", 20, nccl, 20_000, 50);
                    Path in = write(dir.resolve("names"), "rank0.pt.trace.json", root);
                    Cli run = Cli.run("-f", "json", in.toString()).assertAnalysed("annotation names");
                    com.fasterxml.jackson.databind.JsonNode step = JSON.readTree(run.out()).get("ranks").get(0).get("steps").get(0);
                    assertEquals(40_000, step.get("annotations").size(), "every name with device work is listed");
                }),
                DynamicTest.dynamicTest("item 3: two files claiming a world size of 2e9 are analysed, the world size set aside", () -> {
                    List<String> args = new ArrayList<>(List.of("-f", "json"));
                    for (int rank = 0; rank < 2; rank++) {
                        com.fasterxml.jackson.databind.node.ObjectNode root = seedTree();
                        ((com.fasterxml.jackson.databind.node.ObjectNode) root.get("distributedInfo"))
                                .put("rank", rank).put("world_size", 2_000_000_000);
                        args.add(write(dir.resolve("world"), "rank" + rank + ".pt.trace.json", root).toString());
                    }
                    Cli run = Cli.run(args.toArray(String[]::new)).assertAnalysed("world size 2e9");
                    com.fasterxml.jackson.databind.JsonNode report = JSON.readTree(run.out());
                    assertTrue(report.get("crossRank").get("worldSize").isNull(), "world size unknown");
                    assertTrue(report.get("ranks").get(0).get("warnings").toString().contains("world size 2000000000"),
                            report.get("ranks").get(0).get("warnings").toString());
                }),
                DynamicTest.dynamicTest("item 3: a rank id of 2e9 is set aside, the missing ranks are ranges", () -> {
                    com.fasterxml.jackson.databind.node.ObjectNode huge = seedTree();
                    ((com.fasterxml.jackson.databind.node.ObjectNode) huge.get("distributedInfo"))
                            .put("rank", 2_000_000_000).remove("world_size");
                    com.fasterxml.jackson.databind.node.ObjectNode three = seedTree();
                    ((com.fasterxml.jackson.databind.node.ObjectNode) three.get("distributedInfo"))
                            .put("rank", 3).remove("world_size");
                    Path a = write(dir.resolve("rankid"), "a.json", huge);
                    Path b = write(dir.resolve("rankid"), "b.json", three);
                    Cli run = Cli.run("-f", "json", a.toString(), b.toString()).assertAnalysed("rank 2e9");
                    com.fasterxml.jackson.databind.JsonNode x = JSON.readTree(run.out()).get("crossRank");
                    assertEquals("RANK_OUT_OF_RANGE", x.get("inputProblems").get(0).get("kind").asText(), x.toString());
                    assertEquals("[{\"from\":0,\"to\":2}]", x.get("missingRankRanges").toString());
                }),
                DynamicTest.dynamicTest("item 10: a subdirectory that cannot be listed is named, the rest analysed; gate refuses", () -> {
                    Assumptions.assumeFalse("root".equals(System.getProperty("user.name")),
                            "running as root: every directory can be listed");
                    Path job = dir.resolve("locked-job");
                    Files.createDirectories(job.resolve("a"));
                    Files.write(job.resolve("a/rank0.pt.trace.json"), HostileCorpus.kinetoSeed());
                    Path locked = Files.createDirectories(job.resolve("b"));
                    Files.write(locked.resolve("rank1.pt.trace.json"), HostileCorpus.kinetoSeed());
                    Files.setPosixFilePermissions(locked, java.nio.file.attribute.PosixFilePermissions.fromString("---------"));
                    try {
                        Cli run = Cli.run(job.toString()).assertAnalysed("locked subdirectory");
                        assertTrue(run.err().contains(locked.toString()) && run.err().contains("permission denied"), run.err());
                        Cli gate = Cli.run("gate", "--baseline", job.resolve("a/rank0.pt.trace.json").toString(), job.toString());
                        gate.assertOneLineError(locked, "gate over a locked subdirectory");
                    } finally {
                        Files.setPosixFilePermissions(locked, java.nio.file.attribute.PosixFilePermissions.fromString("rwx------"));
                    }
                }),
                DynamicTest.dynamicTest("item 10: malformed JSON (a trace, a summary) is said without the parser's jargon", () -> {
                    Path trace = Files.createDirectories(dir.resolve("jargon")).resolve("rank0.json");
                    Files.writeString(trace, "{\"traceEvents\": [{\"ph\": \"X\", \"name\": tru}]}");
                    Cli bad = Cli.run(trace.toString());
                    bad.assertOneLineError(trace, "a bare word in a trace");
                    assertTrue(bad.err().contains("unexpected word 'tru'"), bad.err());
                    Path summary = dir.resolve("jargon/base.summary.json");
                    Path seed = Files.write(dir.resolve("jargon/seed.pt.trace.json"), HostileCorpus.kinetoSeed());
                    assertEquals(ExitCodes.OK, Cli.run("summary", "-o", summary.toString(), seed.toString()).exitCode());
                    String text = Files.readString(summary);
                    Files.writeString(summary, text.substring(0, text.length() / 2));
                    Cli cut = Cli.run("gate", "--baseline", summary.toString(), seed.toString());
                    cut.assertOneLineError(summary, "a cut summary");
                    for (Cli run : List.of(bad, cut)) {
                        for (String jargon : new String[] {"Source", "(code", "token", "VALUE_", "marker", "Unexpected",
                                "Unrecognized", "end-of-input"}) {
                            assertTrue(!run.err().contains(jargon), "no parser jargon: " + run.err());
                        }
                    }
                }));
    }
}
