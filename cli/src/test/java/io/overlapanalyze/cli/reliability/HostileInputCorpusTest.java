package io.overlapanalyze.cli.reliability;

import io.overlapanalyze.cli.ExitCodes;
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
}
