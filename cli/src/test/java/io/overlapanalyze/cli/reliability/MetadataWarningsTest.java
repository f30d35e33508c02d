package io.overlapanalyze.cli.reliability;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.overlapanalyze.cli.ExitCodes;
import io.overlapanalyze.synth.BuiltinScenarios;
import io.overlapanalyze.synth.KinetoScenarioWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Metadata that cannot be right is never taken silently. A trace's own rank that cannot be (rank 5
 * in a world of 2, rank -3, world size 0) is set aside for the rank in the file name, with a
 * warning saying so (or kept, with a warning, when the name has none); step names that repeat
 * get a warning naming them.
 */
class MetadataWarningsTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path tmp;

    private JsonNode analyse(Path trace) throws IOException {
        Cli run = Cli.run("-f", "json", trace.toString());
        assertEquals(ExitCodes.OK, run.exitCode(), run.err());
        return JSON.readTree(run.out()).get("ranks").get(0);
    }

    private Path withDistributedInfo(String fileName, int rank, int worldSize) throws IOException {
        ObjectNode root = (ObjectNode) JSON.readTree(HostileCorpus.kinetoSeed());
        ObjectNode info = (ObjectNode) root.get("distributedInfo");
        info.put("rank", rank);
        info.put("world_size", worldSize);
        Path p = tmp.resolve(fileName);
        Files.writeString(p, JSON.writeValueAsString(root));
        return p;
    }

    private static String warnings(JsonNode rank) {
        return rank.get("warnings").toString();
    }

    @Test
    void anImpossibleRankFallsBackToTheFileNameSayingSo() throws IOException {
        JsonNode r = analyse(withDistributedInfo("rank1.pt.trace.json", 5, 2));
        assertEquals(1, r.get("rank").asInt(), "the file name's rank");
        assertEquals("FILE_NAME", r.get("rankSource").asText());
        assertTrue(warnings(r).contains("rank 5 of a world of 2") && warnings(r).contains("using rank 1 from the file name"),
                warnings(r));

        JsonNode negative = analyse(withDistributedInfo("rank0.pt.trace.json", -3, 2));
        assertEquals(0, negative.get("rank").asInt());
        assertTrue(warnings(negative).contains("rank -3"), warnings(negative));

        JsonNode world0 = analyse(withDistributedInfo("rank_1.pt.trace.json", 1, 0));
        assertEquals(1, world0.get("rank").asInt());
        assertTrue(world0.get("worldSize").isNull(), "world size 0 is no job size: unknown, got " + world0.get("worldSize"));
        assertTrue(warnings(world0).contains("world size 0") && warnings(world0).contains("world size unknown"),
                warnings(world0));
    }

    @Test
    void anImpossibleRankWithoutAFileNameRankIsKeptWithAWarning() throws IOException {
        JsonNode r = analyse(withDistributedInfo("trace.json", 5, 2));
        assertEquals(5, r.get("rank").asInt());
        assertTrue(warnings(r).contains("rank 5 of a world of 2") && warnings(r).contains("--rank-regex"), warnings(r));
    }

    @Test
    void repeatedStepNamesAreWarnedAbout() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        KinetoScenarioWriter.write(BuiltinScenarios.get("training-jitter"), out, "jitter.pt.trace.json");
        String text = out.toString(StandardCharsets.UTF_8);
        java.util.List<String> names = java.util.regex.Pattern.compile("\"(ProfilerStep#\\d+)\"").matcher(text)
                .results().map(m -> m.group(1)).distinct().toList();
        assertTrue(names.size() >= 3, "the scenario has several steps: " + names);
        String first = names.get(0);
        Path p = Files.writeString(tmp.resolve("rank0.pt.trace.json"),
                text.replace("\"" + names.get(1) + "\"", "\"" + first + "\""));
        JsonNode r = analyse(p);
        long same = 0;
        for (JsonNode s : r.get("steps")) {
            same += s.get("name").asText().equals(first) ? 1 : 0;
        }
        assertEquals(2, same, "both steps are listed");
        assertTrue(warnings(r).contains("step names repeat: " + first + " (2 times)"), warnings(r));
        Cli text2 = Cli.run(p.toString());
        assertTrue(text2.out().contains("step names repeat"), "the text report shows the warning too");
    }
}
