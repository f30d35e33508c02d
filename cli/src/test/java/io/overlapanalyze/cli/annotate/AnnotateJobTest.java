package io.overlapanalyze.cli.annotate;

import io.overlapanalyze.cli.CliRun;
import io.overlapanalyze.cli.SharedTraces;

import com.fasterxml.jackson.databind.JsonNode;
import io.overlapanalyze.render.JsonRenderer;
import io.overlapanalyze.synth.BuiltinScenarios;
import io.overlapanalyze.synth.Job;
import io.overlapanalyze.synth.JobTimeline;
import io.overlapanalyze.synth.JobWriter;
import io.overlapanalyze.synth.SyntheticTimeline.PlannedReduction;
import io.overlapanalyze.synth.SyntheticTimeline.PlannedStep;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import static io.overlapanalyze.cli.annotate.AnnotateTest.checkNesting;
import static io.overlapanalyze.cli.annotate.AnnotateTest.checkValidChromeTrace;
import static io.overlapanalyze.cli.annotate.AnnotateTest.events;
import static io.overlapanalyze.cli.annotate.AnnotateTest.ns;
import static io.overlapanalyze.cli.annotate.AnnotateTest.pidNamed;
import static io.overlapanalyze.cli.annotate.AnnotateTest.processNames;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 27, {@code annotate} for a job: one trace with every rank on one clock (the cross-rank
 * analysis' offsets applied, metrics.md §8), host lanes kept beside the analysis tracks (and left out
 * with {@code --no-host-lanes}), exact-ns timestamps, slices that nest on every track.
 *
 * <p>Ground truth from the generator: a 4-rank job whose clocks read {@code 0, +37.123, -120.456,
 * +83.001} µs off true time (mean {@code -0.083} µs), whose collectives end at one true instant on
 * every rank, with a slow rank. The analysis' offsets are then each rank's offset minus the mean,
 * and every aligned time is the true time minus 83 ns: a sub-µs value the trace must keep exactly.
 */
class AnnotateJobTest {
    /** Per rank, how far its clock reads off true time (ns). */
    private static final List<Long> CLOCK_OFFSETS_NS = List.of(0L, 37_123L, -120_456L, 83_001L);
    /** Their mean, by hand: (0 + 37123 − 120456 + 83001) / 4 = −332 / 4. */
    private static final long MEAN_OFFSET_NS = -83;

    @TempDir
    Path tmp;

    private static Job job() {
        return Job.healthy("annotate-skew", 4, BuiltinScenarios.get("seed-4ms").withSteps(3))
                .withClockOffsetsNs(CLOCK_OFFSETS_NS).withSlowRank(2, 250_000).withSequenceNumbers(true);
    }

    /** Stderr of the last {@link #annotate} run. */
    private String lastErr;

    private JsonNode annotate(String... args) throws IOException {
        Path out = tmp.resolve("annotated-" + Math.abs(String.join(" ", args).hashCode()) + ".json");
        List<String> all = new ArrayList<>(List.of("annotate", "-o", out.toString()));
        all.addAll(List.of(args));
        CliRun run = CliRun.of(all.toArray(String[]::new));
        assertEquals(0, run.exitCode(), run.err());
        lastErr = run.err();
        return AnnotateTest.JSON.readTree(out.toFile());
    }

    @Test
    void aJobIsOneTraceWithEveryRankOnTheMeanClock() throws IOException {
        Job job = job();
        Path dir = tmp.resolve("job");
        JobWriter.write(job, dir, false);
        JobTimeline plan = JobWriter.plan(job);
        JsonNode root = annotate(dir.toString());
        checkValidChromeTrace(root);
        checkNesting(root);

        // The offsets applied are the analysis' (the report's crossRank), and by construction each
        // rank's clock offset minus the mean.
        JsonNode report = JsonRenderer.mapper().readTree(CliRun.of("-f", "json", dir.toString()).out());
        JsonNode clock = report.get("crossRank").get("clock");
        assertTrue(clock.get("aligned").asBoolean(), clock.toString());
        long residual = clock.get("maxResidualNs").asLong();
        JsonNode applied = root.get("otherData").get("clockAlignment");
        assertTrue(applied.get("applied").asBoolean(), applied.toString());
        assertEquals(report.get("crossRank").get("clockOffsetsNs"), applied.get("offsetsNs"));
        for (int r = 0; r < 4; r++) {
            assertEquals(CLOCK_OFFSETS_NS.get(r) - MEAN_OFFSET_NS, applied.get("offsetsNs").get(Integer.toString(r))
                    .asLong(), "rank " + r);
        }
        assertEquals(residual, applied.get("maxResidualNs").asLong());
        assertTrue(lastErr.contains("clock offsets applied so ranks line up"), lastErr);
        assertTrue(lastErr.contains("rank 2 -120.373 µs"), lastErr);
        assertTrue(lastErr.contains("rank 1 +37.206 µs"), lastErr);

        // Matched collectives (same group and sequence number on every rank) end together, within the
        // residual the analysis reports: |end_r − mean end| <= residual, so any two within 2 × residual.
        Map<String, Map<Integer, List<Long>>> byCollective = commSlices(root);
        assertEquals(3 * 3, byCollective.size(), "3 steps × 3 buckets: " + byCollective.keySet());
        for (Map.Entry<String, Map<Integer, List<Long>>> c : byCollective.entrySet()) {
            assertEquals(Set.of(0, 1, 2, 3), c.getValue().keySet(), c.getKey());
            long min = Long.MAX_VALUE;
            long max = Long.MIN_VALUE;
            for (List<Long> slice : c.getValue().values()) {
                min = Math.min(min, slice.get(1));
                max = Math.max(max, slice.get(1));
            }
            assertTrue(max - min <= 2 * residual, c.getKey() + ": ends " + (max - min) + " ns apart, residual "
                    + residual);
        }

        // Exact to the ns: every collective starts where the generator put it in true time, minus the
        // 83 ns of the mean clock (written µs with three decimals, never through a double).
        boolean subMicro = false;
        for (int r = 0; r < 4; r++) {
            long trueBase = plan.ranks().get(r).baseTimeNanoseconds() - CLOCK_OFFSETS_NS.get(r);
            Set<Long> expected = new TreeSet<>();
            for (PlannedStep s : plan.ranks().get(r).steps()) {
                for (PlannedReduction red : s.reductions()) {
                    expected.add(trueBase + red.start() + MEAN_OFFSET_NS);
                }
            }
            Set<Long> starts = new TreeSet<>();
            for (Map<Integer, List<Long>> c : byCollective.values()) {
                starts.add(c.get(r).get(0));
            }
            assertEquals(expected, starts, "rank " + r + ": collective starts on the mean clock");
            subMicro |= starts.stream().anyMatch(t -> Math.floorMod(t, 1000L) != 0);
        }
        assertTrue(subMicro, "a sub-µs value survives");

        // Host lanes: each rank's host process, with its steps where the generator put them on the
        // mean clock (the slow rank 250 µs later), its launches and its collectives' enqueues.
        for (int r = 0; r < 4; r++) {
            int host = pidNamed(root, "rank " + r + " host");
            long trueBase = plan.ranks().get(r).baseTimeNanoseconds() - CLOCK_OFFSETS_NS.get(r);
            Map<String, Long> stepStarts = new TreeMap<>();
            long launches = 0;
            long enqueues = 0;
            for (JsonNode e : root.get("traceEvents")) {
                if (e.get("pid").asInt() != host) {
                    continue;
                }
                if (e.get("ph").asText().equals("X") && e.get("cat").asText().equals("host step")) {
                    stepStarts.put(e.get("name").asText(), ns(e.get("ts")));
                } else if (e.get("ph").asText().equals("i")) {
                    launches += e.get("cat").asText().equals("launch") ? 1 : 0;
                    enqueues += e.get("cat").asText().equals("enqueue") ? 1 : 0;
                }
            }
            Map<String, Long> expectedSteps = new TreeMap<>();
            long kernels = 0;
            for (PlannedStep s : plan.ranks().get(r).steps()) {
                expectedSteps.put("ProfilerStep#" + s.number(), trueBase + s.hostStart() + MEAN_OFFSET_NS);
                kernels += s.compute().size() + s.reductions().size();
            }
            assertEquals(expectedSteps, stepStarts, "rank " + r + " host steps on the mean clock");
            assertEquals(kernels, launches, "rank " + r + ": one launch instant per kernel");
            assertEquals(9, enqueues, "rank " + r + ": one enqueue per collective");
        }

        // Markers: args keep the report's value (the rank's own clock); ts is it minus the offset.
        for (JsonNode e : events(root, "i")) {
            if (e.get("cat").asText().equals("marker")) {
                int rank = Integer.parseInt(processNames(root).get(e.get("pid").asInt()).replaceAll("\\D+", ""));
                assertEquals(e.get("args").get("ns").asLong() - applied.get("offsetsNs").get(Integer.toString(rank))
                        .asLong(), ns(e.get("ts")), e.toString());
            }
        }
    }

    @Test
    void noHostLanesLeavesThemOutAndSaysSo() throws IOException {
        Path dir = tmp.resolve("job");
        JobWriter.write(job(), dir, false);
        JsonNode with = annotate(dir.toString());
        JsonNode without = annotate("--no-host-lanes", dir.toString());
        checkValidChromeTrace(without);
        checkNesting(without);
        assertTrue(processNames(with).containsValue("rank 0 host"));
        assertFalse(processNames(without).values().stream().anyMatch(n -> n.endsWith(" host")),
                processNames(without).toString());
        assertFalse(without.get("otherData").get("hostLanes").asBoolean());
        assertTrue(with.get("otherData").get("hostLanes").asBoolean());
        // The rest is the same trace.
        assertEquals(commSlices(with), commSlices(without));
        assertTrue(without.get("traceEvents").size() < with.get("traceEvents").size());
    }

    @Test
    void helpDocumentsTheHostLanesOption() {
        CliRun help = CliRun.of("annotate", "--help");
        assertTrue(help.out().contains("--[no-]host-lanes"), help.out());
    }

    /**
     * Real, one Nsight capture of a 2-rank torchrun NCCL job (PROVENANCE.md): the analysis aligns
     * the ranks on their SendRecv kernels; in the trace, the ranks' communication kernels (33 a
     * rank, paired in end order) end within twice the reported residual, host lanes of both
     * processes are there, and every track nests.
     */
    @Test
    void realTwoRankNsightCaptureIsAligned() throws IOException {
        Path file = SharedTraces.root().resolve("nsys").resolve("nsys2026.2.1_torchrun2gpu_nccl_before.sqlite");
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isRegularFile(file), file + " not found: skipping");
        JsonNode root = annotate(file.toString());
        checkValidChromeTrace(root);
        checkNesting(root);
        JsonNode clock = root.get("otherData").get("clockAlignment");
        assertTrue(clock.get("applied").asBoolean(), clock.toString());
        long residual = clock.get("maxResidualNs").asLong();
        Map<Integer, List<Long>> ends = new TreeMap<>();
        for (int r = 0; r < 2; r++) {
            int device = pidNamed(root, "rank " + r + " device");
            List<Long> e = new ArrayList<>();
            for (JsonNode s : events(root, "X")) {
                if (s.get("pid").asInt() == device && s.get("cat").asText().equals("comm")) {
                    e.add(ns(s.get("ts")) + ns(s.get("dur")));
                }
            }
            e.sort(null);
            ends.put(r, e);
        }
        assertEquals(33, ends.get(0).size());
        assertEquals(33, ends.get(1).size());
        long worstAligned = 0;
        for (int k = 0; k < 33; k++) {
            worstAligned = Math.max(worstAligned, Math.abs(ends.get(0).get(k) - ends.get(1).get(k)));
        }
        assertTrue(worstAligned <= 2 * residual, worstAligned + " ns apart, residual " + residual);
        // The offsets are medians: aligned, the middle pair ends together (within 1 µs); on the ranks'
        // own clocks it would be the offsets' difference (22.27 µs) apart.
        List<Long> differences = new ArrayList<>();
        for (int k = 0; k < 33; k++) {
            differences.add(ends.get(0).get(k) - ends.get(1).get(k));
        }
        differences.sort(null);
        long median = differences.get(16);
        long o0 = clock.get("offsetsNs").get("0").asLong();
        long o1 = clock.get("offsetsNs").get("1").asLong();
        assertTrue(Math.abs(median) < 1_000, "median aligned end difference " + median + " ns");
        assertTrue(Math.abs(median + (o0 - o1)) > 20_000, "unaligned, the ranks are apart: " + (median + o0 - o1));
        for (int r = 0; r < 2; r++) {
            int host = pidNamed(root, "rank " + r + " host");
            assertTrue(events(root, "X").stream().anyMatch(e -> e.get("pid").asInt() == host), "host slices, rank " + r);
            assertTrue(events(root, "i").stream().anyMatch(e -> e.get("pid").asInt() == host
                    && e.get("cat").asText().equals("launch")), "launches, rank " + r);
        }
    }

    /**
     * Real, the two sampled ranks of one 128-rank Kineto job (PROVENANCE.md): their matched
     * collectives do not end together even after alignment, so the analysis calls the clocks rough;
     * the trace leaves each rank on its own clock and says so (stderr, metadata, process labels).
     */
    @Test
    void realRoughClocksAreLeftAndSaidSo() throws IOException {
        Path r0 = SharedTraces.kineto("hta_trace_filter_sampled_rank0of128.json.gz");
        Path r1 = SharedTraces.kineto("hta_trace_filter_sampled_rank1of128.json.gz");
        JsonNode root = annotate(r0.toString(), r1.toString());
        checkValidChromeTrace(root);
        checkNesting(root);
        JsonNode clock = root.get("otherData").get("clockAlignment");
        assertFalse(clock.get("applied").asBoolean(), clock.toString());
        assertTrue(clock.get("summary").asText().contains("too rough"), clock.toString());
        assertTrue(lastErr.contains("clock offsets not applied: the clocks are too rough to align"), lastErr);
        assertTrue(clock.get("offsetsNs").isEmpty(), clock.toString());
        // Own clock: every marker sits exactly at the report's time.
        int markers = 0;
        for (JsonNode e : events(root, "i")) {
            if (e.get("cat").asText().equals("marker")) {
                assertEquals(e.get("args").get("ns").asLong(), ns(e.get("ts")), e.toString());
                markers++;
            }
        }
        assertTrue(markers > 0);
        for (JsonNode e : events(root, "M")) {
            if (e.get("name").asText().equals("process_labels")) {
                assertEquals("own clock (offsets not applied)", e.get("args").get("labels").asText());
            }
        }
    }

    /** Comm kernels by "group/sequence", then rank: {start, end} in ns. */
    private static Map<String, Map<Integer, List<Long>>> commSlices(JsonNode root) {
        Map<Integer, String> processes = processNames(root);
        Map<String, Map<Integer, List<Long>>> out = new TreeMap<>();
        for (JsonNode e : events(root, "X")) {
            if (!e.get("cat").asText().equals("comm")) {
                continue;
            }
            String process = processes.get(e.get("pid").asInt());
            assertTrue(process.matches("rank \\d+ device"), process);
            int rank = Integer.parseInt(process.replaceAll("\\D+", ""));
            JsonNode args = e.get("args");
            assertNotNull(args.get("sequence"), e.toString());
            long start = ns(e.get("ts"));
            List<Long> previous = out.computeIfAbsent(args.get("group").asText() + "/" + args.get("sequence").asLong(),
                    k -> new TreeMap<>()).put(rank, List.of(start, start + ns(e.get("dur"))));
            assertEquals(null, previous, "one kernel per collective and rank: " + e);
        }
        return out;
    }
}
