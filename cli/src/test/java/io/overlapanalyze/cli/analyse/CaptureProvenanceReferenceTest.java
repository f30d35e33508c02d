package io.overlapanalyze.cli.analyse;

import io.overlapanalyze.cli.CliRun;
import io.overlapanalyze.cli.ExitCodes;
import io.overlapanalyze.cli.SharedTraces;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * PROVENANCE.md's reference numbers for the two shared traces real captures differ on
 * (metrics.md §1–2): work launched before the capture and pipelined steps
 * ({@code hta_negative_queue_length_rank0of16_a100}), and {@code cuda_sync} rows at host time
 * ({@code hta_cuda_event_sync_trace}). The expected numbers are read from PROVENANCE.md, through
 * the whole CLI ({@code -f json}).
 */
class CaptureProvenanceReferenceTest {
    private static final String NEGATIVE_QUEUE = "hta_negative_queue_length_rank0of16_a100.json.gz";
    private static final String EVENT_SYNC = "hta_cuda_event_sync_trace.json.gz";
    private static final Pattern STEP_ROW = Pattern.compile(
            "^\\| (\\d+) \\| ([\\d,]+) \\| ([\\d,]+) \\| ([\\d,]+) \\| ([\\d,]+) \\| ([\\d,]+) \\| ([\\d,]+) \\| (\\d+) \\| ([A-Z_]+) \\|$");
    private static final Pattern PRE_CAPTURE = Pattern.compile(
            "(\\d[\\d,]*) device events \\(([\\d.]+) ms of device busy time, ([\\d.]+) ms of it communication\\)");
    private static final Pattern SYNC_WINDOW = Pattern.compile("\\*\\*stepTimeNs ([\\d,]+)\\*\\*, computeBusyNs ([\\d,]+)");

    /** One reference row of the negative-queue table. */
    record Row(long step, long stepTimeNs, long commBusyNs, long computeBusyNs, long overlappedNs,
               long exposedCommNs, long tailNs, int gradCollectives, String attribution) {
    }

    /** The lines of the section of {@code kineto/<name>} in PROVENANCE.md. */
    private static List<String> section(String name) throws IOException {
        List<String> out = new ArrayList<>();
        boolean in = false;
        for (String line : Files.readAllLines(SharedTraces.root().resolve("PROVENANCE.md"), StandardCharsets.UTF_8)) {
            if (line.startsWith("### ")) {
                in = line.equals("### `kineto/" + name + "`");
                continue;
            }
            if (in) {
                out.add(line);
            }
        }
        assertTrue(!out.isEmpty(), "PROVENANCE.md has a section for " + name);
        return out;
    }

    private static long ns(String digits) {
        return Long.parseLong(digits.replace(",", ""));
    }

    /** Decimal ms with 3 decimals (µs precision) to ns, exactly. */
    private static long msToNs(String ms) {
        return new java.math.BigDecimal(ms).movePointRight(6).longValueExact();
    }

    private static JsonNode analyse(Path trace) throws IOException {
        CliRun run = CliRun.of("-f", "json", trace.toString());
        assertEquals(ExitCodes.OK, run.exitCode(), run.err());
        return new ObjectMapper().readTree(run.out());
    }

    @Test
    void negativeQueueStepsAndPreCaptureMatchTheReference() throws IOException {
        List<String> lines = section(NEGATIVE_QUEUE);
        List<Row> rows = new ArrayList<>();
        Matcher pre = null;
        for (String line : lines) {
            Matcher m = STEP_ROW.matcher(line.trim());
            if (m.matches()) {
                rows.add(new Row(Long.parseLong(m.group(1)), ns(m.group(2)), ns(m.group(3)), ns(m.group(4)),
                        ns(m.group(5)), ns(m.group(6)), ns(m.group(7)), Integer.parseInt(m.group(8)), m.group(9)));
            }
            Matcher p = PRE_CAPTURE.matcher(line);
            if (p.find()) {
                pre = p;
            }
        }
        assertEquals(5, rows.size(), "five reference steps");
        assertNotNull(pre, "the pre-capture sentence of PROVENANCE.md");

        JsonNode rank = analyse(SharedTraces.kineto(NEGATIVE_QUEUE)).get("ranks").get(0);
        JsonNode preCapture = rank.get("preCapture");
        assertEquals(ns(pre.group(1)), preCapture.get("intervals").asLong(), "pre-capture device events");
        assertEquals(msToNs(pre.group(2)), preCapture.get("busyNs").asLong(), "pre-capture busy");
        assertEquals(msToNs(pre.group(3)), preCapture.get("commBusyNs").asLong(), "pre-capture communication");

        JsonNode steps = rank.get("steps");
        assertEquals(rows.size(), steps.size());
        long overlapped = 0;
        long comm = 0;
        for (int k = 0; k < rows.size(); k++) {
            Row row = rows.get(k);
            JsonNode s = steps.get(k);
            String where = "ProfilerStep#" + row.step() + ": ";
            assertEquals("ProfilerStep#" + row.step(), s.get("name").asText());
            assertEquals(row.stepTimeNs(), s.get("stepTimeNs").asLong(), where + "stepTimeNs");
            assertEquals(row.commBusyNs(), s.get("commBusyNs").asLong(), where + "commBusyNs");
            assertEquals(row.computeBusyNs(), s.get("computeBusyNs").asLong(), where + "computeBusyNs");
            assertEquals(row.overlappedNs(), s.get("overlappedNs").asLong(), where + "overlappedNs");
            assertEquals(row.exposedCommNs(), s.get("exposedCommNs").asLong(), where + "exposedCommNs");
            assertEquals(row.tailNs(), s.get("tailNs").asLong(), where + "tailNs");
            assertEquals(row.gradCollectives(), s.get("gradCollectives").asInt(), where + "grad collectives");
            assertEquals(row.attribution(), s.get("attribution").get("kind").asText(), where + "attribution");
            if (k < 4) { // HTA drops the last step
                overlapped += row.overlappedNs();
                comm += row.commBusyNs();
            }
        }
        // "HTA comp_comm_overlap_pctg (steps 550–553, last step dropped): 1.37 %"
        assertEquals(137, Math.round(10_000.0 * overlapped / comm), "1.37 % over steps 550-553");

        // Pipelined steps: the windows overlap (host steps ~215 ms, windows ~370 ms), so step
        // times add up to more than the device span; periods and idle never do.
        long first = steps.get(0).get("deviceStartNs").asLong();
        long last = Long.MIN_VALUE;
        long periods = 0;
        long idle = 0;
        long windows = 0;
        for (JsonNode s : steps) {
            last = Math.max(last, s.get("deviceEndNs").asLong());
            periods += s.get("stepPeriodNs").asLong();
            idle += s.get("idleNs").asLong();
            windows += s.get("stepTimeNs").asLong();
        }
        long span = last - first;
        assertTrue(windows > span, "windows " + windows + " add up to more than the span " + span);
        assertTrue(periods <= span, "periods " + periods + " within the span " + span);
        assertTrue(idle <= periods, "idle " + idle + " within the periods");
        for (int k = 0; k + 1 < steps.size(); k++) {
            JsonNode s = steps.get(k);
            long next = steps.get(k + 1).get("deviceStartNs").asLong();
            assertEquals(next - s.get("deviceStartNs").asLong(), s.get("stepPeriodNs").asLong(), "period to the next start");
            assertEquals(s.get("deviceEndNs").asLong() - next, s.get("windowOverlapNs").asLong(), "window overlap");
            assertTrue(s.get("windowOverlapNs").asLong() > 150_000_000L, "about 160 ms of overlap: " + s);
        }
        assertTrue(rank.get("notes").toString().contains("step windows overlap"), rank.get("notes").toString());
        assertTrue(steps.get(0).get("notes").toString().contains("work launched before the capture"),
                "the first step's window holds the pre-capture work: " + steps.get(0).get("notes"));
    }

    @Test
    void cudaSyncRowsAtHostTimeSetNoWindow() throws IOException {
        Matcher m = null;
        for (String line : section(EVENT_SYNC)) {
            Matcher x = SYNC_WINDOW.matcher(line);
            if (x.find()) {
                m = x;
            }
        }
        assertNotNull(m, "the stepTimeNs sentence of PROVENANCE.md");
        JsonNode rank = analyse(SharedTraces.kineto(EVENT_SYNC)).get("ranks").get(0);
        assertEquals(1, rank.get("steps").size());
        JsonNode s = rank.get("steps").get(0);
        assertEquals(ns(m.group(1)), s.get("stepTimeNs").asLong(), "stepTimeNs (263 µs, not the 336 µs Context Sync closes)");
        assertEquals(ns(m.group(2)), s.get("computeBusyNs").asLong(), "computeBusyNs");
        assertEquals(0, s.get("commBusyNs").asLong(), "no communication");
        assertEquals(s.get("stepTimeNs").asLong(), s.get("stepPeriodNs").asLong(), "one step: period = window");
    }
}
