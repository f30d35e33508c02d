package io.overlapanalyze.formats.kineto;

import io.overlapanalyze.model.DeviceKind;
import io.overlapanalyze.model.Lane;
import io.overlapanalyze.model.RankTrace;
import io.overlapanalyze.model.StreamWait;
import io.overlapanalyze.model.Time;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * cuda_sync "Stream Wait Event" → {@link StreamWait} (kineto.md §3.1, §4): the record correlation
 * joined to its cudaEventRecord wherever the two appear in the file, the wait's own correlation
 * to its cudaStreamWaitEvent, the time base added last, unknown values kept unknown.
 */
class StreamWaitReaderTest {
    private static final long BASE = 1_000_000_000_000L;

    @TempDir
    Path dir;

    @Test
    void waitsJoinTheirRecordInEitherOrder() throws Exception {
        // Wait A comes before its cudaEventRecord and before any event on its recorded stream 7;
        // wait B comes after its record. Times in µs; header after the events.
        String json = """
                {"traceEvents": [
                  {"ph": "X", "cat": "cuda_sync", "name": "Stream Wait Event", "pid": 0, "tid": 20, "ts": 140, "dur": 1,
                   "args": {"External id": 9, "cuda_sync_kind": "Stream Wait Event", "wait_on_stream": 7,
                            "wait_on_cuda_event_record_corr_id": 2, "wait_on_cuda_event_id": 5, "stream": 20,
                            "correlation": 3, "device": 0}},
                  {"ph": "X", "cat": "kernel", "name": "gemm", "pid": 0, "tid": 7, "ts": 100, "dur": 50,
                   "args": {"device": 0, "stream": 7, "correlation": 1}},
                  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 10, "tid": 11, "ts": 10, "dur": 5,
                   "args": {"cbid": 211, "correlation": 1}},
                  {"ph": "X", "cat": "cuda_runtime", "name": "cudaEventRecord", "pid": 10, "tid": 11, "ts": 20.5, "dur": 1,
                   "args": {"cbid": 135, "correlation": 2}},
                  {"ph": "X", "cat": "cuda_runtime", "name": "cudaStreamWaitEvent", "pid": 10, "tid": 11, "ts": 30, "dur": 1,
                   "args": {"cbid": 147, "correlation": 3}},
                  {"ph": "X", "cat": "cuda_runtime", "name": "cudaEventRecord", "pid": 10, "tid": 11, "ts": 50.001, "dur": 1,
                   "args": {"cbid": 135, "correlation": 12}},
                  {"ph": "X", "cat": "cuda_sync", "name": "Stream Wait Event", "pid": 0, "tid": 20, "ts": 160, "dur": 1,
                   "args": {"cuda_sync_kind": "Stream Wait Event", "wait_on_stream": 7,
                            "wait_on_cuda_event_record_corr_id": 12, "stream": 20, "correlation": 13, "device": 0}},
                  {"ph": "X", "cat": "cuda_runtime", "name": "cudaStreamWaitEvent", "pid": 10, "tid": 11, "ts": 60, "dur": 1,
                   "args": {"cbid": 147, "correlation": 13}}
                ], "baseTimeNanoseconds": 1000000000000}
                """;
        RankTrace t = read(json);
        List<Lane> lanes = t.lanes();
        assertEquals(new Lane(0, 0, 20, "stream 20"), lanes.get(0));
        assertEquals(new Lane(1, 0, 7, "stream 7"), lanes.get(1));
        assertEquals(List.of(
                new StreamWait(0, BASE + 140_000, BASE + 30_000, 1, BASE + 20_500),
                new StreamWait(0, BASE + 160_000, BASE + 60_000, 1, BASE + 50_001)), t.streamWaits());
        // The waits stay SYNC device intervals, linked to their cudaStreamWaitEvent like any launch.
        assertEquals(DeviceKind.SYNC, t.device().kind(0));
        assertEquals(BASE + 30_000, t.device().launchNs(0));
    }

    @Test
    void unknownPartsStayUnknownWithoutFailingTheFile() throws Exception {
        String json = """
                {"traceEvents": [
                  {"ph": "X", "cat": "kernel", "name": "gemm", "pid": 0, "tid": 7, "ts": 100, "dur": 50,
                   "args": {"device": 0, "stream": 7, "correlation": 1}},
                  {"ph": "X", "cat": "cuda_sync", "name": "Stream Wait Event", "pid": 0, "tid": 20, "ts": 140, "dur": 1,
                   "args": {"cuda_sync_kind": "Stream Wait Event", "wait_on_stream": 7,
                            "wait_on_cuda_event_record_corr_id": -1, "stream": 20, "correlation": 3, "device": 0}},
                  {"ph": "X", "cat": "cuda_sync", "name": "Stream Wait Event", "pid": 0, "tid": 20, "ts": 150, "dur": 1,
                   "args": {"cuda_sync_kind": "Stream Wait Event", "wait_on_stream": 7,
                            "wait_on_cuda_event_record_corr_id": 18446744073709551615, "stream": 20, "device": 0}},
                  {"ph": "X", "cat": "cuda_sync", "name": "Stream Wait Event", "pid": 0, "tid": 20, "ts": 160, "dur": 1,
                   "args": {"wait_on_stream": 99, "wait_on_cuda_event_record_corr_id": 2, "stream": 20, "device": 0}},
                  {"ph": "X", "cat": "cuda_sync", "name": "Stream Sync", "pid": 0, "tid": 20, "ts": 170, "dur": 1,
                   "args": {"cuda_sync_kind": "Stream Sync", "stream": 20, "device": 0}},
                  {"ph": "X", "cat": "cuda_runtime", "name": "cudaEventRecord", "pid": 10, "tid": 11, "ts": 20, "dur": 1,
                   "args": {"cbid": 135, "correlation": 2}}
                ], "baseTimeNanoseconds": 1000000000000}
                """;
        RankTrace t = read(json);
        // -1 record id; a uint64 record id beyond long; a recorded stream with no device work (and
        // no cuda_sync_kind: the name decides). Without a cudaStreamWaitEvent, the wait's own ts
        // is its submission (CUPTI times synchronization records by the API call). Stream Sync is
        // not a stream wait.
        assertEquals(List.of(
                new StreamWait(1, BASE + 140_000, BASE + 140_000, 0, Time.UNKNOWN),
                new StreamWait(1, BASE + 150_000, BASE + 150_000, 0, Time.UNKNOWN),
                new StreamWait(1, BASE + 160_000, BASE + 160_000, -1, BASE + 20_000)), t.streamWaits());
        assertTrue(t.streamWaits().stream().noneMatch(StreamWait::recordKnown));
        assertEquals(List.of(), t.warnings());
    }

    @Test
    void tracesWithoutSyncEventsHaveNoWaits() throws Exception {
        RankTrace t = read("""
                {"traceEvents": [
                  {"ph": "X", "cat": "kernel", "name": "gemm", "pid": 0, "tid": 7, "ts": 100, "dur": 50, "args": {"stream": 7}}
                ]}
                """);
        assertEquals(List.of(), t.streamWaits());
    }

    private RankTrace read(String json) throws Exception {
        Path p = dir.resolve("t.json");
        Files.writeString(p, json);
        List<RankTrace> traces = new KinetoReader().read(p);
        assertEquals(1, traces.size());
        return traces.get(0);
    }
}
