package io.overlapanalyze.cli;

import io.overlapanalyze.formats.TraceFormats;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.overlapanalyze.formats.RankNaming;
import io.overlapanalyze.model.RankSource;
import io.overlapanalyze.model.RankTrace;
import io.overlapanalyze.synth.AscendScenarioWriter;
import io.overlapanalyze.synth.BuiltinScenarios;
import io.overlapanalyze.synth.KinetoScenarioWriter;
import io.overlapanalyze.synth.NsysScenarioWriter;
import io.overlapanalyze.synth.Scenario;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.reflect.RecordComponent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Naming a rank by its file changes the rank (or adds a warning) and nothing else: every other
 * component of {@link RankTrace}, found by reflection so that a component added later is checked
 * too, is carried over, for the model of every reader. The traces together carry stream waits,
 * the reference overlap lane and allocator samples, so a copy that dropped any of them fails.
 */
class RankNamingCopyTest {
    @TempDir
    Path tmp;

    /** What each reader builds, by name; the shared Ascend DB capture when the shared traces are there. */
    private Map<String, RankTrace> models() throws Exception {
        Map<String, RankTrace> m = new LinkedHashMap<>();
        Scenario sync = BuiltinScenarios.get("late-middle-bucket-sync");
        Path kineto = tmp.resolve("plain.json");
        KinetoScenarioWriter.write(sync, kineto);
        m.put("kineto", only(TraceFormats.standard().read(withAllocatorSample(kineto))));
        Path nsys = tmp.resolve("plain.sqlite");
        NsysScenarioWriter.write(sync, nsys);
        m.put("nsight", only(TraceFormats.standard().read(nsys)));
        Path capture = tmp.resolve("ascend").resolve(AscendScenarioWriter.directoryName(sync));
        AscendScenarioWriter.write(sync, capture);
        m.put("ascend text", only(TraceFormats.standard().read(capture)));
        m.put("bare timeline", only(TraceFormats.standard().read(Files.writeString(tmp.resolve("trace_view.json"), BARE))));
        Path sharedDb = Path.of(System.getProperty("overlap.sharedTraces", "../../shared/traces"),
                "ascend", "torch_npu_db_level1", "rank0_ascend_pt");
        if (Files.isDirectory(sharedDb)) {
            m.put("ascend db", only(TraceFormats.standard().read(sharedDb)));
        }
        return m;
    }

    /**
     * A bare timeline with an Overlap Analysis lane (the reference overlap) and no rank anywhere:
     * pids 3170820512/3170820832 are (3096504 &lt;&lt; 10) | (sort index &lt;&lt; 5) | device 0.
     */
    private static final String BARE = "[\n"
            + "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":3170820512,\"tid\":0,\"args\":{\"name\":\"Ascend Hardware\"}},\n"
            + "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":3170820512,\"tid\":2,\"args\":{\"name\":\"Stream 2\"}},\n"
            + "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":3170820832,\"tid\":0,\"args\":{\"name\":\"Overlap Analysis\"}},\n"
            + "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":3170820832,\"tid\":0,\"args\":{\"name\":\"Computing\"}},\n"
            + "{\"ph\":\"X\",\"name\":\"mm\",\"pid\":3170820512,\"tid\":2,\"ts\":\"1000.000\",\"dur\":5,"
            + "\"args\":{\"Task Type\":\"AI_CORE\"}},\n"
            + "{\"ph\":\"X\",\"name\":\"Computing\",\"pid\":3170820832,\"tid\":0,\"ts\":\"1000.000\",\"dur\":5}\n]\n";

    /** The Kineto trace with two device allocator samples ({@code [memory]} instants of CUDA device 0). */
    private Path withAllocatorSample(Path kineto) throws Exception {
        ObjectMapper json = new ObjectMapper();
        ObjectNode root = (ObjectNode) json.readTree(kineto.toFile());
        ArrayNode events = (ArrayNode) root.get("traceEvents");
        double ts = events.get(events.size() - 1).path("ts").asDouble();
        for (int k = 0; k < 2; k++) {
            ObjectNode mem = events.addObject();
            mem.put("ph", "i").put("name", "[memory]").put("pid", 0).put("tid", 0).put("ts", ts + k).put("s", "t");
            mem.putObject("args").put("Device Type", 1).put("Device Id", 0).put("Total Allocated", 1024 * (k + 1))
                    .put("Bytes", 1024);
        }
        // A GPU-side user annotation over the first kernel, on its stream: the model's annotations.
        for (JsonNode e : events) {
            if ("kernel".equals(e.path("cat").asText())) {
                ObjectNode ann = events.addObject();
                ann.put("ph", "X").put("cat", "gpu_user_annotation").put("name", "mlp(B)").put("pid", e.get("pid").asLong())
                        .put("tid", e.get("tid").asLong()).put("ts", e.get("ts").asDouble()).put("dur", e.get("dur").asDouble());
                ann.putObject("args").put("device", e.path("args").path("device").asLong())
                        .put("stream", e.path("args").path("stream").asLong());
                break;
            }
        }
        Path out = tmp.resolve("with-memory.json");
        json.writeValue(out.toFile(), root);
        return out;
    }

    private static RankTrace only(List<RankTrace> traces) {
        assertEquals(1, traces.size());
        return traces.get(0);
    }

    @Test
    void everyComponentSurvivesRenamingForEveryReader() throws Exception {
        Map<String, RankTrace> models = models();
        assertTrue(models.values().stream().anyMatch(t -> !t.streamWaits().isEmpty()), "some trace has stream waits");
        assertTrue(models.values().stream().anyMatch(t -> !t.referenceOverlap().isEmpty()), "some trace has a reference lane");
        assertTrue(models.values().stream().anyMatch(t -> t.memory().size() > 0), "some trace has allocator samples");
        assertTrue(models.values().stream().anyMatch(t -> !t.annotations().isEmpty()), "some trace has user annotations");
        RankNaming naming = new RankNaming(null);
        for (Map.Entry<String, RankTrace> e : models.entrySet()) {
            RankTrace t = e.getValue();
            int other = t.rank() + 5;
            RankTrace renamed = naming.apply(t, tmp.resolve("rank-" + other + ".json"));
            if (t.rankSource() == RankSource.TRACE) {
                // The trace names its rank: it stays, and the disagreement is one more warning.
                List<String> warnings = new ArrayList<>(t.warnings());
                warnings.add("the file name says rank " + other + " but the trace says rank " + t.rank()
                        + "; using the trace's");
                assertEquals(warnings, renamed.warnings(), e.getKey());
                assertSameExcept(e.getKey(), t, renamed, Set.of("warnings"));
            } else {
                assertEquals(other, renamed.rank(), e.getKey());
                assertEquals(RankSource.FILE_NAME, renamed.rankSource(), e.getKey());
                assertSameExcept(e.getKey(), t, renamed, Set.of("rank", "rankSource"));
            }
        }
    }

    /** The copy methods themselves, on the trace with the most in it. */
    @Test
    void copyMethodsChangeOnlyTheirComponent() throws Exception {
        for (Map.Entry<String, RankTrace> e : models().entrySet()) {
            RankTrace t = e.getValue();
            RankTrace r = t.withRank(t.rank() + 1, RankSource.USER);
            assertEquals(List.of(t.rank() + 1, RankSource.USER), List.of(r.rank(), r.rankSource()));
            assertSameExcept(e.getKey(), t, r, Set.of("rank", "rankSource"));
            RankTrace s = t.withSource("elsewhere.json");
            assertEquals("elsewhere.json", s.source());
            assertSameExcept(e.getKey(), t, s, Set.of("source"));
            RankTrace w = t.withWarnings(List.of("only this"));
            assertEquals(List.of("only this"), w.warnings());
            assertSameExcept(e.getKey(), t, w, Set.of("warnings"));
            RankTrace m = t.withMemory(io.overlapanalyze.model.MemorySamples.empty());
            assertEquals(0, m.memory().size());
            assertSameExcept(e.getKey(), t, m, Set.of("memory"));
            RankTrace a = t.withAnnotations(List.of());
            assertEquals(List.of(), a.annotations());
            assertSameExcept(e.getKey(), t, a, Set.of("annotations"));
        }
    }

    /** Every record component but {@code changed} is equal (arrays by content; objects without equals by identity). */
    private static void assertSameExcept(String reader, RankTrace before, RankTrace after, Set<String> changed)
            throws Exception {
        RecordComponent[] components = RankTrace.class.getRecordComponents();
        assertTrue(components.length >= 20, "RankTrace components found by reflection");
        for (RecordComponent c : components) {
            if (changed.contains(c.getName())) {
                continue;
            }
            Object a = c.getAccessor().invoke(before);
            Object b = c.getAccessor().invoke(after);
            assertTrue(Objects.deepEquals(a, b), reader + ": component " + c.getName() + " changed by the copy");
        }
        assertFalse(changed.isEmpty());
    }
}
