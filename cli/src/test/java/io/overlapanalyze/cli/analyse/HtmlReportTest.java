package io.overlapanalyze.cli.analyse;

import io.overlapanalyze.cli.CliRun;
import io.overlapanalyze.cli.SharedTraces;

import com.fasterxml.jackson.databind.JsonNode;
import io.overlapanalyze.render.JsonRenderer;
import io.overlapanalyze.report.ChainLink;
import io.overlapanalyze.report.StepReport;
import io.overlapanalyze.synth.BuiltinScenarios;
import io.overlapanalyze.synth.Job;
import io.overlapanalyze.synth.JobWriter;
import io.overlapanalyze.synth.KinetoScenarioWriter;
import io.overlapanalyze.synth.Scenario;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.jsoup.select.Elements;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@code --html}: the page is self-contained, carries the markers, lanes, tail, exposed
 * communication and chain of the seed samples at their exact values (checked with jsoup on the
 * data attributes), stays small for a 64-rank × 50-step job, and renders in headless Chromium
 * without console errors (skipped with a message where Chromium is absent; {@code .ci/run}
 * installs it).
 */
class HtmlReportTest {
    private static final long MS = 1_000_000L;

    @TempDir
    Path tmp;

    private Path html(String... pathsAndOptions) {
        Path out = tmp.resolve("report-" + System.nanoTime() + ".html");
        List<String> args = new ArrayList<>(List.of(pathsAndOptions));
        args.addAll(List.of("--html", out.toString(), "-f", "json"));
        CliRun run = CliRun.of(args.toArray(String[]::new));
        assertEquals(0, run.exitCode(), run.err());
        return out;
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"seed-1ms, 7, LAST_BUCKET", "seed-4ms, 14, COMM_BOUND"})
    void seedReportHasEveryPartAtTheExactValues(String sample, long lastReduceEndMs, String cause) throws IOException {
        Path file = html(TimelineTest.sample(sample).toString());
        String text = Files.readString(file);
        assertSelfContained(text);
        Document doc = Jsoup.parse(text);
        StepReport step = TimelineTest.analyse(sample).report().ranks().get(0).steps().get(0);
        long t0 = step.deviceStartNs();

        assertEquals(1, doc.select("#summary .verdict").size());
        assertTrue(doc.select("#summary .verdict").text().contains(cause), doc.select("#summary").text());
        assertEquals(1, doc.select("#steps svg.stepchart").size(), "per-step chart");
        assertEquals("single rank: nothing to compare across ranks.", doc.select("#cross-rank p.single-rank").text());
        assertTrue(doc.select("#glossary dl.glossary dt").size() >= 15, "glossary");

        Elements timelines = doc.select("#ranks details.step svg.timeline");
        assertEquals(1, timelines.size());
        Element svg = timelines.first();
        assertEquals(Map.of("firstBucketReady", 2 * MS, "reduceStart", 2 * MS, "lastComputeEnd", 6 * MS,
                "lastReduceEnd", lastReduceEndMs * MS), markers(svg, t0));
        assertEquals(String.valueOf(step.computeBusyNs()), svg.select("path[data-lane=compute]").attr("data-ns"));
        assertEquals(String.valueOf(step.commBusyNs()), svg.select("path[data-lane=comm]").attr("data-ns"));
        assertEquals(String.valueOf(step.exposedCommNs()), svg.select("path[data-lane=exposed]").attr("data-ns"));
        assertEquals("1", svg.select("path[data-lane=exposed]").attr("data-runs"), "one exposed run [6, end]");
        Element tail = svg.select("g.tailg").first();
        assertEquals(6 * MS, Long.parseLong(tail.attr("data-start-ns")) - t0);
        assertEquals(lastReduceEndMs * MS, Long.parseLong(tail.attr("data-end-ns")) - t0);
        Elements links = svg.select("g.link");
        assertEquals(step.attribution().chain().size(), links.size());
        for (int i = 0; i < links.size(); i++) {
            ChainLink l = step.attribution().chain().get(i);
            assertEquals(l.boundBy().name(), links.get(i).attr("data-bound-by"));
            assertEquals(String.valueOf(l.startNs()), links.get(i).attr("data-start-ns"));
        }
        if (lastReduceEndMs == 14) {
            assertEquals(List.of("QUEUE", "QUEUE", "DATA"), links.eachAttr("data-bound-by"));
            assertEquals(3, svg.select("path.arrow").size(), "two QUEUE hooks and one data arrow");
        }
    }

    private static Map<String, Long> markers(Element svg, long t0) {
        Map<String, Long> m = new java.util.HashMap<>();
        for (Element g : svg.select("g.mk")) {
            m.put(g.attr("data-marker"), Long.parseLong(g.attr("data-ns")) - t0);
        }
        return m;
    }

    /** No network address, no external script, style sheet, image or font. */
    static void assertSelfContained(String html) {
        assertFalse(html.contains("http://"), "no http:// reference");
        assertFalse(html.contains("https://"), "no https:// reference");
        Document doc = Jsoup.parse(html);
        assertTrue(doc.select("script[src], link[href], img[src], iframe, object, embed").isEmpty(),
                "nothing loaded from elsewhere");
        assertFalse(html.contains("url(") && html.replace("url(#ah)", "").contains("url("),
                "no url() but the page's own arrow marker");
        assertFalse(html.contains("@import"));
    }

    /** Acceptance 3: a 64-rank, 50-step job (written by the scenario generator) gives well under 5 MB. */
    @Test
    void bigJobStaysSmallAndSummarises() throws IOException {
        // A synchronised job (collectives end together on every rank, metrics.md §8), so that its clocks
        // align and the waits, their heatmap and the straggler table are there to draw; independently
        // written ranks would not end their collectives together: rough clocks, no waits.
        Path job = tmp.resolve("job");
        JobWriter.write(Job.healthy("big", 64, BuiltinScenarios.get("seed-4ms").withSteps(50).withJitter(5, 1000))
                .withSlowRank(7, 300_000), job, false);
        Path file = html(job.toString());
        long size = Files.size(file);
        assertTrue(size < 5_000_000, "HTML of 64 ranks x 50 steps: " + size + " bytes");
        String text = Files.readString(file);
        assertSelfContained(text);
        Document doc = Jsoup.parse(text);
        assertEquals(64, doc.select("#ranks details.rank").size());
        assertEquals(64 * 50, doc.select("#ranks table.steps tr").size() - 64, "every step has its row");
        int drawn = doc.select("svg.timeline").size();
        assertTrue(drawn >= 128 && drawn <= 300, "longest-tail and median step of every rank, within the limit: "
                + drawn);
        assertTrue(doc.select("p.omitted").text().contains(drawn + " of 3200"), doc.select("p.omitted").text());
        assertEquals(3, doc.select("#cross-rank svg.heatmap").size(), "rank x collective wait, rank x step tail and "
                + "exposed comm");
        Element waits = doc.select("#cross-rank svg.heatmap[data-kind=waits]").first();
        assertEquals("64", waits.attr("data-rows"), "one row per rank");
        assertTrue(Integer.parseInt(waits.attr("data-cols")) >= 50, "at least one collective per step");
        assertEquals("64", doc.select("#cross-rank svg.offsets").attr("data-bars"));
        assertEquals(64, doc.select("#cross-rank table.offsets tr[data-rank]").size(), "every offset, collapsed");
        assertTrue(doc.select("#cross-rank table.offsets").first().closest("details") != null, "collapsed");
        assertEquals(12, doc.select("#cross-rank table.stragglers:not(.more) tr[data-rank]")
                .size(), "the first stragglers shown, the rest behind 'all 64 ranks'");
        Element tail = doc.select("#cross-rank svg.heatmap:not([data-kind])").first();
        assertEquals("64", tail.attr("data-rows"));
        assertEquals("50", tail.attr("data-cols"));
        assertEquals("50", doc.select("#steps svg.stepchart").attr("data-steps"));
    }

    // --- across ranks ----------------------------------------------------------------------------

    /** The page and the JSON report of one run, so the page can be checked against the JSON. */
    private record PageAndJson(String html, Document doc, JsonNode json) {
    }

    private PageAndJson pageAndJson(String... paths) throws IOException {
        Path out = tmp.resolve("report-" + System.nanoTime() + ".html");
        List<String> args = new ArrayList<>(List.of(paths));
        args.addAll(List.of("--html", out.toString(), "-f", "json"));
        CliRun run = CliRun.of(args.toArray(String[]::new));
        assertEquals(0, run.exitCode(), run.err());
        String text = Files.readString(out);
        return new PageAndJson(text, Jsoup.parse(text), JsonRenderer.mapper().readTree(run.out()).get("crossRank"));
    }

    private static Path jobSample(String name) {
        return TimelineTest.sample("x").getParent().resolve(name);
    }

    @Test
    void crossRankSectionShowsTheJsonReportsFacts() throws IOException {
        PageAndJson p = pageAndJson(jobSample("job-order-mismatch").toString());
        assertSelfContained(p.html());
        JsonNode x = p.json();
        Element section = p.doc().select("section#cross-rank").first();
        assertTrue(section.text().startsWith("Across ranks 4 ranks compared (0–3) of a job of 4"), section.text());
        assertTrue(p.doc().select("#cross-rank p.single-rank").isEmpty());

        // Offsets: the table equals crossRank.clockOffsetsNs, one bar per rank.
        Map<String, Long> offsets = new java.util.TreeMap<>();
        x.get("clockOffsetsNs").fields().forEachRemaining(e -> offsets.put(e.getKey(), e.getValue().asLong()));
        Map<String, Long> shown = new java.util.TreeMap<>();
        for (Element tr : section.select("table.offsets tr[data-rank]")) {
            shown.put(tr.attr("data-rank"), Long.parseLong(tr.attr("data-ns")));
        }
        assertEquals(offsets, shown);
        assertEquals(4, offsets.size());
        assertEquals("+37.000 µs", section.select("table.offsets tr[data-rank=1] td").get(1).text());
        assertEquals("4", section.select("svg.offsets").attr("data-bars"));

        // The mismatch, with its kind, severity, group and index, in red.
        JsonNode m = x.get("mismatches").get(0);
        Elements rows = section.select("table.mismatches tr.mismatch");
        assertEquals(x.get("mismatches").size(), rows.size());
        Element row = rows.first();
        assertEquals(m.get("kind").asText(), row.attr("data-kind"));
        assertEquals("TYPE", row.attr("data-kind"));
        assertEquals(m.get("severity").asText(), row.attr("data-severity"));
        assertEquals("ERROR", row.attr("data-severity"));
        assertTrue(row.hasClass("sev-error"));
        assertEquals(m.get("group").asText(), row.attr("data-group"));
        assertEquals(m.get("index").asText(), row.attr("data-index"));
        assertTrue(row.text().contains(m.get("message").asText()), row.text());
        assertEquals(1, section.select("p.sev-error.banner").size());
        assertTrue(section.select("details.mismatch-ranks tr.culprit").text().contains("ALL_REDUCE"),
                "rank 2's all_reduce among reduce_scatters is the culprit");

        // Stragglers in the JSON's order; the wait heatmap has one row per rank and a column per timed collective.
        Elements stragglers = section.select("table.stragglers tr[data-rank]");
        assertEquals(x.get("stragglers").size(), stragglers.size());
        assertEquals(x.get("stragglers").get(0).get("rank").asText(), stragglers.first().attr("data-rank"));
        Element waits = section.select("svg.heatmap[data-kind=waits]").first();
        assertEquals("4", waits.attr("data-rows"));
        int timed = 0;
        for (JsonNode c : x.get("collectives")) {
            timed += c.get("waitsNs").isNull() ? 0 : 1;
            assertEquals(4, c.get("waitsNs").size(), c.toString());
        }
        assertEquals(String.valueOf(timed), waits.attr("data-cols"));
        assertEquals(List.of("rank 0", "rank 1", "rank 2", "rank 3"),
                waits.select("text").eachText().subList(0, 4), "row labels");
        assertTrue(waits.previousElementSibling().text().contains("A cell is wait"), "says what a cell is");

        // Bandwidth per type, worst tail per step, notes; the glossary has the cross-rank terms.
        assertEquals(x.get("bandwidth").size(), section.select("table.bandwidth tr").size() - 1);
        assertEquals(x.get("worstTails").size(), section.select("table.tails tr[data-step]").size());
        assertEquals(x.get("notes").size(), section.select("ul.notes li").size());
        List<String> terms = p.doc().select("#glossary dt").eachText();
        for (String t : List.of("clock offset", "arrival", "wait", "straggler", "algbw / busbw", "mismatch MISSING",
                "severity ERROR / WARNING")) {
            assertTrue(terms.contains(t), t + " in " + terms);
        }
    }

    @Test
    void healthyJobHasNoMismatchAndAMissingCollectiveIsALikelyHang() throws IOException {
        PageAndJson healthy = pageAndJson(jobSample("job-healthy-4rank").toString());
        assertEquals(0, healthy.json().get("mismatches").size());
        assertEquals(1, healthy.doc().select("#cross-rank p.mismatches-none").size());
        assertTrue(healthy.doc().select("#cross-rank tr.mismatch").isEmpty());

        Path job = tmp.resolve("skip");
        JobWriter.write(Job.healthy("j", 3, BuiltinScenarios.get("seed-1ms").withSteps(2))
                .withPerturbation(new Job.Perturbation(Job.Perturbation.Kind.SKIP, 1, 2, 3, null)), job, false);
        PageAndJson hang = pageAndJson(job.toString());
        Element row = hang.doc().select("#cross-rank tr.mismatch[data-kind=MISSING]").first();
        assertTrue(row != null, hang.doc().select("#cross-rank").text());
        assertTrue(row.text().contains("MISSING (likely hang)"), row.text());
        assertTrue(hang.doc().select("#cross-rank p.banner").text().contains("likely hang"));
    }

    @Test
    void crossRankRendersInHeadlessChromium() throws Exception {
        String chromium = chromium();
        assumeTrue(chromium != null, "chromium is not installed: skipping the browser check");
        PageAndJson p = pageAndJson(jobSample("job-order-mismatch").toString());
        Path file = tmp.resolve("job.html");
        Files.writeString(file, p.html());
        Browser dom = run(chromium, "--dump-dom", file, "1400,900");
        assertEquals(0, dom.exitCode, dom.stderr);
        assertNoConsoleErrors(dom.stderr);
        Document rendered = Jsoup.parse(dom.stdout);
        assertEquals(1, rendered.select("#cross-rank svg.heatmap[data-kind=waits]").size());
        assertEquals(1, rendered.select("#cross-rank svg.offsets").size());
        Path png = tmp.resolve("job.png");
        Browser shot = run(chromium, "--screenshot=" + png, file, "1400,2600");
        assertEquals(0, shot.exitCode, shot.stderr);
        assertTrue(hasColour(ImageIO.read(png.toFile()), 0xfdecea), "the red mismatch banner is painted");
    }

    /** Ranks of the seed-4ms scenario with 5 % jitter (a different seed per rank), one file each. */
    static Path bigJob(Path dir, int ranks, int steps) throws IOException {
        Files.createDirectories(dir);
        Scenario base = BuiltinScenarios.get("seed-4ms").withSteps(steps);
        for (int r = 0; r < ranks; r++) {
            try (OutputStream out = Files.newOutputStream(dir.resolve("rank" + r + ".pt.trace.json"))) {
                KinetoScenarioWriter.write(base.withRank(r, ranks).withJitter(5, 1000 + r), out);
            }
        }
        return dir;
    }

    // --- tables fit the window ----------------------------------------------------------------------

    /**
     * A job whose source paths are long (about 250 characters), as real job directories are: the
     * summary's source column is what pushed cause, exposed and overlap off a 1,400 px window.
     */
    private Path longPathJob() throws IOException {
        Path dir = tmp;
        for (String part : List.of("training-runs-of-the-language-model-team", "experiment-2026-12-02T00-00-00Z-"
                + "bucket-cap-25mb-gradient-as-bucket-view", "node-pool-a100-80gb-spot-instances-zone-b",
                "profiler-output-of-every-rank-at-step-100")) {
            dir = dir.resolve(part);
        }
        return bigJob(dir, 3, 2);
    }

    /**
     * Every table of the page sits alone in its own {@code div.tw} box, which scrolls inside the
     * page when the table is wider than the page; file paths wrap anywhere, headers and text cells
     * at spaces.
     */
    @Test
    void everyTableSitsInItsOwnScrollingBox() throws IOException {
        for (String input : List.of(TimelineTest.sample("seed-4ms").toString(), jobSample("job-order-mismatch")
                .toString(), longPathJob().toString(), TimelineTest.sample("x").getParent()
                .resolve("pipeline-4stage.pt.trace.json.gz").toString())) {
            String text = Files.readString(html(input));
            Document doc = Jsoup.parse(text);
            Elements tables = doc.select("table");
            assertFalse(tables.isEmpty(), input);
            for (Element t : tables) {
                Element box = t.parent();
                assertTrue(box.tagName().equals("div") && box.hasClass("tw"), input + ": table." + t.className()
                        + " is in " + box.tagName() + "." + box.className());
                assertEquals(1, box.childrenSize(), "the box holds the table alone");
            }
            String css = doc.select("head style").first().data();
            assertTrue(css.contains(".tw{max-width:100%;overflow-x:auto}"), "the box scrolls, the page does not");
            assertTrue(css.contains("td.src{overflow-wrap:anywhere"), "paths wrap anywhere");
            assertTrue(css.contains("th,td.l{white-space:normal}"), "headers and text cells wrap at spaces");
            assertTrue(doc.select("#summary table.ranks td.src").size() >= 1, "the source cells are paths");
        }
    }

    /**
     * In a 1,400 px window the summary table's cause, exposed and overlap cells are on screen, the
     * table needs no scrolling in its box, and no table makes the page scroll sideways. The page's
     * own layout is measured by a probe script added to a copy of it (the report has no script).
     */
    @Test
    void summaryTableFitsA1400PixelWindowInHeadlessChromium() throws Exception {
        String chromium = chromium();
        assumeTrue(chromium != null, "chromium is not installed: skipping the browser check "
                + "(.ci/run installs the Debian package 'chromium')");
        String page = Files.readString(html(longPathJob().toString()));
        String source = Jsoup.parse(page).select("#summary table.ranks td.src").first().text();
        assertTrue(source.length() > 200, "a long path: " + source.length());
        String probe = """
                <script>(function(){
                var w=window.innerWidth,t=document.querySelector('#summary table.ranks'),box=t.parentElement;
                var head=[].map.call(t.rows[0].cells,function(c){return c.textContent;});
                var cells=[];
                for(var r=1;r<t.rows.length;r++){for(var c=0;c<t.rows[r].cells.length;c++){
                  var b=t.rows[r].cells[c].getBoundingClientRect();
                  cells.push({col:head[c],left:b.left,right:b.right});}}
                var boxes=[].map.call(document.querySelectorAll('.tw'),function(d){
                  return d.getBoundingClientRect().right;});
                document.body.setAttribute('data-fit',JSON.stringify({window:w,
                  page:document.documentElement.scrollWidth,boxRight:box.getBoundingClientRect().right,
                  boxScroll:box.scrollWidth,boxClient:box.clientWidth,cells:cells,boxes:boxes}));
                })();</script>""";
        Path file = tmp.resolve("fit.html");
        Files.writeString(file, page.replace("</body>", probe + "</body>"));
        Browser dom = run(chromium, "--dump-dom", file, "1400,900");
        assertEquals(0, dom.exitCode, dom.stderr);
        assertNoConsoleErrors(dom.stderr);
        String fit = Jsoup.parse(dom.stdout).body().attr("data-fit");
        assertFalse(fit.isEmpty(), "the probe ran");
        JsonNode m = JsonRenderer.mapper().readTree(fit);
        int window = m.get("window").asInt();
        assertEquals(1400, window);
        assertTrue(m.get("page").asInt() <= window, "the page does not scroll sideways: " + fit);
        assertTrue(m.get("boxScroll").asInt() <= m.get("boxClient").asInt(), "the summary needs no scrolling: "
                + fit);
        int checked = 0;
        for (JsonNode c : m.get("cells")) {
            String col = c.get("col").asText();
            if (col.equals("cause") || col.startsWith("median exposed") || col.equals("overlap")) {
                assertTrue(c.get("left").asDouble() >= 0 && c.get("right").asDouble() <= window, col + ": " + c);
                assertTrue(c.get("right").asDouble() <= m.get("boxRight").asDouble() + 0.5, col + " in its box: "
                        + c);
                checked++;
            }
        }
        assertEquals(3 * 3, checked, "three columns of three ranks");
        for (JsonNode right : m.get("boxes")) {
            assertTrue(right.asDouble() <= window, "every table box ends inside the window: " + fit);
        }
    }

    /**
     * The two published Ascend ranks, one step each: the job chart is two labelled bars, and its
     * axis ends at 100 ms, not 200. By hand from PROVENANCE.md (union rule): exposed communication
     * is 101,963.197 µs on rank 0 and 96,359.045 µs on rank 1, a median of 99,161.121 µs; with at
     * most five intervals a 10 ms step needs 10, a 20 ms step 5, so the axis is 0, 20, …, 100 ms.
     */
    @Test
    void ascendOneStepChartIsTwoLabelledBarsOnAnAxisScaledToTheData() throws IOException {
        Path job = SharedTraces.root().resolve("ascend/torch_npu_text_level1");
        assumeTrue(Files.isDirectory(job), job + " not found: skipping");
        Document doc = Jsoup.parse(Files.readString(html(job.toString())));
        Element chart = doc.selectFirst("#steps svg.stepchart");
        assertEquals("1", chart.attr("data-steps"));
        assertTrue(chart.select("circle.dot").isEmpty(), "no lone dot");
        long exposed = Long.parseLong(chart.selectFirst("g.single[data-series=exposed]").attr("data-ns"));
        assertTrue(Math.abs(exposed - 99_161_121L) <= 1_000, "median exposed comm " + exposed);
        long tail = Long.parseLong(chart.selectFirst("g.single[data-series=tail]").attr("data-ns"));
        long top = Long.parseLong(chart.attr("data-axis-top-ns"));
        assertEquals(100 * MS, top);
        assertTrue(top >= Math.max(tail, exposed), "the axis covers the tail " + tail);
        assertTrue(chart.selectFirst("g.single[data-series=exposed] text").text().startsWith("exposed comm 99.16"),
                chart.select("g.single text").eachText().toString());
    }

    // --- headless Chromium ----------------------------------------------------------------------

    @Test
    void rendersInHeadlessChromiumWithoutConsoleErrors() throws Exception {
        String chromium = chromium();
        assumeTrue(chromium != null, "chromium is not installed: skipping the browser check "
                + "(.ci/run installs the Debian package 'chromium')");
        Path file = html(TimelineTest.sample("seed-4ms").toString());

        Browser dom = run(chromium, "--dump-dom", file, "1400,900");
        assertEquals(0, dom.exitCode, dom.stderr);
        assertNoConsoleErrors(dom.stderr);
        Document rendered = Jsoup.parse(dom.stdout);
        Element svg = rendered.select("details.step[open] svg.timeline").first();
        assertTrue(svg != null, "an opened step timeline in the rendered DOM");
        assertEquals(4, svg.select("g.mk line").size(), "the four markers");
        assertEquals(List.of("compute", "comm", "exposed"), svg.select("path[data-lane]").eachAttr("data-lane"));

        Path png = tmp.resolve("seed-4ms.png");
        Browser shot = run(chromium, "--screenshot=" + png, file, "1400,900");
        assertEquals(0, shot.exitCode, shot.stderr);
        assertNoConsoleErrors(shot.stderr);
        BufferedImage image = ImageIO.read(png.toFile());
        assertEquals(1400, image.getWidth());
        // The page painted: the compute lane's blue and exposed comm's red are on screen.
        Path tall = tmp.resolve("tall.png");
        Browser tallShot = run(chromium, "--screenshot=" + tall, file, "1400,2200");
        assertEquals(0, tallShot.exitCode, tallShot.stderr);
        BufferedImage full = ImageIO.read(tall.toFile());
        assertTrue(hasColour(full, 0x4e79a7), "compute lane painted");
        assertTrue(hasColour(full, 0xe15759), "exposed comm painted");
    }

    @Test
    void consoleErrorDetectionWorks() throws Exception {
        String chromium = chromium();
        assumeTrue(chromium != null, "chromium is not installed: skipping the browser check");
        Path bad = tmp.resolve("bad.html");
        Files.writeString(bad, "<html><body><script>throw new Error('on purpose')</script></body></html>");
        Browser b = run(chromium, "--dump-dom", bad, "800,600");
        assertThrowsAssertion(() -> assertNoConsoleErrors(b.stderr));
    }

    private static void assertThrowsAssertion(Runnable r) {
        try {
            r.run();
        } catch (AssertionError expected) {
            return;
        }
        throw new AssertionError("a page that throws must fail the console check");
    }

    static void assertNoConsoleErrors(String stderr) {
        List<String> bad = stderr.lines()
                .filter(l -> l.contains(":CONSOLE") || l.contains("Uncaught") || l.contains("Failed to load resource"))
                .toList();
        assertTrue(bad.isEmpty(), "console messages: " + bad);
    }

    private static boolean hasColour(BufferedImage img, int rgb) {
        for (int y = 0; y < img.getHeight(); y += 2) {
            for (int x = 0; x < img.getWidth(); x += 2) {
                if ((img.getRGB(x, y) & 0xffffff) == rgb) {
                    return true;
                }
            }
        }
        return false;
    }

    record Browser(int exitCode, String stdout, String stderr) {
    }

    static String chromium() {
        for (String name : List.of("chromium", "chromium-browser")) {
            for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin").split(":")) {
                Path p = Path.of(dir, name);
                if (Files.isExecutable(p)) {
                    return p.toString();
                }
            }
        }
        return null;
    }

    /** Headless Chromium with the flags that work in containers, a fresh profile, console logging on stderr. */
    static Browser run(String chromium, String action, Path page, String windowSize, String... moreFlags)
            throws Exception {
        Path profile = Files.createTempDirectory("chromium-profile");
        List<String> cmd = new ArrayList<>(List.of(chromium, "--headless", "--no-sandbox", "--disable-gpu",
                "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--user-data-dir=" + profile, "--enable-logging=stderr", "--v=0",
                "--window-size=" + windowSize, "--hide-scrollbars"));
        cmd.addAll(List.of(moreFlags));
        cmd.add(action);
        cmd.add(page.toUri().toString());
        Path out = Files.createTempFile("chromium", ".out");
        Path err = Files.createTempFile("chromium", ".err");
        Process p = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        if (!p.waitFor(90, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("chromium did not finish in 90 s: " + cmd);
        }
        try {
            return new Browser(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                    Files.readString(err, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
            deleteTree(profile);
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        try (var walk = Files.walk(dir)) {
            for (Path p : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
