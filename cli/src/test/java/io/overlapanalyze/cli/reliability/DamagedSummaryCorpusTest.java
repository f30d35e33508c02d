package io.overlapanalyze.cli.reliability;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.overlapanalyze.cli.ExitCodes;
import io.overlapanalyze.synth.KinetoScenarioWriter;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The hostile-input corpus for saved summaries, the baselines of {@code diff} and {@code gate}.
 * A summary written by {@code summary} is damaged one field at a time (in the first step, the first
 * rank, its totals, and at the top): the field removed, or replaced by a value of another JSON kind
 * than the tool writes there (a string for a number, a fraction or an integer beyond 64 bits for a
 * count, a number for a string or a boolean, an object for a list, a list for an object), plus
 * {@code null} ranks and wrong shapes. A damaged summary is bad input: exit 2, one line naming the
 * file and the field, no Java names; it is never read as zeros (a missing {@code stepTimeNs} read
 * as 0 made {@code gate} report a regression). Removing an optional field (one an older tool did
 * not write) is not damage: the run compares as usual (exit 0 or 1).
 */
class DamagedSummaryCorpusTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * The fields a summary must have, by hand from the report records: every field of a primitive
     * type (counts, durations, flags), a step's name and device window, a rank's id and steps.
     */
    private static final Set<String> REQUIRED_STEP = Set.of("name", "partial", "deviceStartNs", "deviceEndNs",
            "stepTimeNs", "commBusyNs", "computeBusyNs", "overlappedNs", "exposedCommNs", "exposedGradCommNs",
            "idleNs", "serialEstimateNs", "overlapSavingNs", "gradCollectives", "deviceIntervals", "commKernels",
            "approximate");
    private static final Set<String> REQUIRED_RANK = Set.of("rank", "steps");
    private static final Set<String> REQUIRED_TOTALS = Set.of("steps", "stepTimeNs", "commBusyNs", "computeBusyNs",
            "overlappedNs", "exposedCommNs", "exposedGradCommNs", "idleNs", "serialEstimateNs", "tailNs");

    @TempDir
    static Path dir;

    private enum Expect { ERROR, COMPARED }

    private record Case(String name, Path file, Expect expect, String field) {
    }

    @TestFactory
    Stream<DynamicTest> everyDamagedSummary() throws IOException {
        Path trace = dir.resolve("current.pt.trace.json");
        KinetoScenarioWriter.write(HostileCorpus.scenario(), trace);
        Path valid = dir.resolve("valid-summary.json");
        Cli made = Cli.run("summary", trace.toString(), "-o", valid.toString());
        assertEquals(ExitCodes.OK, made.exitCode(), made.err());
        ObjectNode root = (ObjectNode) JSON.readTree(valid.toFile());
        List<Case> cases = generate(root);
        assertTrue(cases.size() > 100, "corpus size " + cases.size());
        List<DynamicTest> tests = new ArrayList<>();
        for (int i = 0; i < cases.size(); i++) {
            Case c = cases.get(i);
            boolean gate = i % 2 == 0; // half through gate, half through diff
            tests.add(DynamicTest.dynamicTest(c.name() + (gate ? " (gate)" : " (diff)"), () -> check(c, trace, gate)));
        }
        return tests.stream();
    }

    private static void check(Case c, Path trace, boolean gate) {
        String in = c.file().toString();
        Cli run = gate ? Cli.run("gate", "--baseline", in, trace.toString()) : Cli.run("diff", in, trace.toString());
        assertFalse(run.err().contains("io.overlapanalyze") || run.err().contains("java.")
                        || run.err().contains("Report") || run.err().contains("Exception"),
                c.name() + ": no Java names in the message: " + run.err());
        if (c.expect() == Expect.ERROR) {
            run.assertOneLineError(c.file(), c.name());
            if (c.field() != null) {
                assertTrue(run.err().contains(c.field()), c.name() + ": the message names the field " + c.field()
                        + ": " + run.err());
            }
        } else {
            assertTrue(run.exitCode() == ExitCodes.OK || (gate && run.exitCode() == ExitCodes.REGRESSION),
                    c.name() + ": compared as usual, got exit " + run.exitCode() + ": " + run.err());
        }
    }

    private static List<Case> generate(ObjectNode valid) throws IOException {
        List<Case> cases = new ArrayList<>();
        ObjectNode rank0 = (ObjectNode) valid.get("ranks").get(0);
        ObjectNode step0 = (ObjectNode) rank0.get("steps").get(0);
        fieldCases(cases, valid, "step", "/ranks/0/steps/0", step0, REQUIRED_STEP);
        fieldCases(cases, valid, "rank", "/ranks/0", rank0, REQUIRED_RANK);
        fieldCases(cases, valid, "totals", "/ranks/0/totals", (ObjectNode) rank0.get("totals"), REQUIRED_TOTALS);

        ArrayNode nullRank = JsonNodeFactory.instance.arrayNode().addNull();
        cases.add(mutated(valid, "top/ranks=[null]", Expect.ERROR, "ranks[0]", r -> r.set("ranks", nullRank)));
        cases.add(mutated(valid, "top/ranks=[1]", Expect.ERROR, "ranks[0]",
                r -> r.set("ranks", JsonNodeFactory.instance.arrayNode().add(1))));
        cases.add(mutated(valid, "top/steps=[null]", Expect.ERROR, "steps[0]",
                r -> ((ObjectNode) r.get("ranks").get(0)).set("steps", JsonNodeFactory.instance.arrayNode().addNull())));
        cases.add(mutated(valid, "top/schemaVersion=\"1\"", Expect.ERROR, "schemaVersion",
                r -> r.put("schemaVersion", "1")));
        cases.add(mutated(valid, "top/tool removed", Expect.COMPARED, null, r -> r.remove("tool")));
        // Issue 29 item 10: a summary that does not say what it is, or a fractional version, is refused.
        cases.add(mutated(valid, "top/kind removed", Expect.ERROR, "\"kind\" is missing", r -> r.remove("kind")));
        cases.add(mutated(valid, "top/schemaVersion=1.0", Expect.ERROR, "no integer schemaVersion",
                r -> r.put("schemaVersion", 1.0)));
        cases.add(mutated(valid, "top/crossRank={}", Expect.ERROR, "crossRank",
                r -> r.set("crossRank", JsonNodeFactory.instance.objectNode())));
        String text = JSON.writerWithDefaultPrettyPrinter().writeValueAsString(valid);
        cases.add(raw("top/cut in the middle", text.substring(0, text.length() / 2), null));
        cases.add(raw("top/cut after the first step", text.substring(0, text.indexOf("\"name\"", text.indexOf("\"steps\"")) + 30), null));
        cases.add(raw("top/trailing garbage", text + "}}]x", null));
        cases.add(raw("top/header then random bytes", "{\"schemaVersion\":1,\"ranks\":[\u0001\u0002\u00ff]", null));
        return cases;
    }

    /** Each field of {@code node} (at {@code pointer} in the summary) removed, and replaced by a wrong kind. */
    private static void fieldCases(List<Case> cases, ObjectNode valid, String what, String pointer, ObjectNode node,
                                   Set<String> required) throws IOException {
        List<String> names = new ArrayList<>();
        for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
            names.add(it.next());
        }
        for (String field : names) {
            JsonNode value = node.get(field);
            cases.add(mutated(valid, what + "/" + field + " removed",
                    required.contains(field) ? Expect.ERROR : Expect.COMPARED, required.contains(field) ? field : null,
                    r -> ((ObjectNode) r.at(pointer)).remove(field)));
            for (JsonNode wrong : wrongKinds(value)) {
                cases.add(mutated(valid, what + "/" + field + "=" + abbreviate(wrong.toString()), Expect.ERROR, field,
                        r -> ((ObjectNode) r.at(pointer)).set(field, wrong)));
            }
        }
    }

    /** Values of another JSON kind than {@code v}; none for {@code null} (its kind is not known here). */
    private static List<JsonNode> wrongKinds(JsonNode v) {
        JsonNodeFactory f = JsonNodeFactory.instance;
        if (v.isIntegralNumber()) {
            return List.of(f.textNode(v.asText()), f.numberNode(v.asLong() + 0.5),
                    f.numberNode(BigInteger.ONE.shiftLeft(70)));
        }
        if (v.isNumber()) {
            return List.of(f.textNode("0.5"), f.booleanNode(true));
        }
        if (v.isBoolean()) {
            return List.of(f.textNode("false"), f.numberNode(0));
        }
        if (v.isTextual()) {
            return List.of(f.numberNode(7), f.arrayNode());
        }
        if (v.isArray()) {
            return List.of(f.objectNode(), f.textNode(""));
        }
        if (v.isObject()) {
            return List.of(f.arrayNode(), f.numberNode(1));
        }
        return List.of();
    }

    private static Case mutated(ObjectNode valid, String name, Expect expect, String field, Consumer<ObjectNode> edit)
            throws IOException {
        ObjectNode copy = valid.deepCopy();
        edit.accept(copy);
        return raw(name, JSON.writeValueAsString(copy), expect, field);
    }

    private static Case raw(String name, String text, String field) throws IOException {
        return raw(name, text, Expect.ERROR, field);
    }

    private static Case raw(String name, String text, Expect expect, String field) throws IOException {
        Path file = dir.resolve("summary-" + Integer.toHexString(name.hashCode()) + "-"
                + name.replaceAll("[^A-Za-z0-9]+", "_") + ".json");
        Files.writeString(file, text, StandardCharsets.UTF_8);
        return new Case(name, file, expect, field);
    }

    private static String abbreviate(String s) {
        return s.length() > 24 ? s.substring(0, 24) + "..." : s;
    }
}
