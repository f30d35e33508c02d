package io.overlapanalyze.formats.ascend;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link FlowIndex}'s sorted bulk join against the maps it replaces (later flows of a key win). */
class FlowIndexTest {
    /** The reference: the two maps of (kind, id) → (tid, ts) and (pid, tid, kind, ts) → id. */
    private static final class Reference {
        final Map<List<Long>, long[]> sources = new HashMap<>();
        final Map<List<Object>, Long> targets = new HashMap<>();

        long[] launchOf(String pid, String tid, long ts) {
            for (int kind = FlowIndex.ASYNC; kind <= FlowIndex.H2D; kind++) {
                Long id = targets.get(List.of(pid, tid, kind, ts));
                if (id != null) {
                    long[] s = sources.get(List.of((long) kind, id));
                    if (s != null) {
                        return s;
                    }
                }
            }
            return null;
        }
    }

    @Test
    void joinsAsTheMapsDid() {
        for (int seed = 0; seed < 20; seed++) {
            Random r = new Random(seed);
            FlowIndex index = new FlowIndex();
            Reference ref = new Reference();
            int rows = 1 + r.nextInt(seed < 10 ? 200 : 40_000); // small, and past a block (8192 rows)
            int keys = 1 + r.nextInt(rows); // few keys: many repeated (the last one wins)
            boolean ordered = r.nextBoolean(); // in about time order (as captures are), or not at all
            for (int i = 0; i < rows; i++) {
                int kind = r.nextInt(5) == 0 ? FlowIndex.H2D : FlowIndex.ASYNC;
                long id = ordered ? i / 2 + r.nextInt(3) : r.nextInt(keys) - keys / 3;
                long ts = ordered ? 1000L * i + r.nextInt(2000) : r.nextInt(keys);
                String pid = "p" + r.nextInt(3);
                String tid = "t" + r.nextInt(2);
                if (r.nextBoolean()) {
                    long tid2 = r.nextInt(4);
                    long ts2 = r.nextLong();
                    index.start(kind, id, tid2, ts2);
                    ref.sources.put(List.of((long) kind, id), new long[] {tid2, ts2});
                } else {
                    index.end(kind, pid, tid, ts, id);
                    ref.targets.put(List.of(pid, tid, kind, ts), id);
                }
            }
            for (int q = 0; q < 2_000; q++) {
                long ts = ordered ? 1000L * r.nextInt(rows) + r.nextInt(2000) : r.nextInt(keys + 2) - 1;
                String pid = "p" + r.nextInt(4);
                String tid = "t" + r.nextInt(2);
                long[] expected = ref.launchOf(pid, tid, ts);
                long[] actual = index.launchOf(pid, tid, ts);
                String what = "seed " + seed + " query " + pid + "/" + tid + "@" + ts;
                if (expected == null) {
                    assertNull(actual, what);
                } else {
                    assertArrayEquals(expected, actual, what);
                }
            }
        }
    }

    @Test
    void rowsAddedAfterALookupAreFound() {
        FlowIndex index = new FlowIndex();
        index.start(FlowIndex.ASYNC, 7, 1, 100);
        index.end(FlowIndex.ASYNC, "p", "t", 500, 7);
        assertArrayEquals(new long[] {1, 100}, index.launchOf("p", "t", 500));
        index.start(FlowIndex.ASYNC, 7, 2, 200);
        index.end(FlowIndex.H2D, "p", "t", 600, 9);
        index.start(FlowIndex.H2D, 9, 3, 300);
        assertArrayEquals(new long[] {2, 200}, index.launchOf("p", "t", 500));
        assertArrayEquals(new long[] {3, 300}, index.launchOf("p", "t", 600));
        assertNull(index.launchOf("p", "t", 700));
        assertNull(index.launchOf("q", "t", 500));
    }

    /**
     * One flow ending on each of many device streams (a capture of thousands of streams of a task
     * or two): each stream's task finds its own launch, and the rows cost memory in proportion to
     * their number (three longs a row; doubling, and a small first block per stream, at most 16),
     * not a 192 KiB block per stream (20,000 streams: 4 GB before).
     */
    @Test
    void manyStreamsOfOneFlowCostTheirRowsNotABlockEach() {
        FlowIndex index = new FlowIndex();
        int streams = 2_000;
        for (int i = 0; i < streams; i++) {
            index.start(FlowIndex.ASYNC, 1_000 + i, 7, 50L * i);
            index.end(FlowIndex.ASYNC, "device", "stream" + i, 100L * i + 5, 1_000 + i);
        }
        for (int i = 0; i < streams; i++) {
            assertArrayEquals(new long[] {7, 50L * i}, index.launchOf("device", "stream" + i, 100L * i + 5), "stream " + i);
            assertNull(index.launchOf("device", "stream" + i, 100L * i + 6), "stream " + i + " at another time");
        }
        long rows = 2L * streams;
        long capacity = index.rowCapacity();
        assertTrue(capacity >= 3 * rows && capacity <= 16 * rows,
                capacity + " longs held for " + rows + " rows");
    }

    /** Equal texts give equal ids, different texts different ids; canonical integers are themselves. */
    @Test
    void idsOfTexts() {
        FlowIndex index = new FlowIndex();
        List<String> texts = List.of("0", "-0", "7", "007", "-7", "1716423323000175000", "9223372036854775807",
                "9223372036854775808", "99999999999999999999", "-9223372036854775808", "-99999999999999999",
                "40004068119343529983", "abc", "", "-", "1.5", "１２", "x-7");
        long[] ids = new long[texts.size()];
        for (int i = 0; i < texts.size(); i++) {
            char[] c = texts.get(i).toCharArray();
            ids[i] = index.id(c, 0, c.length);
            assertEquals(ids[i], index.id(c, 0, c.length), texts.get(i) + " twice");
            char[] padded = ("xx" + texts.get(i) + "y").toCharArray();
            assertEquals(ids[i], index.id(padded, 2, c.length), texts.get(i) + " inside a buffer");
        }
        for (int i = 0; i < texts.size(); i++) {
            for (int j = i + 1; j < texts.size(); j++) {
                assertNotEquals(ids[i], ids[j], texts.get(i) + " vs " + texts.get(j));
            }
        }
        assertEquals(0, ids[0]);
        assertEquals(7, ids[2]);
        assertEquals(-7, ids[4]);
        assertEquals(1716423323000175000L, ids[5]);
        assertEquals(Long.MAX_VALUE, ids[6]);
        assertEquals(-99999999999999999L, ids[10]);
        assertEquals(FlowIndex.NOT_NUMERIC, FlowIndex.numericId("9223372036854775808".toCharArray(), 0, 19));
        assertEquals(Arrays.asList(1716423323000175000L, FlowIndex.NOT_NUMERIC),
                Arrays.asList(FlowIndex.numericId("1716423323000175000".toCharArray(), 0, 19),
                        FlowIndex.numericId("abc".toCharArray(), 0, 3)));
    }

    /**
     * The byte and character forms of {@link FlowIndex#numericId} agree with each other and with its
     * contract: a canonical decimal integer of at most 18 characters, or a positive one of 19 digits
     * that fits a {@code long}, is that number; anything else is {@link FlowIndex#NOT_NUMERIC}.
     */
    @Test
    void numericIdsFromBytesAndCharactersFollowTheContract() {
        java.util.SplittableRandom r = new java.util.SplittableRandom(29);
        String alphabet = "0123456789-+. a";
        for (int i = 0; i < 100_000; i++) {
            StringBuilder sb = new StringBuilder();
            int len = r.nextInt(22);
            boolean digitsOnly = r.nextBoolean();
            for (int k = 0; k < len; k++) {
                sb.append(digitsOnly && !(k == 0 && r.nextInt(4) == 0) ? (char) ('0' + r.nextInt(10))
                        : alphabet.charAt(r.nextInt(alphabet.length())));
            }
            String text = sb.toString();
            long expected = FlowIndex.NOT_NUMERIC;
            if (text.matches("-?(0|[1-9][0-9]*)") && !text.equals("-0") && (text.length() <= 18
                    || text.length() == 19 && text.charAt(0) != '-'
                    && new java.math.BigInteger(text).compareTo(java.math.BigInteger.valueOf(Long.MAX_VALUE)) <= 0)) {
                expected = Long.parseLong(text);
            }
            byte[] framed = ("7" + text + "7").getBytes(java.nio.charset.StandardCharsets.US_ASCII);
            assertEquals(expected, FlowIndex.numericId(framed, 1, text.length()), text);
            assertEquals(expected, FlowIndex.numericId(("7" + text).toCharArray(), 1, text.length()), text);
        }
    }
}
