package io.overlapanalyze.cli.analyse;

import io.overlapanalyze.cli.CliRun;
import io.overlapanalyze.cli.annotate.AnnotationTraces;

import static io.overlapanalyze.cli.annotate.AnnotationTraces.MS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.overlapanalyze.render.JsonRenderer;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Micro-batch overlap per annotation, end to end (the traces of {@link AnnotationTraces}). By hand,
 * in ms, with K = [0, 10] (mlp_bwd_gemm, the only compute):
 * <pre>
 * dispatch(F): device [2, 6] = 4; comm 4; exposed [2, 6] − K = 0; hidden under mlp(B) [2, 6] ∩ [0, 10] = 4
 * combine(F):  device [12, 14] = 2; comm 2; exposed 2 (nothing computes after 10); hidden 0
 * mlp(B):      device [0, 10] = 10; comm 0; exposed 0; hidden 0
 * </pre>
 * Sorted by exposed communication, largest first, then by name: combine(F), dispatch(F), mlp(B).
 */
class MicroBatchOverlapTest {
    @TempDir
    Path dir;

    private JsonNode annotations(AnnotationTraces.Kind kind) throws IOException {
        Path t = AnnotationTraces.write(dir, "mb.pt.trace.json", kind, 2);
        CliRun run = CliRun.of("-f", "json", t.toString());
        assertEquals(0, run.exitCode(), run.err());
        return JsonRenderer.mapper().readTree(run.out()).at("/ranks/0/steps/0/annotations");
    }

    private static void assertHandNumbers(JsonNode a) {
        assertEquals(3, a.size(), a.toString());
        long[][] expected = {{2, 2, 2, 0}, {4, 4, 0, 4}, {10, 0, 0, 0}};
        String[] names = {"combine(F)", "dispatch(F)", "mlp(B)"};
        for (int k = 0; k < 3; k++) {
            JsonNode n = a.get(k);
            assertEquals(names[k], n.get("name").asText(), a.toString());
            assertEquals(expected[k][0] * MS, n.get("deviceNs").asLong(), names[k] + " deviceNs");
            assertEquals(expected[k][1] * MS, n.get("commNs").asLong(), names[k] + " commNs");
            assertEquals(expected[k][2] * MS, n.get("exposedCommNs").asLong(), names[k] + " exposedCommNs");
            assertEquals(expected[k][3] * MS, n.get("hiddenUnderNs").asLong(), names[k] + " hiddenUnderNs");
        }
    }

    @Test
    void gpuSideAnnotationsGiveTheHandNumbersClippedToTheirRanges() throws IOException {
        assertHandNumbers(annotations(AnnotationTraces.Kind.GPU));
    }

    @Test
    void hostRecordFunctionRangesAreMappedToTheWorkTheyLaunched() throws IOException {
        assertHandNumbers(annotations(AnnotationTraces.Kind.HOST));
    }

    @Test
    void jsonFieldNamesAreTheContract() throws IOException {
        JsonNode first = annotations(AnnotationTraces.Kind.GPU).get(0);
        List<String> fields = new ArrayList<>();
        first.fieldNames().forEachRemaining(fields::add);
        assertEquals(List.of("name", "deviceNs", "commNs", "exposedCommNs", "hiddenUnderNs"), fields);
    }

    @Test
    void withoutAnnotationsTheListIsEmptyAndNoTableIsPrinted() throws IOException {
        JsonNode a = annotations(AnnotationTraces.Kind.NONE);
        assertTrue(a.isArray() && a.isEmpty(), a.toString());
        Path t = AnnotationTraces.write(dir, "plain.pt.trace.json", AnnotationTraces.Kind.NONE, 2);
        CliRun text = CliRun.of(t.toString());
        assertEquals(0, text.exitCode(), text.err());
        assertFalse(text.out().contains(io.overlapanalyze.render.BeyondView.ANNOTATIONS_TITLE), text.out());
    }

    @Test
    void textTableIsSortedByExposedCommunication() throws IOException {
        Path t = AnnotationTraces.write(dir, "mb.pt.trace.json", AnnotationTraces.Kind.GPU, 2);
        CliRun run = CliRun.of(t.toString());
        assertEquals(0, run.exitCode(), run.err());
        String out = run.out();
        int table = out.indexOf(io.overlapanalyze.render.BeyondView.ANNOTATIONS_TITLE);
        assertTrue(table >= 0, out);
        String rest = out.substring(table);
        int combine = rest.indexOf("combine(F)");
        int dispatch = rest.indexOf("dispatch(F)");
        int mlp = rest.indexOf("mlp(B)");
        assertTrue(combine > 0 && combine < dispatch && dispatch < mlp, rest);
        // combine(F): device 2, comm 2, exposed 2, hidden 0 ms; dispatch(F): 4, 4, 0, 4.
        assertTrue(rest.lines().anyMatch(l -> l.contains("combine(F)") && l.matches(".*2\\.000\\s+2\\.000\\s+2\\.000\\s+0\\.000.*")),
                rest);
        assertTrue(rest.lines().anyMatch(l -> l.contains("dispatch(F)") && l.matches(".*4\\.000\\s+4\\.000\\s+0\\.000\\s+4\\.000.*")),
                rest);
    }

    @Test
    void markdownAndHtmlShowTheSameTable() throws IOException {
        Path t = AnnotationTraces.write(dir, "mb.pt.trace.json", AnnotationTraces.Kind.GPU, 2);
        CliRun md = CliRun.of("-f", "markdown", t.toString());
        assertEquals(0, md.exitCode(), md.err());
        assertTrue(md.out().contains("| annotation | device ms | comm ms | exposed ms | hidden under others ms |"), md.out());
        assertTrue(md.out().contains("| dispatch(F) | 4.000 | 4.000 | 0.000 | 4.000 |"), md.out());

        Path html = dir.resolve("r.html");
        CliRun h = CliRun.of("--html", html.toString(), t.toString());
        assertEquals(0, h.exitCode(), h.err());
        String page = java.nio.file.Files.readString(html);
        int row = page.indexOf("data-annotation=\"combine(F)\"");
        assertTrue(row > 0, "a row per annotation");
        String combine = page.substring(row, page.indexOf("</tr>", row));
        assertTrue(combine.contains("data-k=\"exposed\" data-ns=\"" + 2 * MS + "\""), combine);
        assertTrue(combine.contains("data-k=\"hidden-under\" data-ns=\"0\""), combine);

        Path plain = AnnotationTraces.write(dir, "plain.pt.trace.json", AnnotationTraces.Kind.NONE, 2);
        Path html2 = dir.resolve("plain.html");
        assertEquals(0, CliRun.of("--html", html2.toString(), plain.toString()).exitCode());
        assertFalse(java.nio.file.Files.readString(html2).contains("data-section=\"annotations\""));
    }

    /** Twelve annotation names over one kernel: the text table shows ten (ties by name) and says how many more. */
    @Test
    void theTextTableShowsTheTenMostExposedPerStep() throws IOException {
        List<String> events = new ArrayList<>();
        events.add("{\"ph\": \"X\", \"cat\": \"user_annotation\", \"name\": \"ProfilerStep#1\", \"pid\": 1, \"tid\": 1,"
                + " \"ts\": 1000, \"dur\": 100}");
        events.add("{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", \"pid\": 1, \"tid\": 1,"
                + " \"ts\": 1010, \"dur\": 5, \"args\": {\"correlation\": 9}}");
        events.add("{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"gemm\", \"pid\": 0, \"tid\": 7, \"ts\": 1100,"
                + " \"dur\": 10, \"args\": {\"device\": 0, \"stream\": 7, \"correlation\": 9}}");
        for (int k = 0; k < 12; k++) {
            events.add(String.format("{\"ph\": \"X\", \"cat\": \"gpu_user_annotation\", \"name\": \"a%02d\", \"pid\": 0,"
                    + " \"tid\": 7, \"ts\": 1100, \"dur\": 10, \"args\": {\"device\": 0, \"stream\": 7}}", k));
        }
        Path t = dir.resolve("many.pt.trace.json");
        java.nio.file.Files.writeString(t, "{\"traceEvents\": [\n" + String.join(",\n", events) + "\n]}");
        CliRun run = CliRun.of(t.toString());
        assertEquals(0, run.exitCode(), run.err());
        String rest = run.out().substring(run.out().indexOf(io.overlapanalyze.render.BeyondView.ANNOTATIONS_TITLE));
        assertTrue(rest.contains("a09") && !rest.contains("a10") && !rest.contains("a11"), rest);
        assertTrue(rest.contains("(2 more, less exposed; -f json lists all)"), rest);
        CliRun json = CliRun.of("-f", "json", t.toString());
        assertEquals(12, JsonRenderer.mapper().readTree(json.out()).at("/ranks/0/steps/0/annotations").size());
    }

    /** Two steps with annotations: the table gets a step column, one row per (step, annotation). */
    @Test
    void withSeveralStepsTheTableHasAStepColumn() throws IOException {
        List<String> events = new ArrayList<>();
        for (int k = 1; k <= 2; k++) {
            long t0 = 1000L * k;
            events.add("{\"ph\": \"X\", \"cat\": \"user_annotation\", \"name\": \"ProfilerStep#" + k + "\", \"pid\": 1,"
                    + " \"tid\": 1, \"ts\": " + t0 + ", \"dur\": 1000}");
            events.add("{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", \"pid\": 1, \"tid\": 1,"
                    + " \"ts\": " + (t0 + 10) + ", \"dur\": 5, \"args\": {\"correlation\": " + k + "}}");
            events.add("{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"gemm\", \"pid\": 0, \"tid\": 7, \"ts\": "
                    + (t0 + 100) + ", \"dur\": " + (k * 3) + ", \"args\": {\"device\": 0, \"stream\": 7, \"correlation\": " + k + "}}");
            events.add("{\"ph\": \"X\", \"cat\": \"gpu_user_annotation\", \"name\": \"mlp(B)\", \"pid\": 0, \"tid\": 7,"
                    + " \"ts\": " + (t0 + 100) + ", \"dur\": " + (k * 3) + ", \"args\": {\"device\": 0, \"stream\": 7}}");
        }
        Path t = dir.resolve("two-steps.pt.trace.json");
        java.nio.file.Files.writeString(t, "{\"traceEvents\": [\n" + String.join(",\n", events) + "\n]}");
        CliRun run = CliRun.of(t.toString());
        assertEquals(0, run.exitCode(), run.err());
        String rest = run.out().substring(run.out().indexOf(io.overlapanalyze.render.BeyondView.ANNOTATIONS_TITLE));
        assertTrue(rest.lines().anyMatch(l -> l.matches("\\s*step\\s+annotation\\s+device ms.*")), rest);
        // mlp(B) is the gemm of each step: 3 µs in step 1, 6 µs in step 2.
        assertTrue(rest.lines().anyMatch(l -> l.matches("\\s*ProfilerStep#1\\s+mlp\\(B\\)\\s+0\\.003.*")), rest);
        assertTrue(rest.lines().anyMatch(l -> l.matches("\\s*ProfilerStep#2\\s+mlp\\(B\\)\\s+0\\.006.*")), rest);
    }
}
