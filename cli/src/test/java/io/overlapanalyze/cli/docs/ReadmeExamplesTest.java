package io.overlapanalyze.cli.docs;

import io.overlapanalyze.cli.CliRun;
import io.overlapanalyze.cli.Main;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Every output the README, the docs/ pages and the samples' READMEs show is what the tool prints now: each marked
 * block (see {@link DocBlock} for the markers) is run in-process through {@link Main#run} and
 * compared, and a block that looks like output but has no marker fails, so none can drift.
 *
 * <p>What counts as a shown output: every fenced block with no language (or {@code text}), and
 * every {@code sh} block with a line starting with {@code #} (the lines a command printed, as
 * comments). The first must be marked {@code output:}, {@code excerpt:} or {@code not-output};
 * the second {@code excerpt}. An {@code sh} block of commands alone may be marked {@code runs}: its
 * commands must then run as shown (exit 0).
 *
 * <p>How a command runs: in a fresh temporary directory, with the environment {@code NO_COLOR=1}
 * plus the marker's {@code VAR=value} words (colour needs a terminal anyway; a test has none).
 * An argument starting with {@code samples/} is resolved against the repository root; the value
 * of an output option ({@code -o}, {@code --html}, ...) and any argument naming a file that an
 * earlier command of the block wrote are resolved against the temporary directory; everything else
 * (commands, built-in scenario names, option values) is passed as written. Every command must exit
 * 0, or the marker's {@code exit=N} for the command it names.
 *
 * <p>What is normalised in the output before comparing, and only that: (1) the repository root
 * and the temporary directory as path prefixes, since the reader types relative paths; (2) the
 * version on a line {@code overlap-analyze VERSION ...}, so that a release does not touch the
 * README. Lines are compared exactly, trailing spaces included.
 *
 * <p>The README itself stays a path for a newcomer (under {@value #README_MAX_LINES} lines); every
 * relative link of the README, docs/ and the samples' READMEs reaches its file and heading; every
 * docs/ page is reached from the README.
 */
class ReadmeExamplesTest {
    private static final Path ROOT = Path.of(System.getProperty("overlap.projectRoot", ".."))
            .toAbsolutePath().normalize();
    private static final List<String> SAMPLE_DOCS = List.of("samples/README.md", "samples/README-compare.md",
            "samples/README-jobs.md");
    /** The README is a path for a newcomer; the reference lives in docs/ (issue 27). */
    private static final int README_MAX_LINES = 350;
    private static final List<String> MARKERS = List.of("output:", "excerpt", "not-output", "runs", "job-file example");
    private static final Set<String> OUTPUT_OPTIONS = Set.of("-o", "--output", "--html", "--json", "--markdown",
            "--junit");
    private static final Pattern VERSION_LINE = Pattern.compile("^overlap-analyze \\d\\S*(.*)$");
    private static final Pattern COMMAND_MARKER = Pattern.compile("^(output|excerpt):\\s*(.*)$");

    @TempDir
    Path tmp;

    static List<DocBlock> blocks() throws IOException {
        List<DocBlock> all = new ArrayList<>();
        for (String d : docs()) {
            all.addAll(DocBlock.of(ROOT.resolve(d)));
        }
        return all;
    }

    /**
     * The documents whose examples are checked: the README, the samples' READMEs, and every page
     * under docs/ that shows the tool (a marked block, or a command or output line of the tool in a
     * fenced block), so that a page moved out of the README, or a new one, cannot escape the check.
     */
    static List<String> docs() throws IOException {
        List<String> docs = new ArrayList<>();
        docs.add("README.md");
        docs.addAll(SAMPLE_DOCS);
        for (Path p : markdownUnder(ROOT.resolve("docs"))) {
            if (showsTheTool(p)) {
                docs.add(ROOT.relativize(p).toString());
            }
        }
        return docs;
    }

    private static List<Path> markdownUnder(Path dir) throws IOException {
        try (Stream<Path> all = Files.walk(dir)) {
            return all.filter(p -> p.toString().endsWith(".md") && Files.isRegularFile(p)).sorted().toList();
        }
    }

    /** True when a fenced block of {@code doc} is marked, or has a line that runs or shows the tool. */
    static boolean showsTheTool(Path doc) throws IOException {
        for (DocBlock b : DocBlock.of(doc)) {
            if (b.marker() != null && MARKERS.stream().anyMatch(b.marker()::startsWith)) {
                return true;
            }
            for (String l : b.lines()) {
                String t = l.strip();
                t = t.startsWith("$ ") ? t.substring(2) : t;
                if (t.startsWith("./overlap-analyze ") || t.startsWith("overlap-analyze ")) {
                    return true;
                }
            }
        }
        return false;
    }

    private static boolean plain(DocBlock b) {
        return b.language().isEmpty() || b.language().equals("text");
    }

    private static boolean shWithOutput(DocBlock b) {
        return b.language().equals("sh") && b.lines().stream().anyMatch(l -> l.startsWith("#"));
    }

    @Test
    void everyShownOutputIsMarked() throws IOException {
        List<String> problems = new ArrayList<>();
        int checked = 0;
        for (DocBlock b : blocks()) {
            String m = b.marker();
            if (plain(b)) {
                if (m == null || !(COMMAND_MARKER.matcher(m).matches() || m.equals("not-output"))) {
                    problems.add(b.where() + ": a block with no language needs <!-- output: COMMAND -->, "
                            + "<!-- excerpt: COMMAND --> or <!-- not-output -->");
                } else if (!m.equals("not-output")) {
                    checked++;
                }
            } else if (shWithOutput(b)) {
                if (!"excerpt".equals(m)) {
                    problems.add(b.where() + ": an sh block with output lines (#) needs <!-- excerpt -->");
                } else {
                    checked++;
                }
            } else if (m != null && MARKERS.stream().anyMatch(m::startsWith)
                    && !(m.equals("job-file example") && b.language().equals("json"))
                    && !(m.equals("runs") && b.language().equals("sh"))) {
                problems.add(b.where() + ": marker '" + m + "' on a " + b.language() + " block it does not fit");
            }
        }
        for (String d : docs()) {
            for (int line : DocBlock.strayMarkers(ROOT.resolve(d), MARKERS)) {
                problems.add(d + ":" + line + ": a marker must stand on the line right before an opening fence");
            }
        }
        assertEquals(List.of(), problems);
        assertTrue(checked >= 8, "the docs show at least 8 checked outputs, found " + checked);
    }

    /** The pages moved out of the README show examples, and are found and checked as such. */
    @Test
    void theDocsPagesWithExamplesAreChecked() throws IOException {
        List<String> checked = docs();
        for (String page : List.of("docs/usage.md", "docs/expert-parallel.md", "docs/whatif.md",
                "docs/beyond-ddp.md", "docs/pictures.md", "docs/synth.md")) {
            assertTrue(checked.contains(page), page + " shows the tool and must be checked: " + checked);
        }
        Path shows = tmp.resolve("shows.md");
        Files.writeString(shows, "Text.\n\n```sh\nmvn -B -ntp test\n```\n\n```sh\n  ./overlap-analyze x.json\n```\n");
        Path diagram = tmp.resolve("diagram.md");
        Files.writeString(diagram, "```\nfile ─► reader ─► overlap-analyze\n```\n\n```sh\nmvn -B -ntp test\n```\n"
                + "Run `./overlap-analyze x.json` in prose.\n");
        Path output = tmp.resolve("output.md");
        Files.writeString(output, "```\n$ overlap-analyze --version\n```\n");
        assertTrue(showsTheTool(shows));
        assertFalse(showsTheTool(diagram));
        assertTrue(showsTheTool(output));
    }

    @Test
    void theReadmeIsAPathNotAReference() throws IOException {
        int lines = Files.readAllLines(ROOT.resolve("README.md")).size();
        assertTrue(lines < README_MAX_LINES, "README.md has " + lines + " lines; at most " + (README_MAX_LINES - 1)
                + ": move reference material to a docs/ page and link it");
    }

    /** Every relative link of the README, the docs/ pages and the samples' READMEs reaches its file and anchor. */
    @Test
    void everyRelativeLinkReachesItsFileAndAnchor() throws IOException {
        List<String> problems = new ArrayList<>();
        int checked = 0;
        for (Path doc : linkedDocs()) {
            for (DocLinks.Link l : DocLinks.relativeLinks(doc)) {
                checked++;
                String p = DocLinks.problem(l, ROOT);
                if (p != null) {
                    problems.add(ROOT.relativize(l.doc()) + ":" + l.line() + " (" + l.target() + "): " + p);
                }
            }
        }
        assertEquals(List.of(), problems);
        assertTrue(checked >= 40, "the README and docs have at least 40 relative links, found " + checked);
    }

    /** Nothing moved out of the README is lost: every docs/ page and sample README is reached from it by links. */
    @Test
    void everyDocsPageIsReachedFromTheReadme() throws IOException {
        Set<Path> reached = new java.util.HashSet<>();
        java.util.ArrayDeque<Path> todo = new java.util.ArrayDeque<>(List.of(ROOT.resolve("README.md")));
        while (!todo.isEmpty()) {
            Path doc = todo.poll();
            if (!reached.add(doc)) {
                continue;
            }
            for (DocLinks.Link l : DocLinks.relativeLinks(doc)) {
                String file = l.target().replaceFirst("#.*", "");
                Path t = file.isEmpty() ? doc : doc.getParent().resolve(file).normalize();
                if (t.toString().endsWith(".md") && Files.isRegularFile(t)) {
                    todo.add(t);
                }
            }
        }
        List<String> unreached = new ArrayList<>();
        try (Stream<Path> pages = Files.list(ROOT.resolve("docs"))) {
            pages.filter(p -> p.toString().endsWith(".md")).sorted().forEach(p -> {
                if (!reached.contains(p)) {
                    unreached.add(ROOT.relativize(p).toString());
                }
            });
        }
        for (String d : SAMPLE_DOCS) {
            if (!reached.contains(ROOT.resolve(d))) {
                unreached.add(d);
            }
        }
        assertEquals(List.of(), unreached, "pages no link from the README leads to");
    }

    /** The link check fails where a reader's click would: a missing file, a missing heading, a way out of the repository. */
    @Test
    void theLinkCheckSeesBrokenLinks() throws IOException {
        Path root = tmp.resolve("repo");
        Files.createDirectories(root.resolve("docs"));
        Files.writeString(root.resolve("docs/a.md"), "# Beyond DDP: FSDP, pipelines\n\n## Reading (`io.x.formats`)\n\n"
                + "## Step\n\n## Step\n\n<a id=\"kept\"></a>\n");
        Files.writeString(root.resolve("README.md"), String.join("\n",
                "[ok](docs/a.md) [ok](docs/a.md#beyond-ddp-fsdp-pipelines) ![pic](docs/a.md)",
                "[ok](docs/a.md#reading-ioxformats) [ok](docs/a.md#step-1) [ok](docs/a.md#kept) [ok](#top) [web](https://x.org/y)",
                "# Top",
                "[missing](docs/b.md) [no heading](docs/a.md#step-2) [out](../outside.md)",
                "`[in code](nowhere.md)`",
                "```", "[in a block](nowhere.md)", "```", ""));
        Files.writeString(tmp.resolve("outside.md"), "# Outside\n");
        List<String> found = new ArrayList<>();
        for (DocLinks.Link l : DocLinks.relativeLinks(root.resolve("README.md"))) {
            found.add(l.target() + " " + (DocLinks.problem(l, root) == null ? "ok" : "broken"));
        }
        assertEquals(List.of("docs/a.md ok", "docs/a.md#beyond-ddp-fsdp-pipelines ok", "docs/a.md ok",
                "docs/a.md#reading-ioxformats ok", "docs/a.md#step-1 ok", "docs/a.md#kept ok", "#top ok",
                "docs/b.md broken", "docs/a.md#step-2 broken", "../outside.md broken"), found);
    }

    private static List<Path> linkedDocs() throws IOException {
        List<Path> docs = new ArrayList<>();
        docs.add(ROOT.resolve("README.md"));
        docs.addAll(markdownUnder(ROOT.resolve("docs")));
        for (String d : SAMPLE_DOCS) {
            docs.add(ROOT.resolve(d));
        }
        return docs;
    }

    /** The parser sees what a reader sees: a block without marker and a marked one. */
    @Test
    void markersAreReadFromTheLineBeforeTheFence() throws IOException {
        Path doc = tmp.resolve("doc.md");
        Files.writeString(doc, "Output:\n\n```\nsome output\n```\n\n<!-- excerpt -->\n  ```sh\n"
                + "  ./overlap-analyze x\n  # shown\n  ```\n<!-- output: overlap-analyze y -->\n\nloose\n");
        List<DocBlock> bs = DocBlock.of(doc);
        assertEquals(2, bs.size());
        assertEquals(null, bs.get(0).marker());
        assertTrue(plain(bs.get(0)));
        assertEquals("excerpt", bs.get(1).marker());
        assertEquals(List.of("./overlap-analyze x", "# shown"), bs.get(1).lines());
        assertEquals(List.of(12), DocBlock.strayMarkers(doc, MARKERS));
    }

    @TestFactory
    Stream<DynamicTest> everyMarkedOutputIsWhatTheToolPrints() throws IOException {
        List<DynamicTest> tests = new ArrayList<>();
        for (DocBlock b : blocks()) {
            String m = b.marker();
            if (m == null) {
                continue;
            }
            Matcher cm = COMMAND_MARKER.matcher(m);
            if (plain(b) && cm.matches()) {
                tests.add(DynamicTest.dynamicTest(b.where() + " " + m, () -> checkTextBlock(b, cm.group(1), cm.group(2))));
            } else if (b.language().equals("sh") && (m.equals("excerpt") || m.equals("runs"))) {
                tests.add(DynamicTest.dynamicTest(b.where() + " " + m, () -> checkShBlock(b)));
            }
        }
        return tests.stream();
    }

    private static void checkTextBlock(DocBlock b, String kind, String command) throws IOException {
        Command c = Command.parse(command, b.where());
        List<String> shown = new ArrayList<>(b.lines());
        if (!shown.isEmpty() && shown.get(0).startsWith("$ ")) {
            String typed = shown.remove(0);
            assertEquals("$ ./" + String.join(" ", c.words()), typed,
                    b.where() + ": the command shown in the block is not the marker's");
        }
        withTempDir(dir -> {
            List<String> out = run(c, dir, b.where());
            if (kind.equals("output") && Boolean.getBoolean(UPDATE)) {
                rewrite(b, shown, out);
            } else if (kind.equals("output")) {
                assertEquals(String.join("\n", normalised(shown)), String.join("\n", normalised(out)),
                        b.where() + ": the README's output differs from what `" + command + "` prints");
            } else {
                assertInOrder(shown, out, b.where() + " (" + command + ")");
            }
        });
    }

    /**
     * With {@code -Doverlap.readme.update=true}, a changed {@code output:} block is written back to
     * its document instead of failing: for a change of the tool's output that is meant, whose new
     * text the author then reads in the diff. The version line stays the document's.
     */
    static final String UPDATE = "overlap.readme.update";

    private static synchronized void rewrite(DocBlock b, List<String> shown, List<String> out) throws IOException {
        List<String> fresh = normalised(out);
        if (normalised(shown).equals(fresh)) {
            return;
        }
        List<String> doc = new ArrayList<>(java.nio.file.Files.readAllLines(b.doc()));
        // Blocks above this one may have been rewritten with other lengths: find it again by its fence.
        DocBlock now = DocBlock.of(b.doc()).stream().filter(x -> java.util.Objects.equals(x.marker(), b.marker())
                && x.lines().equals(b.lines())).findFirst().orElseThrow();
        int open = now.line() - 1;
        String indent = doc.get(open).substring(0, doc.get(open).indexOf("```"));
        int first = open + 1 + (b.lines().size() > shown.size() ? 1 : 0);
        int end = open + 1 + b.lines().size();
        List<String> body = new ArrayList<>();
        for (int i = 0; i < out.size(); i++) {
            String line = i < shown.size() && VERSION_LINE.matcher(shown.get(i)).matches()
                    && VERSION_LINE.matcher(out.get(i)).matches() ? shown.get(i) : fresh.get(i);
            body.add(line.isEmpty() ? "" : indent + line);
        }
        doc.subList(first, end).clear();
        doc.addAll(first, body);
        java.nio.file.Files.write(b.doc(), doc);
    }

    private static void checkShBlock(DocBlock b) throws IOException {
        withTempDir(dir -> {
            List<String> out = null;
            String current = null;
            List<String> expected = new ArrayList<>();
            for (String line : b.lines()) {
                if (line.startsWith("#")) {
                    if (current == null) {
                        fail(b.where() + ": an output line before any command: " + line);
                    }
                    expected.add(line.equals("#") ? "" : line.startsWith("# ") ? line.substring(2) : line.substring(1));
                    continue;
                }
                if (current != null) {
                    assertInOrder(expected, out, b.where() + " (" + current + ")");
                }
                String cmd = stripComment(line).strip();
                assertFalse(cmd.endsWith("\\"), b.where() + ": continued lines are not supported: " + line);
                assertTrue(cmd.startsWith("./overlap-analyze "), b.where() + ": not a command of the tool: " + line);
                current = cmd.substring(2);
                expected = new ArrayList<>();
                out = run(Command.parse(current, b.where()), dir, b.where());
            }
            if (current != null) {
                assertInOrder(expected, out, b.where() + " (" + current + ")");
            }
        });
    }

    /**
     * The job file the samples' README shows is accepted by synth as a job, and the job it writes
     * is what the file says: 4 rank traces; clock offsets recovered as each rank's offset minus the
     * mean offset (0, 12.5, -40, 7 µs have mean -5.125 µs: +5.125, +17.625, -34.875, +12.125 µs);
     * rank 1, 250 µs late at every step, the most waited-for rank, last at every one of the 5
     * collectives all ranks joined (3 buckets × 2 steps, less the one rank 3 skips); rank 3's
     * skipped collective a MISSING mismatch.
     */
    @Test
    void theJobFileExampleWritesTheJobItDescribes() throws IOException {
        List<DocBlock> examples = DocBlock.of(ROOT.resolve("samples/README-jobs.md")).stream()
                .filter(b -> "job-file example".equals(b.marker())).toList();
        assertEquals(1, examples.size(), "samples/README-jobs.md shows one job-file example");
        Path job = tmp.resolve("example.job.json");
        Files.writeString(job, String.join("\n", examples.get(0).lines()) + "\n");
        Path dir = tmp.resolve("job");
        CliRun synth = CliRun.of("synth", job.toString(), "-o", dir.toString());
        assertEquals(0, synth.exitCode(), synth.err());
        for (int r = 0; r < 4; r++) {
            assertTrue(Files.isRegularFile(dir.resolve("rank-" + r + ".pt.trace.json")), "rank " + r + " written");
        }
        try (Stream<Path> files = Files.list(dir)) {
            assertEquals(4, files.count());
        }
        CliRun analysed = CliRun.of("-f", "json", dir.toString());
        assertEquals(0, analysed.exitCode(), analysed.err());
        JsonNode cross = JsonMapper.builder().build().readTree(analysed.out()).get("crossRank");
        Map<String, Long> offsets = new HashMap<>();
        cross.get("clockOffsetsNs").fields().forEachRemaining(e -> offsets.put(e.getKey(), e.getValue().longValue()));
        assertEquals(Map.of("0", 5_125L, "1", 17_625L, "2", -34_875L, "3", 12_125L), offsets);
        JsonNode top = cross.get("stragglers").get(0);
        assertEquals(1, top.get("rank").intValue());
        // Rank 3 issued fewer collectives in step 2, so pairing stops at step 2's first collective (metrics.md
        // §8: where in the step the sequence shifted is unknown): rank 1 is found from step 1's three.
        assertEquals(3, top.get("timesArrivedLast").intValue());
        assertEquals(3 * 250_000L, top.get("waitedForNs").longValue());
        assertEquals(3, cross.get("groups").get(0).get("leftOutFrom").intValue(), "Seq 3: step 2's first");
        List<String> missing = new ArrayList<>();
        for (JsonNode mm : cross.get("mismatches")) {
            for (JsonNode r : mm.get("ranks")) {
                if (!r.get("present").booleanValue()) {
                    missing.add(mm.get("kind").textValue() + " rank " + r.get("rank").intValue());
                }
            }
        }
        assertEquals(List.of("MISSING rank 3"), missing);
    }

    /** A command of a marker: the expected exit code, the environment words, the tool's words. */
    private record Command(int exit, Map<String, String> env, List<String> words) {
        static Command parse(String text, String where) {
            List<String> w = shellWords(text);
            int exit = 0;
            Map<String, String> env = new HashMap<>();
            int i = 0;
            for (; i < w.size() && !w.get(i).equals("overlap-analyze"); i++) {
                String x = w.get(i);
                if (x.startsWith("exit=")) {
                    exit = Integer.parseInt(x.substring(5));
                } else if (x.matches("[A-Z_]+=.*")) {
                    env.put(x.substring(0, x.indexOf('=')), x.substring(x.indexOf('=') + 1));
                } else {
                    fail(where + ": not a command of the tool: " + text);
                }
            }
            if (i == w.size()) {
                fail(where + ": not a command of the tool: " + text);
            }
            return new Command(exit, env, w.subList(i, w.size()));
        }
    }

    private static List<String> run(Command c, Path dir, String where) {
        List<String> args = new ArrayList<>();
        List<String> w = c.words().subList(1, c.words().size());
        for (int i = 0; i < w.size(); i++) {
            String a = w.get(i);
            boolean outputValue = i > 0 && OUTPUT_OPTIONS.contains(w.get(i - 1)) && !a.equals("-")
                    && !a.startsWith("/dev/");
            if (outputValue) {
                args.add(dir.resolve(a).toString());
            } else if (a.startsWith("samples/")) {
                args.add(ROOT.resolve(a).toString());
            } else if (!a.startsWith("-") && Files.exists(dir.resolve(a))) {
                args.add(dir.resolve(a).toString());
            } else {
                args.add(a);
            }
        }
        Map<String, String> env = new HashMap<>(c.env());
        env.put("NO_COLOR", "1");
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(args.toArray(String[]::new), new PrintWriter(out, true), new PrintWriter(err, true), env);
        assertEquals(c.exit(), code, where + ": `" + String.join(" ", c.words()) + "` exit code; stderr: " + err);
        String text = out.toString().replace(ROOT + "/", "").replace(dir + "/", "");
        return text.lines().toList();
    }

    private static List<String> normalised(List<String> lines) {
        return lines.stream().map(l -> {
            Matcher m = VERSION_LINE.matcher(l);
            return m.matches() ? "overlap-analyze <version>" + m.group(1) : l;
        }).toList();
    }

    private static void assertInOrder(List<String> expected, List<String> actual, String where) {
        int at = 0;
        for (String e : expected) {
            int found = -1;
            for (int i = at; i < actual.size(); i++) {
                if (actual.get(i).equals(e)) {
                    found = i;
                    break;
                }
            }
            if (found < 0) {
                fail(where + ": the shown line\n" + e + "\nis not in the output (after line " + at + "):\n"
                        + String.join("\n", actual));
            }
            at = found + 1;
        }
    }

    /** The line without a trailing shell comment (a {@code #} after a space, outside quotes). */
    private static String stripComment(String line) {
        boolean quoted = false;
        for (int i = 0; i < line.length(); i++) {
            char ch = line.charAt(i);
            if (ch == '\'') {
                quoted = !quoted;
            } else if (ch == '#' && !quoted && (i == 0 || Character.isWhitespace(line.charAt(i - 1)))) {
                return line.substring(0, i);
            }
        }
        return line;
    }

    /** Shell words: split on spaces, single quotes keep spaces and are removed. */
    private static List<String> shellWords(String text) {
        List<String> w = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        boolean quoted = false;
        boolean any = false;
        for (char ch : text.strip().toCharArray()) {
            if (ch == '\'') {
                quoted = !quoted;
                any = true;
            } else if (Character.isWhitespace(ch) && !quoted) {
                if (any) {
                    w.add(cur.toString());
                    cur.setLength(0);
                    any = false;
                }
            } else {
                cur.append(ch);
                any = true;
            }
        }
        if (any) {
            w.add(cur.toString());
        }
        return w;
    }

    private interface InDir {
        void accept(Path dir) throws IOException;
    }

    private static void withTempDir(InDir body) throws IOException {
        Path dir = Files.createTempDirectory("readme-example").toRealPath();
        try {
            body.accept(dir);
        } finally {
            try (Stream<Path> all = Files.walk(dir)) {
                for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(p);
                }
            }
        }
    }
}
