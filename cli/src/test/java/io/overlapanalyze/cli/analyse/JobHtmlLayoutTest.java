package io.overlapanalyze.cli.analyse;

import io.overlapanalyze.cli.CliRun;
import io.overlapanalyze.cli.SharedTraces;

import com.fasterxml.jackson.databind.JsonNode;
import io.overlapanalyze.render.JsonRenderer;
import io.overlapanalyze.synth.Job;
import io.overlapanalyze.synth.JobWriter;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static io.overlapanalyze.cli.analyse.HtmlReportTest.assertNoConsoleErrors;
import static io.overlapanalyze.cli.analyse.HtmlReportTest.chromium;
import static io.overlapanalyze.cli.analyse.HtmlReportTest.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Issue 27, HTML: a job's page opens with the job, as the text report does (the same lines, the
 * same rank rows in the same order), with a picture of the ranks; and it reads from a phone to a
 * wide screen: in headless Chromium at 390, 1,280 and 2,560 px the page never scrolls sideways,
 * the job is the first section and starts on the first screen, every chart fits the window with
 * text large enough to read, and every table wider than the window scrolls in its own box.
 *
 * <p>Every multi-rank sample and real job of ../shared/traces opens with the job (skipped with a
 * message where the traces are absent). Ground truth for the generated job is its own parameters: rank {@value #SLOW} starts every
 * step late (the straggler), rank {@value #REORDERED} issues two buckets in swapped order (the
 * error); for the sample, samples/README-jobs.md: rank 2 issues an ALL_REDUCE where the others
 * issue a REDUCE_SCATTER.
 */
class JobHtmlLayoutTest {
    private static final int RANKS = 64;
    private static final int SLOW = 41;
    private static final int REORDERED = 5;

    @TempDir
    static Path dir;
    private static Path job;

    @BeforeAll
    static void writeJob() throws IOException {
        job = dir.resolve("job64");
        JobWriter.write(Job.parse("""
                {"name": "html64", "ranks": %d, "scenario": "seed-1ms", "steps": 6,
                 "slowRank": %d, "delayUs": 400,
                 "bucketTypes": ["allreduce", "reducescatter", "allreduce"],
                 "perturbations": [{"kind": "reorder", "rank": %d, "step": 4, "bucket": 2}]}
                """.formatted(RANKS, SLOW, REORDERED), "html64.job.json"), job, false);
    }

    /** Real multi-rank jobs of ../shared/traces (PROVENANCE.md), by a short name. */
    private static final java.util.Map<String, List<String>> REAL = java.util.Map.of(
            "ascend-text", List.of("ascend/torch_npu_text_level1"),
            "ascend-db", List.of("ascend/torch_npu_db_level1"),
            "nsys-torchrun", List.of("nsys/nsys2026.2.1_torchrun2gpu_nccl_before.sqlite"),
            "nsys-2gpu", List.of("nsys/nsys2026.2.1_2gpu_pytorch_nvtx.sqlite"),
            "kineto-of-128", List.of("kineto/hta_trace_filter_sampled_rank0of128.json.gz",
                    "kineto/hta_trace_filter_sampled_rank1of128.json.gz"));

    private static List<Path> input(String which) {
        if (REAL.containsKey(which)) {
            List<Path> paths = REAL.get(which).stream().map(p -> SharedTraces.root().resolve(p)).toList();
            assumeTrue(paths.stream().allMatch(Files::exists), paths + " not found: skipping");
            return paths;
        }
        return List.of(which.equals("sample") ? TimelineTest.sample("x").getParent().resolve("job-order-mismatch")
                : which.equals("healthy") ? TimelineTest.sample("x").getParent().resolve("job-healthy-4rank") : job);
    }

    /** The page and the text report of one run. */
    private record Run(Path page, String text) {
    }

    private static Run analyse(String which) throws IOException {
        Path page = Files.createTempFile(dir, which, ".html");
        List<String> args = new ArrayList<>(input(which).stream().map(Path::toString).toList());
        args.addAll(List.of("--html", page.toString()));
        CliRun run = CliRun.of(args.toArray(String[]::new));
        assertEquals(0, run.exitCode(), run.err());
        return new Run(page, run.out());
    }

    /**
     * The page's first section is the job's, with the text report's overview lines (from "job:" to
     * the blank line) and its rank rows, in the same order; returns the section.
     */
    private static Element assertOverviewAsInText(Run r) throws IOException {
        Document doc = Jsoup.parse(Files.readString(r.page()));
        Element first = doc.selectFirst("body > section");
        assertEquals("job", first.id(), "the first section is the job's");
        List<String> text = r.text().lines().toList();
        int from = text.indexOf(text.stream().filter(l -> l.startsWith("job: ")).findFirst().orElseThrow());
        List<String> overview = new ArrayList<>();
        for (int i = from; !text.get(i).isBlank(); i++) {
            overview.add(text.get(i));
        }
        assertEquals(overview, first.select("p.job-line, p.job-error").eachText());
        String noSteps = text.stream().filter(l -> l.startsWith("ranks: no rank has")).findFirst().orElse(null);
        if (noSteps != null) {
            // No complete step anywhere (captures without step ranges): one line in both, no table.
            assertEquals(noSteps, first.select("p.no-steps").text());
            assertTrue(first.select("table.job-ranks").isEmpty());
            return first;
        }
        List<String> textRanks = new ArrayList<>();
        int header = text.indexOf(text.stream().filter(l -> l.startsWith("rank  steps")).findFirst().orElseThrow());
        for (int i = header + 1; i < text.size() && text.get(i).matches(" *\\d+ .*"); i++) {
            textRanks.add(text.get(i).strip().split(" +")[0]);
        }
        assertEquals(textRanks, first.select("table.job-ranks tr[data-rank]").eachAttr("data-rank"));
        assertFalse(textRanks.isEmpty());
        return first;
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"healthy", "ascend-text", "ascend-db", "nsys-torchrun", "nsys-2gpu", "kineto-of-128"})
    void everyMultiRankSampleAndRealJobOpensWithTheJob(String which) throws IOException {
        Element first = assertOverviewAsInText(analyse(which));
        int pictures = first.select("svg.ranksdist").size();
        boolean anyPeriod = !first.select("table.job-ranks td:eq(3)").eachText().stream().allMatch("-"::equals);
        assertEquals(anyPeriod ? 2 : 0, pictures, "the ranks picture (wide and narrow) when a rank has a step period");
    }

    // --- the page's content (no browser needed) ---------------------------------------------------------

    @ParameterizedTest(name = "{0}")
    @CsvSource({"sample, 2, -1, 4", "job, " + REORDERED + ", " + SLOW + ", " + RANKS})
    void theJobIsTheFirstSectionWithTheTextReportsLinesAndRows(String which, int errorRank, int slowRank, int ranks)
            throws IOException {
        Run r = analyse(which);
        Element first = assertOverviewAsInText(r);
        Element error = first.selectFirst("p.job-error");
        assertNotNull(error, "the cross-rank ERROR is in the overview");
        assertTrue(error.text().contains("rank " + errorRank + " issued ALL_REDUCE"), error.text());
        assertTrue(first.selectFirst("#findings ol.findings").text().contains("COLLECTIVE_MISMATCH"), "the findings");

        // The rank table (the text's rows, checked above): the error rank first, the straggler next.
        List<String> shownRanks = first.select("table.job-ranks tr[data-rank]").eachAttr("data-rank");
        assertEquals(String.valueOf(errorRank), shownRanks.get(0));
        assertTrue(first.selectFirst("tr[data-rank=" + errorRank + "]").hasClass("sev-error"));
        if (slowRank >= 0) {
            assertEquals(String.valueOf(slowRank), shownRanks.get(1));
            assertTrue(first.selectFirst("tr[data-rank=" + slowRank + "]").hasClass("straggler"));
            assertEquals(16, shownRanks.size(), "capped as the text is");
            assertEquals("… " + (ranks - 16) + " more ranks (--rank-rows all lists them; JSON has every rank)",
                    first.selectFirst("p.more-ranks").text());
        } else {
            assertEquals(ranks, shownRanks.size());
        }

        // The picture: every rank, the error rank (and the straggler) marked and named.
        for (Element svg : first.select("svg.ranksdist")) {
            assertEquals(String.valueOf(ranks), svg.attr("data-ranks"));
            List<String> marks = svg.select("text.mkl").eachText();
            assertTrue(marks.contains(String.valueOf(errorRank)), marks.toString());
            assertEquals(1, svg.select("path.pb.er").size(), "the error rank's bar");
            if (slowRank >= 0) {
                assertTrue(marks.contains(String.valueOf(slowRank)), marks.toString());
                assertEquals(1, svg.select("path.pb.st").size(), "the straggler's bar");
            }
        }
        assertEquals(List.of("ranksdist wide", "ranksdist narrow"), first.select("svg.ranksdist").eachAttr("class"));
        assertEquals(String.join(",", ranksByPeriod(which)), first.selectFirst("svg.ranksdist.wide")
                .attr("data-order"), "the bars are the ranks, longest median step period first");
    }

    /** Rank ids by median step period (longest first, ties by rank), from the JSON report of the same input. */
    private static List<String> ranksByPeriod(String which) throws IOException {
        List<String> args = new ArrayList<>(input(which).stream().map(Path::toString).toList());
        args.addAll(List.of("-f", "json"));
        CliRun run = CliRun.of(args.toArray(String[]::new));
        JsonNode ranks = JsonRenderer.mapper().readTree(run.out()).get("ranks");
        List<long[]> periods = new ArrayList<>();
        for (JsonNode r : ranks) {
            periods.add(new long[] {r.get("totals").get("medians").get("stepPeriodNs").asLong(), r.get("rank").asLong()});
        }
        periods.sort((a, b) -> a[0] != b[0] ? Long.compare(b[0], a[0]) : Long.compare(a[1], b[1]));
        return periods.stream().map(p -> Long.toString(p[1])).toList();
    }

    // --- what Chromium shows at three widths -------------------------------------------------------------

    private static final int[] WIDTHS = {390, 1280, 2560};

    /**
     * A test-only page that shows the report in three frames, 390, 1,280 and 2,560 px wide (a
     * browser window cannot be narrower than 500 px, a frame can), and once they are loaded writes
     * what each shows into its own DOM for {@code --dump-dom}: the frame's width, the page's scroll
     * width, the job section's place, each shown SVG's box and the size its text is drawn at, each
     * shown table against its box. The report itself has no script.
     */
    private static String wrapper(String reportName) {
        StringBuilder frames = new StringBuilder();
        for (int w : WIDTHS) {
            frames.append("<iframe id=\"w").append(w).append("\" src=\"").append(reportName)
                    .append("\" style=\"display:block;border:0;height:900px;width:").append(w).append("px\"></iframe>");
        }
        return """
                <!DOCTYPE html><html><head><meta charset="utf-8"></head><body style="margin:0">%s<script>
                window.addEventListener('load',function(){var out={};
                [].forEach.call(document.querySelectorAll('iframe'),function(f){
                  var win=f.contentWindow,doc=f.contentDocument,w=win.innerWidth,h=win.innerHeight;
                  var first=doc.querySelector('body > section');
                  var svgs=[].filter.call(doc.querySelectorAll('svg'),function(s){
                    var b=s.getBoundingClientRect();return b.width>0&&b.height>0;}).map(function(s){
                    var b=s.getBoundingClientRect(),vb=s.viewBox.baseVal,t=s.querySelector('text');
                    var font=t?parseFloat(win.getComputedStyle(t).fontSize)*(vb&&vb.width?b.width/vb.width:1):null;
                    return {cls:s.getAttribute('class'),left:b.left,right:b.right,font:font};});
                  var tables=[].map.call(doc.querySelectorAll('table'),function(t){
                    var box=t.parentElement,b=box.getBoundingClientRect();
                    return {cls:t.className,width:t.getBoundingClientRect().width,boxClass:box.className,
                      boxRight:b.right,overflow:win.getComputedStyle(box).overflowX,shown:b.width>0};});
                  out[f.id]={window:w,height:h,page:doc.documentElement.scrollWidth,first:first.id,
                    jobLineBottom:first.querySelector('p.job-line').getBoundingClientRect().bottom,
                    svgs:svgs,tables:tables};});
                document.body.setAttribute('data-fit',JSON.stringify(out));});
                </script></body></html>""".formatted(frames);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"sample", "job", "kineto-of-128"})
    void readsFromAPhoneToAWideScreenInHeadlessChromium(String which) throws Exception {
        String chromium = chromium();
        assumeTrue(chromium != null, "chromium is not installed: skipping the browser check "
                + "(.ci/run installs the Debian package 'chromium')");
        Path page = analyse(which).page();
        Path wrapper = page.resolveSibling(which + "-three-widths.html");
        Files.writeString(wrapper, wrapper(page.getFileName().toString()));
        // The frames' documents are files too: the wrapper may read them only with file access allowed.
        HtmlReportTest.Browser dom = run(chromium, "--dump-dom", wrapper, "2600,1000",
                "--allow-file-access-from-files");
        assertEquals(0, dom.exitCode(), dom.stderr());
        assertNoConsoleErrors(dom.stderr());
        String fit = Jsoup.parse(dom.stdout()).body().attr("data-fit");
        assertFalse(fit.isEmpty(), "the probe ran: " + dom.stderr());
        JsonNode all = JsonRenderer.mapper().readTree(fit);
        for (int width : WIDTHS) {
            JsonNode m = all.get("w" + width);
            String at = which + " at " + width + " px: ";
            assertEquals(width, m.get("window").asInt(), at + "the frame is as wide as asked");
            assertTrue(m.get("page").asInt() <= width, at + "the page does not scroll sideways: " + m.get("page"));
            assertEquals("job", m.get("first").asText(), at + "the job is the first section");
            assertTrue(m.get("jobLineBottom").asDouble() <= m.get("height").asDouble(), at + "the job's first line "
                    + "is on the first screen: " + m.get("jobLineBottom"));

            int pictures = 0;
            for (JsonNode s : m.get("svgs")) {
                assertTrue(s.get("left").asDouble() >= -0.5 && s.get("right").asDouble() <= width + 0.5,
                        at + "svg." + s.get("cls").asText() + " fits the window: " + s);
                if (s.get("cls").asText().startsWith("ranksdist")) {
                    pictures++;
                    assertEquals(width < 640 ? "ranksdist narrow" : "ranksdist wide", s.get("cls").asText(), at);
                    assertTrue(s.get("font").asDouble() >= 9, at + "the ranks picture's text is readable: " + s);
                }
            }
            assertEquals(1, pictures, at + "one ranks picture shown");
            int wider = 0;
            for (JsonNode t : m.get("tables")) {
                if (!t.get("shown").asBoolean()) {
                    continue; // in a closed <details>
                }
                assertEquals("tw", t.get("boxClass").asText(), at + "every table is in its own box: " + t);
                assertTrue(t.get("boxRight").asDouble() <= width + 0.5, at + "its box ends inside the window: " + t);
                assertEquals("auto", t.get("overflow").asText(), at + "the box scrolls: " + t);
                wider += t.get("width").asDouble() > width ? 1 : 0;
            }
            if (width == 390) {
                assertTrue(wider > 0, at + "the rank table is wider than a phone, and scrolls in its box");
            }
        }
    }
}
