package io.overlapanalyze.formats.ascend;

import io.overlapanalyze.formats.input.TraceFormatException;
import io.overlapanalyze.formats.sqlite.SharedExports;
import io.overlapanalyze.model.DeviceIntervals;
import io.overlapanalyze.model.HostSpanKind;
import io.overlapanalyze.model.RankTrace;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * issue 29 item 7 for the text export: an event of {@code trace_view.json} whose {@code ts} or
 * {@code dur} is no number of µs (text, out of range) is skipped and counted per lane and field,
 * one warning each (the kernel rule of the other readers), instead of refusing the whole capture
 * or becoming an event at 0. Both read paths (byte scanner and Jackson) give the same model.
 */
class AscendUnreadableTimesTest {
    private static final String CAPTURE = "ascend/torch_npu_text_level1/rank0_ascend_pt";
    private static final String TIMELINE = "ASCEND_PROFILER_OUTPUT/trace_view.json";
    private static final long PID = 3170820512L;

    @TempDir
    Path tmp;

    private static String task(String ts, String dur) {
        return "{\"name\":\"k\",\"pid\":" + PID + ",\"tid\":2,\"ts\":" + ts + ",\"dur\":" + dur
                + ",\"args\":{\"Task Type\":\"AI_CORE\"},\"ph\":\"X\"}";
    }

    private static final String META = "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":" + PID + ",\"tid\":0,"
            + "\"args\":{\"name\":\"Ascend Hardware\"}},\n"
            + "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":" + PID + ",\"tid\":2,\"args\":{\"name\":\"Stream 2\"}},\n";

    private static String warning(RankTrace t, String part) {
        for (String w : t.warnings()) {
            if (w.contains(part)) {
                return w;
            }
        }
        throw new AssertionError("no warning containing \"" + part + "\" in " + t.warnings());
    }

    private List<RankTrace> readBothWays(Path f) throws Exception {
        List<RankTrace> scanned = new TimelineReader(List.of(f), f.toString(), d -> RankInfo.UNKNOWN,
                io.overlapanalyze.formats.kernels.KernelRules.builtIn(),
                io.overlapanalyze.formats.input.InputLimits.DEFAULT).readWithScanner(0, 1);
        List<RankTrace> jackson = new TimelineReader(List.of(f), f.toString(), d -> RankInfo.UNKNOWN,
                io.overlapanalyze.formats.kernels.KernelRules.builtIn(),
                io.overlapanalyze.formats.input.InputLimits.DEFAULT).readWithJackson();
        assertEquals(jackson.get(0).warnings(), scanned.get(0).warnings(), "both paths warn alike");
        assertEquals(jackson.get(0).device().size(), scanned.get(0).device().size());
        return jackson;
    }

    @Test
    void unreadableTimesAreSkippedAndCountedPerField() throws Exception {
        Path f = Files.writeString(tmp.resolve("trace_view.json"), "[" + META
                + task("\"1736408883704643.212\"", "10") + ",\n"
                + task("\"abc\"", "10") + ",\n"
                + task("\"n/a\"", "10") + ",\n"
                + task("\"1736408883704743.212\"", "\"n/a\"") + ",\n"
                // 1 January 3000 in epoch µs: a number, but beyond the range of ns.
                + task("32503680000000000", "10") + ",\n"
                + task("\"1736408883704843.212\"", "20") + "]");
        RankTrace t = readBothWays(f).get(0);
        DeviceIntervals d = t.device();
        assertEquals(2, d.size(), "the two readable tasks");
        assertEquals(1736408883704643212L, d.start(0));
        assertEquals(1736408883704843212L, d.start(1));
        assertEquals(1736408883704863212L, d.end(1));
        String ts = warning(t, "\"Ascend Hardware\" events without a readable \"ts\" skipped");
        assertTrue(ts.contains("3 times") && ts.contains("\"abc\""), ts);
        String dur = warning(t, "\"Ascend Hardware\" events without a readable \"dur\" skipped");
        assertTrue(dur.contains("\"n/a\"") && !dur.contains("times"), dur);
    }

    @Test
    void aTimelineWithNoReadableTimeIsAnError() throws Exception {
        Path f = Files.writeString(tmp.resolve("trace_view.json"), "[" + META + task("\"1.2.3\"", "10") + ",\n"
                + task("\"x\"", "1") + "]");
        TraceFormatException e = assertThrows(TraceFormatException.class, () -> new AscendReader().read(f));
        assertTrue(e.getMessage().contains("no device event with a readable time (2 events skipped"), e.getMessage());
    }

    /**
     * A copy of the shared capture with one host op's and one device task's ts made text: read,
     * one task fewer, the step still there, and both counted.
     */
    @Test
    void aSharedCaptureWithTextTimesIsAnalysedWithWarnings() throws Exception {
        Path copy = SharedExports.copy(CAPTURE, tmp);
        Path timeline = copy.resolve(TIMELINE);
        RankTrace original = new AscendReader().read(copy).get(0);
        String text = Files.readString(timeline, StandardCharsets.UTF_8);
        // The first hardware task and the first aten op: replace the ts value of each.
        text = breakTs(text, "{\"ph\": \"X\", \"name\": \"aten::");
        text = breakTs(text, "{\"name\": \"trans_TransData_0\", \"pid\": 3170820512");
        Files.writeString(timeline, text, StandardCharsets.UTF_8);
        RankTrace t = new AscendReader().read(copy).get(0);
        assertEquals(original.device().size() - 1, t.device().size(), "the one task, no other");
        assertEquals(original.hostSpans().stream().filter(s -> s.kind() == HostSpanKind.STEP).toList(),
                t.hostSpans().stream().filter(s -> s.kind() == HostSpanKind.STEP).toList());
        assertTrue(warning(t, "\"Python\" events without a readable \"ts\" skipped").contains("\"n/a\""),
                t.warnings().toString());
        assertTrue(warning(t, "\"Ascend Hardware\" events without a readable \"ts\" skipped").contains("\"n/a\""),
                t.warnings().toString());
    }

    /** {@code text} with the {@code ts} of the first event that starts with {@code marker} set to "n/a". */
    private static String breakTs(String text, String marker) {
        int open = text.indexOf(marker);
        assertTrue(open > 0, "the capture has " + marker);
        int close = text.indexOf("\"args\"", open);
        String event = text.substring(open, close);
        String broken = event.replaceFirst("\"ts\"\\s*:\\s*(\"[^\"]*\"|[0-9.]+)", "\"ts\":\"n/a\"");
        assertTrue(!broken.equals(event), "no ts in " + event);
        return text.substring(0, open) + broken + text.substring(close);
    }
}
