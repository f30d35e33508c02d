package io.overlapanalyze.formats.fuzz;

import io.overlapanalyze.formats.input.TraceFormatException;
import io.overlapanalyze.formats.ascend.AscendReader;
import io.overlapanalyze.formats.kineto.KinetoReader;
import io.overlapanalyze.model.RankTrace;
import io.overlapanalyze.synth.AscendScenarioWriter;
import io.overlapanalyze.synth.BuiltinScenarios;
import io.overlapanalyze.synth.KinetoScenarioWriter;
import io.overlapanalyze.synth.Scenario;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Truncated at every structural point: a generated Kineto trace and a generated Ascend
 * timeline cut after every structural character ({@code { } [ ] , : "}; every 3rd of them in the
 * normal suite, see {@link #STRIDE}) and read by their reader.
 * Each cut either is refused with one line naming the file (before the first complete event) or
 * gives a trace marked truncated whose warning says where it stopped; once a cut is readable every
 * longer cut is too, and a longer cut never keeps fewer device intervals (what was read before the
 * cut is kept, nothing after it is invented).
 */
class TruncationEveryPointTest {
    /**
     * Every structural point with {@code -Doverlap.corpus.full=true} (the {@code -Pfuzz} profile);
     * every 3rd in the normal suite (still over a thousand cuts of every kind, in a few seconds).
     */
    private static final int STRIDE = Boolean.getBoolean("overlap.corpus.full") ? 1 : 3;

    @TempDir
    Path dir;

    private static Scenario scenario() {
        return BuiltinScenarios.get("seed-1ms-optimizer");
    }

    @Test
    void kinetoCutAtEveryStructuralPoint() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        KinetoScenarioWriter.write(scenario(), out, "seed.pt.trace.json");
        byte[] full = out.toByteArray();
        RankTrace whole = new KinetoReader().read(write("whole.json", full)).get(0);
        KinetoReader reader = new KinetoReader();
        cutEverywhere(full, "seed.pt.trace.json", reader::read, whole.device().size());
    }

    @Test
    void ascendCutAtEveryStructuralPoint() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        AscendScenarioWriter.writeTimeline(scenario(), AscendScenarioWriter.plan(scenario()), out);
        byte[] full = out.toByteArray();
        RankTrace whole = new AscendReader().read(write("whole_trace_view.json", full)).get(0);
        AscendReader reader = new AscendReader();
        cutEverywhere(full, "trace_view.json", reader::read, whole.device().size());
    }

    private interface Reader {
        List<RankTrace> read(Path file) throws TraceFormatException, IOException;
    }

    /** One hang guard around all cuts (generous: they take a few seconds together). */
    private void cutEverywhere(byte[] full, String name, Reader reader, int fullIntervals) {
        assertTimeoutPreemptively(Duration.ofSeconds(120), () -> cutAll(full, name, reader, fullIntervals),
                "hang guard: " + name + " cuts");
    }

    private void cutAll(byte[] full, String name, Reader reader, int fullIntervals) throws Exception {
        Path f = dir.resolve(name);
        boolean readable = false;
        int lastIntervals = 0;
        int cuts = 0;
        int refused = 0;
        int structural = 0;
        int lastNonBlank = full.length - 1;
        while (Character.isWhitespace(full[lastNonBlank])) {
            lastNonBlank--;
        }
        for (int i = 1; i < full.length; i++) {
            byte b = full[i - 1];
            if (b != '{' && b != '}' && b != '[' && b != ']' && b != ',' && b != ':' && b != '"') {
                continue;
            }
            if (structural++ % STRIDE != 0 || i > lastNonBlank) {
                continue; // the whole document: not a cut
            }
            cuts++;
            Files.write(f, Arrays.copyOf(full, i));
            String where = name + " cut at byte " + i;
            List<RankTrace> traces;
            try {
                traces = reader.read(f);
            } catch (Exception e) {
                if (!(e instanceof TraceFormatException)) {
                    throw new AssertionError(where + ": " + e, e);
                }
                assertTrue(!readable, where + ": refused although a shorter cut was readable: " + e.getMessage());
                assertTrue(e.getMessage().contains(f.toString()) && !e.getMessage().contains("\n"),
                        where + ": one line naming the file: " + e.getMessage());
                refused++;
                continue;
            }
            readable = true;
            int intervals = traces.stream().mapToInt(t -> t.device().size()).sum();
            assertTrue(traces.stream().allMatch(RankTrace::truncated), where + ": marked truncated");
            assertTrue(traces.stream().anyMatch(t -> t.warnings().stream().anyMatch(w -> w.contains("truncated"))),
                    where + ": a warning says it was truncated: " + traces.get(0).warnings());
            if (intervals < lastIntervals) {
                fail(where + ": kept " + intervals + " device intervals, a shorter cut kept " + lastIntervals);
            }
            assertTrue(intervals <= fullIntervals, where + ": more intervals than the whole trace");
            lastIntervals = intervals;
        }
        assertTrue(cuts > 1500 / STRIDE && refused > 0 && refused < cuts, name + ": " + cuts + " cuts, " + refused + " refused");
        assertEquals(fullIntervals >= lastIntervals, true);
    }

    private Path write(String name, byte[] bytes) throws IOException {
        return Files.write(dir.resolve(name), bytes);
    }
}
