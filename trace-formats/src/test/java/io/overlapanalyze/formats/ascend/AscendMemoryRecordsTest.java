package io.overlapanalyze.formats.ascend;

import io.overlapanalyze.model.DeviceIntervals;
import io.overlapanalyze.model.Lane;
import io.overlapanalyze.model.MemorySamples;
import io.overlapanalyze.model.RankSource;
import io.overlapanalyze.model.RankTrace;
import io.overlapanalyze.model.StringPool;
import io.overlapanalyze.model.TraceFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** torch_npu's memory_record.csv on hand-written rows in the layout of the real captures. */
class AscendMemoryRecordsTest {
    private static final String HEADER =
            "Component,Timestamp(us),Total Allocated(MB),Total Reserved(MB),Total Active(MB),Stream Ptr,Device Type\r\n";

    @TempDir
    Path tmp;

    private Path csv(String body) throws Exception {
        Path f = tmp.resolve("memory_record.csv");
        Files.writeString(f, HEADER + body, StandardCharsets.UTF_8);
        return f;
    }

    /**
     * PTA rows only (APP has no allocated figure, GE and PTA+GE are not the framework's allocator),
     * the timestamp's trailing tab ignored, µs → ns exact, MiB → bytes exact (2109.6015625 MiB =
     * 2,212,077,568 B; 935.9951171875 MiB = 981,462,016 B), CPU rows dropped, devices kept apart.
     */
    @Test
    void ptaRowsExactNanosAndBytes() throws Exception {
        Path f = csv("APP,1736408883573957.920\t,,2109.6015625,,,NPU:0\r\n"
                + "PTA,1736408883694238.150\t,935.9951171875,1452.0,935.9951171875,897357296,NPU:0\r\n"
                + "PTA+GE,1736408883694238.150\t,935.9951171875,1452.0,935.9951171875,897357296,NPU:0\r\n"
                + "GE,1736408883704614.040\t,49.125,74.75,,,NPU:0\r\n"
                + "PTA,1736408883704614.001\t,1.5,2.0,1.5,1,NPU:1\r\n"
                + "PTA,1736408883704615.000\t,7.0,8.0,7.0,1,CPU\r\n");
        AscendMemoryRecords.Records r = AscendMemoryRecords.readCsv(f, io.overlapanalyze.formats.input.InputLimits.DEFAULT);
        assertNull(r.warning());
        assertEquals("PTA", r.component());
        assertEquals(List.of(0, 1), List.copyOf(r.byDevice().keySet()));
        MemorySamples d0 = r.byDevice().get(0);
        assertEquals(1, d0.size());
        assertEquals(1_736_408_883_694_238_150L, d0.timeNs(0));
        assertEquals(981_462_016L, d0.totalAllocated(0));
        MemorySamples d1 = r.byDevice().get(1);
        assertEquals(1_736_408_883_704_614_001L, d1.timeNs(0));
        assertEquals(1_572_864L, d1.totalAllocated(0));
        assertEquals(1, d1.device(0));
    }

    @Test
    void withoutPtaRowsNothingIsReportedAsAllocatedAndTheWarningSaysWhy() throws Exception {
        AscendMemoryRecords.Records r = AscendMemoryRecords.readCsv(csv(
                "APP,1736408883573957.920\t,,2109.6015625,,,NPU:0\r\n"
                        + "GE,1736408883704614.040\t,49.125,74.75,,,NPU:0\r\n"), io.overlapanalyze.formats.input.InputLimits.DEFAULT);
        assertTrue(r.byDevice().isEmpty());
        assertTrue(r.warning().contains("no PTA"), r.warning());
        assertTrue(r.warning().contains("APP=1") && r.warning().contains("GE=1"), r.warning());
    }

    @Test
    void appRowsWithAnAllocatedTotalAreTheFallback() throws Exception {
        AscendMemoryRecords.Records r = AscendMemoryRecords.readCsv(csv(
                "APP,1000.000\t,2.0,4.0,,,NPU:0\r\nGE,1001.000\t,49.125,74.75,,,NPU:0\r\n"), io.overlapanalyze.formats.input.InputLimits.DEFAULT);
        assertEquals("APP", r.component());
        assertEquals(2L * 1024 * 1024, r.byDevice().get(0).totalAllocated(0));
        assertEquals(1_000_000L, r.byDevice().get(0).timeNs(0));
    }

    @Test
    void mebibytesToBytes() {
        assertEquals(2_212_077_568L, AscendMemoryRecords.mibToBytes("2109.6015625"));
        assertEquals(1_048_576L, AscendMemoryRecords.mibToBytes("1"));
        // Not a whole number of bytes (a writer with fewer digits): half-up to the byte.
        assertEquals(104_858L, AscendMemoryRecords.mibToBytes("0.1")); // 104857.6
        assertEquals(1L, AscendMemoryRecords.mibToBytes("0.000000476837158203125")); // 0.5 B
    }

    /** A rank gets the samples of its own lanes' device only. */
    @Test
    void attachKeepsTheRanksOwnDevice() throws Exception {
        AscendMemoryRecords.Records r = AscendMemoryRecords.readCsv(csv(
                "PTA,1000.000\t,1.0,2.0,1.0,1,NPU:0\r\nPTA,1001.000\t,3.0,4.0,3.0,1,NPU:1\r\n"), io.overlapanalyze.formats.input.InputLimits.DEFAULT);
        RankTrace dev1 = new RankTrace("x", TraceFormat.ASCEND, 1, RankSource.TRACE, -1,
                List.of(new Lane(0, 1, 7, "stream 7")), new DeviceIntervals(new StringPool()), List.of(), List.of(),
                List.of(), List.of(), new long[0], true, false, List.of("kept"), List.of(), List.of(),
                MemorySamples.empty(), null, List.of());
        RankTrace out = AscendMemoryRecords.attach(List.of(dev1), r).get(0);
        assertEquals(1, out.memory().size());
        assertEquals(3L * 1024 * 1024, out.memory().totalAllocated(0));
        assertEquals(List.of("kept"), out.warnings());
        assertEquals(1, out.rank());
    }
}
