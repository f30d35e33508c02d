package io.overlapanalyze.formats.kineto;

import java.util.ArrayList;
import java.util.Arrays;

/**
 * The events one chunk of the parallel scan read, packed into two growing columns (numbers and
 * strings) until the chunk is replayed in file order; the chunk's events are then loaded one by
 * one into the session's single {@link EventHolder}, so the collector sees exactly what the
 * sequential read hands it.
 *
 * <p>Why not a copy of the holder per event: a holder is ~260 bytes whatever the event holds, and a
 * 1 GB trace handed over ~2 million of them (≈ 0.5 GB of allocation, its page faults and its
 * copying collections). Here a row keeps only the fields that differ from {@link EventHolder#reset}'s
 * values: a kernel is ~10 numbers and 3 string references, a CPU op ~6 and 3, and a run of events the
 * collector ignores (flows, Python frames) one number in all.
 *
 * <p>A row starts with a header number: its kind (event, a run of ignored events, a {@code null}),
 * and for an event the holder's flags, which number fields and which strings follow, and the
 * field count. <b>Keep in step with {@link EventHolder}'s fields</b>: a field added there must be
 * packed here ({@code KinetoScannerParityTest} compares every field after the parallel scan).
 */
final class EventBatch {
    private static final int KIND_EVENT = 0;
    private static final int KIND_IGNORED = 1;
    private static final int KIND_NULL = 2;
    private static final long KIND_MASK = 3;

    // Event header: bits 0-1 kind, 2-8 flags, 9-26 number fields present, 27-36 strings present,
    // 37-63 the field count (the count itself in the next number when it does not fit).
    private static final int FLAGS_SHIFT = 2;
    private static final int NUMBERS_SHIFT = 9;
    private static final int STRINGS_SHIFT = 27;
    private static final int COUNT_SHIFT = 37;
    private static final long COUNT_INLINE_MAX = (1L << (64 - COUNT_SHIFT)) - 1;

    private static final int PID_IS_NUMBER = 1;
    private static final int HAS_PID = 1 << 1;
    private static final int TID_IS_NUMBER = 1 << 2;
    private static final int HAS_TS = 1 << 3;
    private static final int HAS_DUR = 1 << 4;
    private static final int TIME_OUT_OF_RANGE = 1 << 5;
    private static final int HAS_ARGS = 1 << 6;

    private static final long NONE = EventHolder.NONE;

    /**
     * Numbers and strings go into segments of a fixed size, never copied to grow (a chunk of 16 MB
     * of JSON packs to ~3 MB); a row never spans two segments. A batch is cleared and reused for a
     * later chunk once replayed ({@link #clear}), so a scan allocates only the batches in flight.
     */
    private static final int NUMBER_SEGMENT = 1 << 15;
    private static final int STRING_SEGMENT = 1 << 13;
    /** The most numbers one event row takes: header, field count, 18 fields. */
    private static final int ROW_NUMBERS = 20;
    private static final int ROW_STRINGS = 10;

    private final ArrayList<long[]> numberSegments = new ArrayList<>();
    /** How many numbers each full segment holds (the last one's count is {@link #numberCount}). */
    private int[] numberSegmentUsed = new int[8];
    private int fullSegments;
    private long[] numbers;
    private int numberCount;
    private final ArrayList<String[]> stringSegments = new ArrayList<>();
    private String[] strings;
    private int stringSegment;
    private int stringCount;
    /** Where the last row's header is when it is a run of ignored events (else -1): the next one extends it. */
    private int ignoredRun = -1;

    EventBatch() {
        numbers = new long[NUMBER_SEGMENT];
        numberSegments.add(numbers);
        strings = new String[STRING_SEGMENT];
        stringSegments.add(strings);
    }

    /** Empties the batch for another chunk, keeping its segments. */
    void clear() {
        numbers = numberSegments.get(0);
        numberCount = 0;
        fullSegments = 0;
        for (String[] segment : stringSegments) {
            Arrays.fill(segment, null); // no references kept alive from an earlier chunk
        }
        strings = stringSegments.get(0);
        stringSegment = 0;
        stringCount = 0;
        ignoredRun = -1;
    }

    /** Appends the event in {@code e}. */
    void add(EventHolder e) {
        ensureNumbers(ROW_NUMBERS);
        int header = numberCount++;
        int flags = (e.pidIsNumber ? PID_IS_NUMBER : 0) | (e.hasPid ? HAS_PID : 0)
                | (e.tidIsNumber ? TID_IS_NUMBER : 0) | (e.hasTs ? HAS_TS : 0) | (e.hasDur ? HAS_DUR : 0)
                | (e.timeOutOfRange ? TIME_OUT_OF_RANGE : 0) | (e.hasArgs ? HAS_ARGS : 0);
        long count = e.fieldCount;
        if (count >= COUNT_INLINE_MAX) {
            numbers[numberCount++] = count;
            count = COUNT_INLINE_MAX;
        }
        int present = 0;
        present |= number(0, e.pid, NONE);
        present |= number(1, e.tid, NONE);
        present |= number(2, e.tsNs, 0);
        present |= number(3, e.durNs, 0);
        present |= number(4, e.correlation, NONE);
        present |= number(5, e.externalId, NONE);
        present |= number(6, e.stream, NONE);
        present |= number(7, e.waitOnStream, NONE);
        present |= number(8, e.waitRecordCorrelation, NONE);
        present |= number(9, e.inElems, NONE);
        present |= number(10, e.outElems, NONE);
        present |= number(11, e.groupSize, NONE);
        present |= number(12, e.seq, NONE);
        present |= number(13, e.memDeviceType, NONE);
        present |= number(14, e.memDeviceId, NONE);
        present |= number(15, e.memTotalAllocated, NONE);
        present |= number(16, shape(e.gridX, e.gridY, e.gridZ), -1);
        present |= number(17, shape(e.blockX, e.blockY, e.blockZ), -1);

        ensureStrings(ROW_STRINGS);
        int named = 0;
        named |= string(0, e.ph);
        named |= string(1, e.cat);
        named |= string(2, e.name);
        named |= string(3, e.argName);
        named |= string(4, e.syncKind);
        named |= string(5, e.collName);
        named |= string(6, e.dtype);
        named |= string(7, e.pgName);
        named |= string(8, e.pgDesc);
        named |= string(9, e.pgRanks);

        numbers[header] = KIND_EVENT | (long) flags << FLAGS_SHIFT | (long) present << NUMBERS_SHIFT
                | (long) named << STRINGS_SHIFT | count << COUNT_SHIFT;
        ignoredRun = -1;
    }

    /** Appends an event the collector ignores (only counted): runs of them share one number. */
    void addIgnored() {
        if (ignoredRun >= 0) {
            numbers[ignoredRun] += 1L << 2;
            return;
        }
        ensureNumbers(1);
        ignoredRun = numberCount;
        numbers[numberCount++] = KIND_IGNORED | 1L << 2;
    }

    /** Appends a {@code null} element of the array. */
    void addNull() {
        ensureNumbers(1);
        numbers[numberCount++] = KIND_NULL;
        ignoredRun = -1;
    }

    /** Hands the rows to {@code sink} in order, each event loaded into {@code into}. */
    void replay(ByteEventReader.Sink sink, EventHolder into) {
        read(sink, into, false);
    }

    /** Hands the events to {@link ByteEventReader.Sink#rehearse}, loaded into {@code into}. */
    void rehearse(ByteEventReader.Sink sink, EventHolder into) {
        read(sink, into, true);
    }

    private void read(ByteEventReader.Sink sink, EventHolder e, boolean rehearsal) {
        int segment = 0;
        long[] n = numberSegments.get(0);
        int end = fullSegments > 0 ? numberSegmentUsed[0] : numberCount;
        int readSegment = 0;
        String[] t = stringSegments.get(0);
        int ni = 0;
        int si = 0;
        for (;;) {
            if (ni == end) {
                if (n == numbers) {
                    return;
                }
                segment++;
                n = numberSegments.get(segment);
                end = segment < fullSegments ? numberSegmentUsed[segment] : numberCount;
                ni = 0;
                continue;
            }
            long header = n[ni++];
            int kind = (int) (header & KIND_MASK);
            if (kind == KIND_IGNORED) {
                if (!rehearsal) {
                    for (long k = header >>> 2; k > 0; k--) {
                        sink.ignoredEvent();
                    }
                }
                continue;
            }
            if (kind == KIND_NULL) {
                if (!rehearsal) {
                    sink.nullEvent();
                }
                continue;
            }
            long count = header >>> COUNT_SHIFT;
            if (count == COUNT_INLINE_MAX) {
                count = n[ni++];
            }
            e.fieldCount = (int) count;
            int flags = (int) (header >>> FLAGS_SHIFT) & 0x7f;
            e.pidIsNumber = (flags & PID_IS_NUMBER) != 0;
            e.hasPid = (flags & HAS_PID) != 0;
            e.tidIsNumber = (flags & TID_IS_NUMBER) != 0;
            e.hasTs = (flags & HAS_TS) != 0;
            e.hasDur = (flags & HAS_DUR) != 0;
            e.timeOutOfRange = (flags & TIME_OUT_OF_RANGE) != 0;
            e.hasArgs = (flags & HAS_ARGS) != 0;

            int present = (int) (header >>> NUMBERS_SHIFT) & 0x3ffff;
            e.pid = (present & 1) != 0 ? n[ni++] : NONE;
            e.tid = (present & 1 << 1) != 0 ? n[ni++] : NONE;
            e.tsNs = (present & 1 << 2) != 0 ? n[ni++] : 0;
            e.durNs = (present & 1 << 3) != 0 ? n[ni++] : 0;
            e.correlation = (present & 1 << 4) != 0 ? n[ni++] : NONE;
            e.externalId = (present & 1 << 5) != 0 ? n[ni++] : NONE;
            e.stream = (present & 1 << 6) != 0 ? n[ni++] : NONE;
            if ((present & 0xff80) == 0) { // the usual event: none of the rarer numbers
                e.waitOnStream = NONE;
                e.waitRecordCorrelation = NONE;
                e.inElems = NONE;
                e.outElems = NONE;
                e.groupSize = NONE;
                e.seq = NONE;
                e.memDeviceType = NONE;
                e.memDeviceId = NONE;
                e.memTotalAllocated = NONE;
            } else {
                e.waitOnStream = (present & 1 << 7) != 0 ? n[ni++] : NONE;
                e.waitRecordCorrelation = (present & 1 << 8) != 0 ? n[ni++] : NONE;
                e.inElems = (present & 1 << 9) != 0 ? n[ni++] : NONE;
                e.outElems = (present & 1 << 10) != 0 ? n[ni++] : NONE;
                e.groupSize = (present & 1 << 11) != 0 ? n[ni++] : NONE;
                e.seq = (present & 1 << 12) != 0 ? n[ni++] : NONE;
                e.memDeviceType = (present & 1 << 13) != 0 ? n[ni++] : NONE;
                e.memDeviceId = (present & 1 << 14) != 0 ? n[ni++] : NONE;
                e.memTotalAllocated = (present & 1 << 15) != 0 ? n[ni++] : NONE;
            }
            long grid = (present & 1 << 16) != 0 ? n[ni++] : -1;
            e.gridX = grid < 0 ? -1 : (int) (grid >> 42);
            e.gridY = grid < 0 ? -1 : (int) ((grid >> 21) & EventHolder.DIM_MASK);
            e.gridZ = grid < 0 ? -1 : (int) (grid & EventHolder.DIM_MASK);
            long block = (present & 1 << 17) != 0 ? n[ni++] : -1;
            e.blockX = block < 0 ? -1 : (int) (block >> 42);
            e.blockY = block < 0 ? -1 : (int) ((block >> 21) & EventHolder.DIM_MASK);
            e.blockZ = block < 0 ? -1 : (int) (block & EventHolder.DIM_MASK);

            int named = (int) (header >>> STRINGS_SHIFT) & 0x3ff;
            if (si + ROW_STRINGS > t.length) { // as ensureStrings decided when the row was added
                readSegment++;
                t = stringSegments.get(readSegment);
                si = 0;
            }
            e.ph = (named & 1) != 0 ? t[si++] : null;
            e.cat = (named & 1 << 1) != 0 ? t[si++] : null;
            e.name = (named & 1 << 2) != 0 ? t[si++] : null;
            if ((named & 0x3f8) == 0) {
                e.argName = null;
                e.syncKind = null;
                e.collName = null;
                e.dtype = null;
                e.pgName = null;
                e.pgDesc = null;
                e.pgRanks = null;
            } else {
                e.argName = (named & 1 << 3) != 0 ? t[si++] : null;
                e.syncKind = (named & 1 << 4) != 0 ? t[si++] : null;
                e.collName = (named & 1 << 5) != 0 ? t[si++] : null;
                e.dtype = (named & 1 << 6) != 0 ? t[si++] : null;
                e.pgName = (named & 1 << 7) != 0 ? t[si++] : null;
                e.pgDesc = (named & 1 << 8) != 0 ? t[si++] : null;
                e.pgRanks = (named & 1 << 9) != 0 ? t[si++] : null;
            }
            if (rehearsal) {
                sink.rehearse(e);
            } else {
                sink.event(e);
            }
        }
    }

    /**
     * A launch shape's three counts as one number ({@link EventHolder#pack}), or -1 when unknown.
     * Both read paths set all three from one packed value, so they are all -1 or all in range.
     */
    private static long shape(int x, int y, int z) {
        if (x == -1 && y == -1 && z == -1) {
            return -1;
        }
        long packed = EventHolder.pack(x, y, z);
        if (packed < 0) {
            throw new IllegalStateException("a launch shape of three counts outside [0, 2^21): " + x + ", " + y + ", " + z);
        }
        return packed;
    }

    /** Appends {@code value} unless it is the holder's default; returns its presence bit. */
    private int number(int field, long value, long absent) {
        if (value == absent) {
            return 0;
        }
        numbers[numberCount++] = value;
        return 1 << field;
    }

    /** Appends {@code value} unless {@code null}; returns its presence bit. */
    private int string(int field, String value) {
        if (value == null) {
            return 0;
        }
        strings[stringCount++] = value;
        return 1 << field;
    }

    /** Room for {@code more} numbers in the current segment, else the next one (reused or new). */
    private void ensureNumbers(int more) {
        if (numberCount + more > numbers.length) {
            if (fullSegments == numberSegmentUsed.length) {
                numberSegmentUsed = Arrays.copyOf(numberSegmentUsed, fullSegments * 2);
            }
            numberSegmentUsed[fullSegments++] = numberCount;
            int next = fullSegments;
            if (next == numberSegments.size()) {
                numberSegments.add(new long[NUMBER_SEGMENT]);
            }
            numbers = numberSegments.get(next);
            numberCount = 0;
            ignoredRun = -1; // a header in an earlier segment is not extended: it was counted there
        }
    }

    /**
     * Room for {@code more} strings in the current segment, else the next one. The reader switches
     * segments by the same test, made before each event row.
     */
    private void ensureStrings(int more) {
        if (stringCount + more > strings.length) {
            stringSegment++;
            if (stringSegment == stringSegments.size()) {
                stringSegments.add(new String[STRING_SEGMENT]);
            }
            strings = stringSegments.get(stringSegment);
            stringCount = 0;
        }
    }
}
