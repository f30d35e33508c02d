package io.overlapanalyze.formats.ascend;

import io.overlapanalyze.model.RankTrace;
import io.overlapanalyze.synth.AscendScenarioWriter;
import io.overlapanalyze.synth.BuiltinScenarios;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The Ascend reader over a generated torch_npu timeline (the generator lives above the readers). */
class AscendOnePassTwoPassTest {
    @TempDir
    Path tmp;

    /**
     * The one-pass read (metadata first, as torch_npu writes it) and the two-pass fallback (the same
     * events with every metadata event moved to the end) give the same model, field by field.
     */
    @Test
    void onePassAndTwoPassReadsAgree() throws Exception {
        Path capture = tmp.resolve("cap").resolve(AscendScenarioWriter.directoryName(
                BuiltinScenarios.get("training-jitter")));
        AscendScenarioWriter.write(BuiltinScenarios.get("training-jitter"), capture);
        Path trace;
        try (Stream<Path> s = Files.walk(capture)) {
            trace = s.filter(p -> p.getFileName().toString().equals("trace_view.json")).findFirst().orElseThrow();
        }
        List<String> meta = new ArrayList<>();
        List<String> events = new ArrayList<>();
        for (String line : Files.readAllLines(trace)) {
            String ev = line.startsWith(",") ? line.substring(1) : line;
            if (ev.startsWith("{")) {
                (ev.contains("\"ph\":\"M\"") ? meta : events).add(ev);
            }
        }
        assertTrue(!meta.isEmpty() && !events.isEmpty());
        Path first = Files.writeString(tmp.resolve("first.json"), "[\n" + String.join("\n,", meta) + "\n,"
                + String.join("\n,", events) + "\n]\n");
        Path last = Files.writeString(tmp.resolve("last.json"), "[\n" + String.join("\n,", events) + "\n,"
                + String.join("\n,", meta) + "\n]\n");
        RankTrace a = new AscendReader().read(first).get(0);
        RankTrace b = new AscendReader().read(last).get(0);
        assertTrue(a.device().size() > 100);
        assertEquals(a.device().size(), b.device().size());
        for (int i = 0; i < a.device().size(); i++) {
            assertEquals(List.of(a.device().start(i), a.device().end(i), a.device().lane(i), a.device().kind(i),
                            a.device().name(i), a.device().launchNs(i), a.device().launchThread(i), a.device().collective(i)),
                    List.of(b.device().start(i), b.device().end(i), b.device().lane(i), b.device().kind(i),
                            b.device().name(i), b.device().launchNs(i), b.device().launchThread(i), b.device().collective(i)),
                    "interval " + i);
        }
        assertEquals(a.lanes(), b.lanes());
        assertEquals(a.hostSpans(), b.hostSpans());
        assertEquals(a.threads(), b.threads());
        assertEquals(a.collectives().size(), b.collectives().size());
        for (int k = 0; k < a.collectives().size(); k++) {
            assertEquals(a.collectives().get(k).enqueueNs(), b.collectives().get(k).enqueueNs());
            assertEquals(a.collectives().get(k).sequence(), b.collectives().get(k).sequence());
        }
        assertEquals(a.warnings(), b.warnings());
    }
}
