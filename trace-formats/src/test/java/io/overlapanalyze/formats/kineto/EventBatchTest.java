package io.overlapanalyze.formats.kineto;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * {@link EventBatch} hands back exactly the events, ignored runs and nulls it was given, in order,
 * across its segment boundaries and after being cleared for reuse. The expected sequence is the
 * events this test builds itself (every holder field set or left at its default at random).
 */
class EventBatchTest {

    @Test
    void replaysEveryFieldInOrderAcrossSegmentsAndReuse() {
        Random random = new Random(32);
        EventBatch batch = new EventBatch();
        for (int round = 0; round < 3; round++) { // the same batch, cleared, holds a second and third chunk
            List<String> expected = new ArrayList<>();
            int rows = round == 1 ? 7 : 60_000; // enough for many number and string segments
            for (int i = 0; i < rows; i++) {
                int what = random.nextInt(10);
                if (what == 0) {
                    batch.addNull();
                    expected.add("null");
                } else if (what <= 2) {
                    batch.addIgnored();
                    expected.add("ignored");
                } else {
                    EventHolder e = randomEvent(random, i);
                    batch.add(e);
                    expected.add(KinetoParity.fingerprint(e) + shapeAndFlags(e));
                }
            }
            assertSameRows(expected, replayed(batch, false), "round " + round);
            List<String> rehearsed = new ArrayList<>();
            for (String row : expected) {
                if (!row.equals("null") && !row.equals("ignored")) {
                    rehearsed.add(row);
                }
            }
            assertSameRows(rehearsed, replayed(batch, true), "rehearsal, round " + round);
            batch.clear();
        }
    }

    @Test
    void aFieldCountBeyondTheHeaderIsKept() {
        EventBatch batch = new EventBatch();
        EventHolder e = new EventHolder();
        e.reset();
        e.fieldCount = Integer.MAX_VALUE;
        e.ph = "X";
        batch.add(e);
        assertEquals(List.of(KinetoParity.fingerprint(e) + shapeAndFlags(e)), replayed(batch, false));
    }

    /** Equal lists, or a failure naming the first row that differs (not the whole of both lists). */
    private static void assertSameRows(List<String> expected, List<String> actual, String what) {
        for (int i = 0; i < Math.min(expected.size(), actual.size()); i++) {
            assertEquals(expected.get(i), actual.get(i), what + ", row " + i);
        }
        assertEquals(expected.size(), actual.size(), what + ": rows");
    }

    private static List<String> replayed(EventBatch batch, boolean rehearsal) {
        List<String> out = new ArrayList<>();
        ByteEventReader.Sink sink = new ByteEventReader.Sink() {
            @Override
            public void traceEventsStart() {
            }

            @Override
            public void event(EventHolder event) {
                out.add(KinetoParity.fingerprint(event) + shapeAndFlags(event));
            }

            @Override
            public void rehearse(EventHolder event) {
                out.add(KinetoParity.fingerprint(event) + shapeAndFlags(event));
            }

            @Override
            public void ignoredEvent() {
                out.add("ignored");
            }

            @Override
            public void nullEvent() {
                out.add("null");
            }

            @Override
            public void traceEventsEnd() {
            }

            @Override
            public void header(String key, byte[] value) {
            }
        };
        EventHolder into = new EventHolder();
        into.reset();
        into.name = "left over from an earlier event"; // every field must be overwritten
        into.seq = 99;
        into.gridX = 5;
        if (rehearsal) {
            batch.rehearse(sink, into);
        } else {
            batch.replay(sink, into);
        }
        return out;
    }

    /** What the fingerprint leaves out: the launch shape and the out-of-range flag, spelled out. */
    private static String shapeAndFlags(EventHolder e) {
        return " |" + e.gridX + "," + e.gridY + "," + e.gridZ + "/" + e.blockX + "," + e.blockY + "," + e.blockZ
                + "/" + e.timeOutOfRange;
    }

    private static EventHolder randomEvent(Random r, int i) {
        EventHolder e = new EventHolder();
        e.reset();
        e.fieldCount = r.nextInt(12);
        e.ph = pick(r, "X", "M", "i", null);
        e.cat = pick(r, "kernel", "cpu_op", "cuda_runtime", null);
        e.name = pick(r, "ncclKernel_AllReduce", "aten::mm", "name " + i, null);
        e.pidIsNumber = r.nextBoolean();
        e.hasPid = r.nextBoolean();
        e.pid = someLong(r);
        e.tidIsNumber = r.nextBoolean();
        e.tid = someLong(r);
        e.hasTs = r.nextBoolean();
        e.tsNs = r.nextBoolean() ? 0 : r.nextLong();
        e.hasDur = r.nextBoolean();
        e.durNs = r.nextBoolean() ? 0 : r.nextLong();
        e.timeOutOfRange = r.nextInt(8) == 0;
        e.hasArgs = r.nextBoolean();
        e.correlation = someLong(r);
        e.externalId = someLong(r);
        e.stream = someLong(r);
        e.argName = pick(r, "thread 1", null, null);
        e.syncKind = pick(r, "Stream Wait Event", null, null);
        e.waitOnStream = rare(r);
        e.waitRecordCorrelation = rare(r);
        e.collName = pick(r, "allreduce", null, null, null);
        e.inElems = rare(r);
        e.outElems = rare(r);
        e.dtype = pick(r, "Float", null, null, null);
        e.groupSize = rare(r);
        e.pgName = pick(r, "0", null, null, null);
        e.pgDesc = pick(r, "default_pg", null, null, null);
        e.pgRanks = pick(r, "[0, 1]", null, null, null);
        e.seq = rare(r);
        e.memDeviceType = rare(r);
        e.memDeviceId = rare(r);
        e.memTotalAllocated = rare(r);
        if (r.nextBoolean()) {
            e.gridX = r.nextInt(1 << 21);
            e.gridY = r.nextInt(1 << 21);
            e.gridZ = r.nextInt(1 << 21);
        }
        if (r.nextBoolean()) {
            e.blockX = 0;
            e.blockY = (1 << 21) - 1;
            e.blockZ = r.nextInt(1 << 21);
        }
        return e;
    }

    private static long someLong(Random r) {
        return switch (r.nextInt(4)) {
            case 0 -> EventHolder.NONE;
            case 1 -> 0;
            case 2 -> -1;
            default -> r.nextLong();
        };
    }

    private static long rare(Random r) {
        return r.nextInt(5) == 0 ? someLong(r) : EventHolder.NONE;
    }

    private static String pick(Random r, String... values) {
        return values[r.nextInt(values.length)];
    }
}
