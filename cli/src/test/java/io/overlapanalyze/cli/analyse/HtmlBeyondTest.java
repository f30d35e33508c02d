package io.overlapanalyze.cli.analyse;

import io.overlapanalyze.cli.CliRun;
import io.overlapanalyze.cli.SharedTraces;

import com.fasterxml.jackson.databind.JsonNode;
import io.overlapanalyze.render.JsonRenderer;
import io.overlapanalyze.synth.ParallelScenarioWriter;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.jsoup.select.Elements;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The HTML report's per-rank "Beyond DDP" block: every number checked
 * against the JSON report of the same run (one CLI call writes both), with jsoup on the exact
 * values of the data attributes.
 */
class HtmlBeyondTest {
    @TempDir
    Path tmp;

    /** The page and the JSON report of one run. */
    private record Run(String html, Document doc, JsonNode json) {
        JsonNode rank(int i) {
            return json.get("ranks").get(i);
        }

        Element block(int rankIndex) {
            Elements blocks = doc.select("#ranks details.rank details.beyond");
            assertEquals(json.get("ranks").size(), blocks.size(), "one Beyond DDP block per rank");
            return blocks.get(rankIndex);
        }
    }

    private Run run(String... paths) throws IOException {
        Path out = tmp.resolve("report-" + System.nanoTime() + ".html");
        List<String> args = new ArrayList<>(List.of(paths));
        args.addAll(List.of("--html", out.toString(), "-f", "json"));
        CliRun r = CliRun.of(args.toArray(String[]::new));
        assertEquals(0, r.exitCode(), r.err());
        String text = Files.readString(out);
        HtmlReportTest.assertSelfContained(text);
        return new Run(text, Jsoup.parse(text), JsonRenderer.mapper().readTree(r.out()));
    }

    private static String sample(String name) {
        return SamplesTest.samples().resolve(name).toString();
    }

    private static long ns(Element td) {
        return Long.parseLong(td.attr("data-ns"));
    }

    @Test
    void fsdpSampleShowsTheLatePrefetchWithTheJsonsLateness() throws IOException {
        Run r = run(sample("fsdp-late-prefetch.pt.trace.json.gz"));
        JsonNode rank = r.rank(0);
        Element b = r.block(0);

        assertEquals("FSDP", b.select("p.par").attr("data-kinds"));
        assertEquals(rank.get("parallelism").get("evidence").get(0).asText(), b.select("ul.evidence li").first().text());
        assertTrue(b.selectFirst("summary").text().contains("parallelism FSDP"), b.selectFirst("summary").text());

        // Per step: exposed prefetch equals the JSON's; late rows are exactly the JSON's all-gathers with wait > 0.
        List<JsonNode> late = new ArrayList<>();
        for (JsonNode s : rank.get("steps")) {
            Element row = b.selectFirst("table.prefetch-steps tr[data-step='" + s.get("name").asText() + "']");
            assertNotNull(row, s.get("name").asText());
            assertEquals(s.get("exposedPrefetchNs").asLong(), ns(row.selectFirst("td[data-k=exposed-prefetch]")));
            assertEquals(s.get("prefetches").size(), Integer.parseInt(row.child(1).text()));
            for (JsonNode p : s.get("prefetches")) {
                if (!p.get("waitNs").isNull() && p.get("waitNs").asLong() > 0) {
                    late.add(p);
                }
            }
        }
        Elements rows = b.select("table.late-prefetch tr[data-collective]");
        assertEquals(late.size(), rows.size());
        assertEquals(2, rows.size(), "one late all-gather in each of the two steps");
        for (int i = 0; i < late.size(); i++) {
            JsonNode p = late.get(i);
            Element row = rows.get(i);
            assertEquals(p.get("collective").asText(), row.attr("data-collective"));
            assertEquals(p.get("lateNs").asLong(), ns(row.selectFirst("td[data-k=late]")));
            assertEquals(500_000L, ns(row.selectFirst("td[data-k=late]")), "the sample's 0.5 ms lateness");
            assertEquals(p.get("waitNs").asLong(), ns(row.selectFirst("td[data-k=wait]")));
            assertEquals(p.get("consumerKernel").asText(), row.select("td[title]").attr("title"));
            assertEquals(p.get("rule").asText(), row.child(7).text());
        }
        // This trace has no send/recv: the pipeline section says why, as the JSON does.
        assertEquals("not available: " + rank.get("notAvailable").get("pipeline").asText(),
                b.selectFirst("p.na[data-section=pipeline]").text());
    }

    @Test
    void pipelineSampleShowsOverlapAndBubblesPerStep() throws IOException {
        Run r = run(sample("pipeline-4stage.pt.trace.json.gz"));
        JsonNode rank = r.rank(0);
        Element b = r.block(0);
        assertEquals("PIPELINE", b.select("p.par").attr("data-kinds"));
        Elements rows = b.select("table.pipeline tr[data-step]");
        assertEquals(rank.get("steps").size(), rows.size());
        for (int i = 0; i < rows.size(); i++) {
            JsonNode p = rank.get("steps").get(i).get("pipeline");
            Element row = rows.get(i);
            assertEquals(rank.get("steps").get(i).get("name").asText(), row.attr("data-step"));
            assertEquals(p.get("p2pCollectives").asInt(), Integer.parseInt(row.child(1).text()));
            assertEquals(p.get("p2pBusyNs").asLong(), ns(row.selectFirst("td[data-k=p2p-busy]")));
            assertEquals(p.get("p2pOverlappedNs").asLong(), ns(row.selectFirst("td[data-k=p2p-overlapped]")));
            assertEquals(p.get("p2pExposedNs").asLong(), ns(row.selectFirst("td[data-k=p2p-exposed]")));
            assertEquals(p.get("bubbleNs").asLong(), ns(row.selectFirst("td[data-k=bubble]")));
            assertEquals(p.get("bubbles").asInt(), Integer.parseInt(row.child(6).text()));
            assertEquals(p.get("largestBubbleNs").asLong(), ns(row.selectFirst("td[data-k=largest-bubble]")));
        }
        // Every other section says why it has nothing, in the JSON's words.
        for (String section : List.of("prefetch", "launch", "contention", "memory")) {
            assertEquals("not available: " + rank.get("notAvailable").get(section).asText(),
                    b.selectFirst("p.na[data-section=" + section + "]").text(), section);
        }
        assertTrue(b.select("table.prefetch-steps, table.launch, table.contention, table.memory").isEmpty());
    }

    /** The real df_index_resolver trace (Kineto [memory] events): the peak shown per step is the JSON's. */
    @Test
    void peakAllocatedPerStepEqualsTheJson() throws IOException {
        Run r = run(SharedTraces.kineto("hta_df_index_resolver_rank1of2_v100_memory.json.gz").toString());
        JsonNode rank = r.rank(0);
        Element b = r.block(0);
        assertTrue(b.select("p.na[data-section=memory]").isEmpty());
        Elements rows = b.select("table.memory tr[data-step]");
        assertEquals(5, rows.size());
        assertEquals(rank.get("steps").size(), rows.size());
        for (int i = 0; i < rows.size(); i++) {
            JsonNode s = rank.get("steps").get(i);
            assertEquals(s.get("name").asText(), rows.get(i).attr("data-step"));
            assertEquals(s.get("peakAllocatedBytes").asLong(),
                    Long.parseLong(rows.get(i).selectFirst("td[data-bytes]").attr("data-bytes")));
        }
        // docs/reference/memory_peaks_df_index_resolver.md: every step peaks at 6,629,508,096 bytes.
        assertEquals("6629508096", rows.first().selectFirst("td[data-bytes]").attr("data-bytes"));
        Element spark = b.selectFirst("svg.spark");
        assertNotNull(spark, "sparkline of the peaks");
        assertEquals("5", spark.attr("data-points"));
        assertEquals("6629508096", spark.attr("data-max-bytes"));
    }

    /** The seed sample has no allocator events, all-gathers or send/recv: each section says so. */
    @Test
    void traceWithoutAllocatorEventsSaysNotAvailable() throws IOException {
        Run r = run(sample("seed-1ms.pt.trace.json"));
        JsonNode na = r.rank(0).get("notAvailable");
        Element b = r.block(0);
        assertFalse(na.get("memory").isNull());
        assertEquals("not available: " + na.get("memory").asText(), b.selectFirst("p.na[data-section=memory]").text());
        assertTrue(b.text().contains("not available: the trace has no device allocator events"), b.text());
        assertTrue(b.select("table.memory, svg.spark").isEmpty());
        assertEquals("not available: " + na.get("prefetch").asText(), b.selectFirst("p.na[data-section=prefetch]").text());
        assertEquals("not available: " + na.get("pipeline").asText(), b.selectFirst("p.na[data-section=pipeline]").text());
        // DDP with gradient collectives: launch diagnostics per step, as the JSON has them.
        JsonNode launch = r.rank(0).get("steps").get(0).get("launch");
        Element row = b.selectFirst("table.launch tr[data-step]");
        assertEquals(launch.get("startDelayNs").asLong(), ns(row.selectFirst("td[data-k=start-delay]")));
        assertEquals(launch.get("launchLateNs").asLong(), ns(row.selectFirst("td[data-k=launch-late]")));
        assertEquals(launch.get("commBusyNs").asLong(), ns(row.selectFirst("td[data-k=comm-busy]")));
        assertEquals(launch.get("otherNs").asLong(), ns(row.selectFirst("td[data-k=other]")));
        // The glossary explains the new terms.
        List<String> terms = r.doc().select("#glossary dt").eachText();
        for (String t : List.of("exposed prefetch", "bubble", "slowdown under overlap", "peak allocated")) {
            assertTrue(terms.contains(t), t + " in " + terms);
        }
    }

    /** A GEMM exactly 20 % slower under communication: the contention row is the JSON's. */
    @Test
    void contentionTableIsTheJsons() throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        ParallelScenarioWriter.writeJson("{\"kind\": \"contention\", \"name\": \"c\", \"steps\": 2, \"kernelUs\": 100, "
                + "\"kernels\": 8, \"slowdownPct\": 20}", bytes, "c.pt.trace.json");
        Path file = tmp.resolve("c.pt.trace.json");
        Files.write(file, bytes.toByteArray());
        Run r = run(file.toString());
        JsonNode c = r.rank(0).get("contention").get(0);
        Element b = r.block(0);
        Elements rows = b.select("table.contention tr[data-kernel]");
        assertEquals(r.rank(0).get("contention").size(), rows.size());
        Element row = rows.first();
        assertEquals(c.get("kernel").asText(), row.attr("data-kernel"));
        assertEquals("-", row.child(1).text(), "the scenario's kernels carry no launch shape");
        assertEquals(c.get("overlappedCount").asInt(), Integer.parseInt(row.child(2).text()));
        assertEquals(c.get("isolatedCount").asInt(), Integer.parseInt(row.child(3).text()));
        assertEquals(c.get("overlappedMedianNs").asLong(), ns(row.selectFirst("td[data-k=overlapped-median]")));
        assertEquals(c.get("isolatedMedianNs").asLong(), ns(row.selectFirst("td[data-k=isolated-median]")));
        assertEquals(c.get("slowdownPct").asDouble(), Double.parseDouble(row.selectFirst("td[data-pct]").attr("data-pct")),
                1e-4);
        assertEquals("20.0% slower", row.selectFirst("td[data-pct]").text());
        assertEquals(c.get("extraPerStepNs").asLong(), ns(row.selectFirst("td[data-k=extra]")));
    }
}
