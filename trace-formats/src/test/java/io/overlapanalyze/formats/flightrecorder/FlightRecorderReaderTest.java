package io.overlapanalyze.formats.flightrecorder;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.overlapanalyze.formats.TraceFormats;
import io.overlapanalyze.formats.input.TraceFormatException;
import io.overlapanalyze.model.CollectiveType;
import io.overlapanalyze.model.FlightEntry;
import io.overlapanalyze.model.FlightGroupStatus;
import io.overlapanalyze.model.ProcessGroup;
import io.overlapanalyze.model.RankSource;
import io.overlapanalyze.model.RankTrace;
import io.overlapanalyze.model.Time;
import io.overlapanalyze.model.TraceFormat;
import net.razorvine.pickle.Pickler;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The Flight Recorder reader on dumps written here, as pickles (protocol 2) and as JSON. */
class FlightRecorderReaderTest {
    /**
     * Rank 3 of a 4-rank job: an all_reduce of group "5" (its local id 1) and a send to group-local
     * rank 0 of the 2-rank group "7" (local id 2), whose status the dump gives by local id only.
     */
    static Map<String, Object> dump() {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("version", "2.9");
        d.put("nccl_version", "2.27.3");
        Map<String, Object> config = new LinkedHashMap<>();
        config.put("0", Map.of("name", "0", "desc", "default_pg", "ranks", "[0, 1, 2, 3]"));
        config.put("5", Map.of("name", "5", "desc", "DATA_PARALLEL_GROUP", "ranks", "[1, 3]"));
        config.put("7", Map.of("name", "7", "desc", "PIPELINE_MODEL_PARALLEL_GROUP", "ranks", "[2, 3]"));
        d.put("pg_config", config);
        Map<String, Object> status = new LinkedHashMap<>();
        status.put("0", Map.of("last_enqueued_collective", 4, "last_started_collective", -1,
                "last_completed_collective", 4));
        status.put("1", Map.of("last_enqueued_collective", 12, "last_started_collective", 11,
                "last_completed_collective", 10));
        status.put("2", Map.of("last_enqueued_collective", 30, "last_started_collective", -1,
                "last_completed_collective", 29));
        d.put("pg_status", status);
        d.put("entries", List.of(
                entry(100, 1, "5", "DATA_PARALLEL_GROUP", 12, 0, false, "nccl:all_reduce", List.of(List.of(8, 16)),
                        "started", 1_758_580_156_069_309_184L, 1_758_580_156_069_400_000L),
                entry(101, 2, "7", "PIPELINE_MODEL_PARALLEL_GROUP", 3, 30, true, "nccl:send 1->0",
                        List.of(List.of(2048, 1, 5120)), "scheduled", 1_758_580_156_070_000_000L, null)));
        return d;
    }

    private static Map<String, Object> entry(int record, int pgId, String pg, String desc, int seq, int p2pSeq,
                                             boolean p2p, String name, List<List<Integer>> sizes, String state,
                                             long created, Long started) {
        Map<String, Object> e = new LinkedHashMap<>();
        e.put("record_id", record);
        e.put("pg_id", pgId);
        e.put("process_group", new Object[] {pg, desc});
        e.put("collective_seq_id", seq);
        e.put("p2p_seq_id", p2pSeq);
        e.put("op_id", seq);
        e.put("profiling_name", name);
        e.put("time_created_ns", created);
        e.put("input_sizes", sizes);
        e.put("input_dtypes", List.of("BFloat16"));
        e.put("output_sizes", sizes);
        e.put("output_dtypes", List.of("BFloat16"));
        e.put("state", state);
        e.put("time_discovered_started_ns", started);
        e.put("time_discovered_completed_ns", null);
        e.put("retired", false);
        e.put("timeout_ms", 600000);
        e.put("is_p2p", p2p);
        return e;
    }

    @Test
    void aPickledDumpBecomesTheRanksGroupsEntriesAndStatus(@TempDir Path tmp) throws Exception {
        Path file = tmp.resolve("nccl_trace_rank_3");
        byte[] pickle = new Pickler().dumps(dump());
        assertEquals(0x80, pickle[0] & 0xff);
        assertEquals(2, pickle[1], "Pyrolite writes protocol 2, as PyTorch's dumps are");
        Files.write(file, pickle);
        RankTrace t = single(file);
        assertEquals(TraceFormat.FLIGHT_RECORDER, t.format());
        assertEquals(3, t.rank());
        assertEquals(RankSource.FILE_NAME, t.rankSource());
        assertEquals(4, t.worldSize());
        assertEquals(List.of(new ProcessGroup("0", "default_pg", List.of(0, 1, 2, 3)),
                new ProcessGroup("5", "DATA_PARALLEL_GROUP", List.of(1, 3)),
                new ProcessGroup("7", "PIPELINE_MODEL_PARALLEL_GROUP", List.of(2, 3))), t.groups());
        assertEquals("2.9", t.flightRecorder().version());
        assertEquals("2.27.3", t.flightRecorder().ncclVersion());
        FlightEntry reduce = t.flightRecorder().entries().get(0);
        assertEquals(CollectiveType.ALL_REDUCE, reduce.type());
        assertEquals("5", reduce.groupName());
        assertEquals(12, reduce.collectiveSeq());
        assertEquals(128, reduce.inElements());
        assertEquals("8x16", reduce.shapeText());
        assertEquals(1_758_580_156_069_309_184L, reduce.createdNs());
        assertEquals(1_758_580_156_069_400_000L, reduce.startedNs());
        assertEquals(Time.UNKNOWN, reduce.completedNs());
        FlightEntry send = t.flightRecorder().entries().get(1);
        assertEquals(CollectiveType.SEND, send.type());
        assertTrue(send.p2p());
        assertEquals(1, send.peerFrom());
        assertEquals(0, send.peerTo());
        assertEquals(30, send.matchSeq());
        // The collective is in the common model; the send stays in the dump (matched by pair).
        assertEquals(1, t.collectives().size());
        assertEquals(12, t.collectives().get(0).sequence());
        assertEquals(0, t.collectives().get(0).deviceIntervals().length);
        assertFalse(t.hasDeviceActivity());
        assertEquals("Flight Recorder dump: no device timeline", t.commUnclassified());
        // Local ids tie to names through the entries (1 -> 5, 2 -> 7) and, for id 0, by creation order.
        assertEquals(List.of(new FlightGroupStatus("0", 0, 4, -1, 4), new FlightGroupStatus("5", 1, 12, 11, 10),
                new FlightGroupStatus("7", 2, 30, -1, 29)), t.flightRecorder().status());
    }

    @Test
    void theJsonVariantReadsTheSameAsThePickle(@TempDir Path tmp) throws Exception {
        Path pickle = tmp.resolve("p").resolve("_dump_3");
        Path json = tmp.resolve("j").resolve("_dump_3");
        Files.createDirectories(pickle.getParent());
        Files.createDirectories(json.getParent());
        Files.write(pickle, new Pickler().dumps(dump()));
        Files.write(json, new ObjectMapper().writeValueAsBytes(dump()));
        RankTrace a = single(pickle);
        RankTrace b = single(json);
        assertEquals(a.flightRecorder(), b.flightRecorder());
        assertEquals(a.groups(), b.groups());
        assertEquals(a.rank(), b.rank());
        assertEquals(a.worldSize(), b.worldSize());
    }

    @Test
    void aDirectoryOfDumpsIsOneJob(@TempDir Path tmp) throws Exception {
        for (int r = 0; r < 2; r++) {
            Files.write(tmp.resolve("_dump_" + r), new Pickler().dumps(dump()));
        }
        Files.writeString(tmp.resolve("fault_injection.log"), "Rank 1, fault_type: GPU_ERROR\n");
        assertEquals(List.of(tmp.resolve("_dump_0"), tmp.resolve("_dump_1")),
                TraceFormats.standard().expand(tmp).stream().sorted().toList());
    }

    @Test
    void everyOpcodeThatNamesOrBuildsAnObjectIsRefused(@TempDir Path tmp) throws Exception {
        // GLOBAL 'builtins eval' + REDUCE; STACK_GLOBAL; BUILD on a plain dict; INST.
        Map<String, byte[]> hostile = new LinkedHashMap<>();
        hostile.put("GLOBAL", withEntries("cbuiltins\neval\nX\u0004\u0000\u0000\u00001+1\u0085R"));
        hostile.put("STACK_GLOBAL", withEntries("X\u0002\u0000\u0000\u0000osX\u0006\u0000\u0000\u0000system\u0093"));
        hostile.put("BUILD", withEntries("}}b"));
        hostile.put("INST", withEntries("(ios\nsystem\n"));
        for (Map.Entry<String, byte[]> h : hostile.entrySet()) {
            Path file = tmp.resolve("dump_" + h.getKey() + "_0");
            Files.write(file, h.getValue());
            TraceFormatException e = assertThrows(TraceFormatException.class, () -> TraceFormats.standard().read(file),
                    h.getKey());
            assertTrue(e.getMessage().startsWith(file.toString() + ": refused: the pickle asks for " + h.getKey()),
                    e.getMessage());
            assertFalse(e.getMessage().contains("\n"), e.getMessage());
        }
    }

    @Test
    void anotherPickleOrJsonObjectIsNoDump() throws Exception {
        FlightRecorderFormat format = new FlightRecorderFormat();
        assertFalse(format.recognises(sniffed("{\"traceEvents\": [], \"version\": 1, \"entries\": []}")));
        assertTrue(format.recognises(sniffed("{\"version\": \"2.9\", \"pg_config\": {}, \"entries\": []}")));
        assertTrue(format.recognises(sniffed("{\"entries\": [], \"pg_config\": {}}")), "keys sorted: version last");
        assertFalse(format.recognises(sniffed("{\"schemaVersion\": 1, \"distributedInfo\": {\"pg_config\": []}}")),
                "a Kineto trace's distributedInfo has a pg_config");
        assertFalse(format.recognises(new io.overlapanalyze.formats.input.SniffedInput(Path.of("x"),
                io.overlapanalyze.formats.input.FormatDetector.Content.UNKNOWN, new byte[] {(byte) 0x80, 2, ']', '.'})));
    }

    private static io.overlapanalyze.formats.input.SniffedInput sniffed(String text) {
        byte[] head = text.getBytes(StandardCharsets.UTF_8);
        return new io.overlapanalyze.formats.input.SniffedInput(Path.of("x"),
                io.overlapanalyze.formats.input.FormatDetector.sniff(head), head);
    }

    /** A protocol-2 dict {@code {"version": "2.9", "entries": <value>}} whose value is {@code opcodes}. */
    private static byte[] withEntries(String opcodes) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        b.write(0x80);
        b.write(2);
        b.writeBytes("}(X\u0007\u0000\u0000\u0000versionX\u0003\u0000\u0000\u00002.9X\u0007\u0000\u0000\u0000entries"
                .getBytes(StandardCharsets.ISO_8859_1));
        b.writeBytes(opcodes.getBytes(StandardCharsets.ISO_8859_1));
        b.writeBytes("u.".getBytes(StandardCharsets.ISO_8859_1));
        return b.toByteArray();
    }

    private static RankTrace single(Path file) throws TraceFormatException {
        List<RankTrace> read = TraceFormats.standard().read(file);
        assertEquals(1, read.size());
        return read.get(0);
    }
}
