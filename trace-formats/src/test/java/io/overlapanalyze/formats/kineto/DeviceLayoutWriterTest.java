package io.overlapanalyze.formats.kineto;

import io.overlapanalyze.model.Collective;
import io.overlapanalyze.model.CollectiveType;
import io.overlapanalyze.model.DeviceIntervals;
import io.overlapanalyze.model.DeviceKind;
import io.overlapanalyze.model.RankSource;
import io.overlapanalyze.model.RankTrace;
import io.overlapanalyze.model.Time;
import io.overlapanalyze.synth.BuiltinScenarios;
import io.overlapanalyze.synth.DeviceLayoutWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Device layouts of the generator, read back: the seed's second worked example (metrics.md §7:
 * three 2 ms backward blocks, one 4 ms all-reduce per bucket issued as soon as its block ends) on
 * two devices of one process, and on an MTIA-style accelerator. Ground truth by hand: per device,
 * compute [0, 2), [2, 4), [4, 6) ms and all-reduces [2, 6), [6, 10), [10, 14) ms after the first
 * device start (each queued behind the one before).
 */
class DeviceLayoutWriterTest {
    private static final long MS = 1_000_000L;
    private static final long[][] COMPUTE = {{0, 2}, {2, 4}, {4, 6}};
    private static final long[][] COMM = {{2, 6}, {6, 10}, {10, 14}};

    @TempDir
    Path dir;

    private List<RankTrace> write(DeviceLayoutWriter.Layout layout, long lagNs) throws Exception {
        Path f = dir.resolve(layout + ".json");
        DeviceLayoutWriter.write(BuiltinScenarios.get("seed-4ms"), layout, lagNs, f);
        assertTrue(Files.size(f) > 0);
        return new KinetoReader().read(f);
    }

    @Test
    void twoDevicesInOneFileAreTwoRanksWithTheSeedsTimeline() throws Exception {
        long lag = 3 * MS;
        List<RankTrace> ranks = write(DeviceLayoutWriter.Layout.TWO_DEVICES, lag);
        assertEquals(2, ranks.size());
        RankTrace first = ranks.get(0);
        RankTrace second = ranks.get(1);
        assertTrue(first.source().endsWith(" device 0"), first.source());
        assertTrue(second.source().endsWith(" device 1"), second.source());
        // The file says rank 0 of 2; both devices ran 3 all-reduces: the lower index keeps rank 0.
        assertEquals(0, first.rank());
        assertEquals(RankSource.TRACE, first.rankSource());
        assertEquals(2, second.rank(), "an id after the job's 2 ranks");
        assertEquals(RankSource.INFERRED, second.rankSource());

        long t0 = firstStart(first);
        assertEquals(t0 + lag, firstStart(second), "the second device runs the same work 3 ms later");
        for (RankTrace t : ranks) {
            long origin = firstStart(t);
            assertEquals(ms(COMPUTE), relative(t, DeviceKind.COMPUTE, origin), t.source());
            assertEquals(ms(COMM), relative(t, DeviceKind.COMM, origin), t.source());
            assertEquals(6 * MS, union(t, DeviceKind.COMPUTE));
            assertEquals(12 * MS, union(t, DeviceKind.COMM), "not the 15 ms union of both devices' reductions");
            assertEquals(3, t.collectives().size());
            for (Collective c : t.collectives()) {
                assertEquals(CollectiveType.ALL_REDUCE, c.type());
                assertEquals(1, c.deviceIntervals().length);
            }
            assertEquals(1, t.hostSpans().stream().filter(s -> s.name().equals("ProfilerStep#1")).count());
        }
        // Launched from two thread pairs of one process at the same host times.
        DeviceIntervals a = first.device();
        DeviceIntervals b = second.device();
        assertEquals(a.size(), b.size());
        for (int i = 0; i < a.size(); i++) {
            assertEquals(a.launchNs(i), b.launchNs(i));
            assertEquals(a.launchThread(i) + DeviceLayoutWriter.SECOND_TID_SHIFT, b.launchThread(i));
            assertEquals(a.start(i) + lag, b.start(i));
        }
        assertEquals(4, first.threads().size(), "main and autograd thread per device");
    }

    @Test
    void mtiaLaneHasKernelsCopiesAndEventsClassifiedByWhatTheyAre() throws Exception {
        List<RankTrace> ranks = write(DeviceLayoutWriter.Layout.MTIA, 0);
        assertEquals(1, ranks.size());
        RankTrace t = ranks.get(0);
        assertEquals(10, t.device().size(), "3 kernels, 3 all-reduces, 1 dma_request, 3 event_record");
        long origin = firstStart(t);
        assertEquals(ms(COMPUTE), relative(t, DeviceKind.COMPUTE, origin));
        assertEquals(ms(COMM), relative(t, DeviceKind.COMM, origin));
        // The step's input copy: 0.5 ms from 0.1 ms.
        List<long[]> copies = intervals(t, DeviceKind.MEMCPY);
        assertEquals(1, copies.size());
        assertEquals(origin + 100_000, copies.get(0)[0]);
        assertEquals(origin + 600_000, copies.get(0)[1]);
        // One 1 µs event_record ending where each bucket's block ends (2, 4, 6 ms): synchronisation.
        List<long[]> events = intervals(t, DeviceKind.SYNC);
        assertEquals(3, events.size());
        for (int k = 0; k < 3; k++) {
            assertEquals(origin + (2 * k + 2) * MS, events.get(k)[1]);
            assertEquals(1_000, events.get(k)[1] - events.get(k)[0]);
        }
        for (int i = 0; i < t.device().size(); i++) {
            assertTrue(Time.isKnown(t.device().launchNs(i)), "mtia_runtime launch linked: " + t.device().name(i));
        }
        // No External ids on MTIA events: the all-reduces join their record_param_comms by launch containment.
        assertEquals(3, t.collectives().size());
        for (Collective c : t.collectives()) {
            assertEquals(CollectiveType.ALL_REDUCE, c.type());
            assertEquals(1, c.deviceIntervals().length);
            assertTrue(Time.isKnown(c.enqueueNs()));
        }
        assertEquals(6 * MS, union(t, DeviceKind.COMPUTE));
        assertEquals(12 * MS, union(t, DeviceKind.COMM));
        assertEquals(500_000, union(t, DeviceKind.MEMCPY));
    }

    private static List<List<Long>> ms(long[][] intervals) {
        List<List<Long>> out = new ArrayList<>();
        for (long[] iv : intervals) {
            out.add(List.of(iv[0], iv[1]));
        }
        return out;
    }

    private static long firstStart(RankTrace t) {
        long min = Long.MAX_VALUE;
        for (int i = 0; i < t.device().size(); i++) {
            min = Math.min(min, t.device().start(i));
        }
        return min;
    }

    private static List<long[]> intervals(RankTrace t, DeviceKind kind) {
        List<long[]> out = new ArrayList<>();
        DeviceIntervals d = t.device();
        for (int i = 0; i < d.size(); i++) {
            if (d.kind(i) == kind) {
                out.add(new long[] {d.start(i), d.end(i)});
            }
        }
        out.sort((x, y) -> Long.compare(x[0], y[0]));
        return out;
    }

    /** Intervals of {@code kind} in ms after {@code origin}, by start; each must be whole ms. */
    private static List<List<Long>> relative(RankTrace t, DeviceKind kind, long origin) {
        List<List<Long>> out = new ArrayList<>();
        for (long[] iv : intervals(t, kind)) {
            assertEquals(0, (iv[0] - origin) % MS);
            assertEquals(0, (iv[1] - origin) % MS);
            out.add(List.of((iv[0] - origin) / MS, (iv[1] - origin) / MS));
        }
        return out;
    }

    private static long union(RankTrace t, DeviceKind kind) {
        long total = 0;
        long end = Long.MIN_VALUE;
        for (long[] iv : intervals(t, kind)) {
            if (iv[0] >= end) {
                total += iv[1] - iv[0];
                end = iv[1];
            } else if (iv[1] > end) {
                total += iv[1] - end;
                end = iv[1];
            }
        }
        return total;
    }
}
