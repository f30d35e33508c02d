package io.overlapanalyze.formats.kineto;

import io.overlapanalyze.formats.json.DecimalMicros;
import io.overlapanalyze.formats.json.KeyPredictor;
import io.overlapanalyze.formats.json.KeyTable;
import io.overlapanalyze.formats.json.ParallelArrayScan;
import io.overlapanalyze.formats.json.ParallelArrayScan.BatchParser;
import io.overlapanalyze.formats.json.ParallelArrayScan.BatchReplay;
import io.overlapanalyze.formats.json.Utf8JsonScanner;
import io.overlapanalyze.formats.json.Utf8JsonScanner.Unsupported;
import io.overlapanalyze.formats.json.Utf8NameTable;

import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

import static io.overlapanalyze.formats.json.Utf8JsonScanner.ARRAY;
import static io.overlapanalyze.formats.json.Utf8JsonScanner.FALSE;
import static io.overlapanalyze.formats.json.Utf8JsonScanner.NULL;
import static io.overlapanalyze.formats.json.Utf8JsonScanner.NUMBER;
import static io.overlapanalyze.formats.json.Utf8JsonScanner.OBJECT;
import static io.overlapanalyze.formats.json.Utf8JsonScanner.STRING;
import static io.overlapanalyze.formats.json.Utf8JsonScanner.TRUE;

/**
 * The fast path of the Kineto reader: walks the document with a {@link Utf8JsonScanner} and fills
 * the same {@link EventHolder} that {@link EventHolder#read} fills from Jackson, field by field
 * with the same meaning, so that {@link TraceCollector} cannot tell the two apart.
 *
 * <p><b>Keep in step with {@link EventHolder#read} and {@link EventHolder#readArgs}</b>: every
 * field here mirrors one there. Where a value's type would make the Jackson path fail the file
 * (an object for {@code ts}), this path throws {@link Unsupported} and leaves the message to it.
 * {@code KinetoScannerParityTest} reads every test trace both ways and compares the models.
 */
final class ByteEventReader {
    /** Where the events and header values go (the reader's session). */
    interface Sink {
        void traceEventsStart();

        /**
         * The next event, read into {@code event} (the reader's holder, or the replay's holder loaded
         * from a parallel chunk's {@link EventBatch}): valid only during the call.
         */
        void event(EventHolder event);

        /** A sampled event for a scratch collector (JIT warm-up, {@link ParallelArrayScan}): no effect on the trace. */
        void rehearse(EventHolder event);

        /** The next event, one the collector ignores (only counted). */
        void ignoredEvent();

        void nullEvent();

        void traceEventsEnd();

        /** {@code distributedInfo}, {@code baseTimeNanoseconds} or {@code deviceProperties}: the value's bytes, for Jackson. */
        void header(String key, byte[] value) throws IOException;
    }

    private static final int TOP_TRACE_EVENTS = 0;
    private static final int TOP_DISTRIBUTED_INFO = 1;
    private static final int TOP_BASE_TIME = 2;
    private static final int TOP_DEVICE_PROPERTIES = 3;
    private static final KeyTable TOP_KEYS = KeyTable.of("traceEvents", "distributedInfo", "baseTimeNanoseconds",
            "deviceProperties");

    private static final int PH = 0;
    private static final int CAT = 1;
    private static final int NAME = 2;
    private static final int PID = 3;
    private static final int TID = 4;
    private static final int TS = 5;
    private static final int DUR = 6;
    private static final int ARGS = 7;
    /**
     * The keys read, then keys profilers write that are skipped: named so that the {@link KeyPredictor}
     * tells them apart (all keys it does not know share one way of going on).
     */
    private static final KeyTable EVENT_KEYS = KeyTable.of("ph", "cat", "name", "pid", "tid", "ts", "dur", "args",
            "id", "bp", "s");

    private static final int A_CORRELATION = 0;
    private static final int A_EXTERNAL_ID = 1;
    private static final int A_EXTERNAL_ID_LEGACY = 2;
    private static final int A_STREAM = 3;
    private static final int A_NAME = 4;
    private static final int A_SYNC_KIND = 5;
    private static final int A_WAIT_ON_STREAM = 6;
    private static final int A_WAIT_RECORD = 7;
    private static final int A_COLL_NAME = 8;
    private static final int A_IN_ELEMS = 9;
    private static final int A_OUT_ELEMS = 10;
    private static final int A_DTYPE = 11;
    private static final int A_GROUP_SIZE = 12;
    private static final int A_PG_NAME = 13;
    private static final int A_PG_ID = 14;
    private static final int A_PG_DESC = 15;
    private static final int A_PG_RANKS = 16;
    private static final int A_SEQ = 17;
    private static final int A_DEVICE_TYPE = 18;
    private static final int A_DEVICE_ID = 19;
    private static final int A_TOTAL_ALLOCATED = 20;
    private static final int A_GRID = 21;
    private static final int A_BLOCK = 22;
    private static final KeyTable ARG_KEYS = KeyTable.of("correlation", "External id", "external id", "stream", "name",
            "cuda_sync_kind", "wait_on_stream", "wait_on_cuda_event_record_corr_id", "Collective name",
            "In msg nelems", "Out msg nelems", "dtype", "Group size", "Process Group Name", "Process Group ID",
            "Process Group Description", "Process Group Ranks", "Seq", "Device Type", "Device Id", "Total Allocated",
            "grid", "block",
            // skipped, named for the predictor (as EVENT_KEYS)
            "queued", "device", "context", "registers per thread", "shared memory", "blocks per SM", "warps per SM",
            "est. achieved occupancy %", "Record function id", "Ev Idx", "Fwd thread id", "Sequence number", "cbid",
            "bytes", "memory bandwidth (GB/s)", "Input Dims", "Input type", "Input Strides", "Concrete Inputs",
            "Rank", "In split size", "Out split size", "Global rank start", "Global rank stride");

    private static final long NONE = EventHolder.NONE;

    /** The keys of this reader's events and args, in the order they come (see {@link KeyPredictor}). */
    private final KeyPredictor eventOrder = new KeyPredictor(EVENT_KEYS);
    private final KeyPredictor argOrder = new KeyPredictor(ARG_KEYS);

    private Utf8JsonScanner s;
    private final Sink sink;
    private final EventHolder event;
    private final Utf8NameTable names;

    /** A reader of {@code scanner}'s input into {@code event}; names are interned in {@code names}. */
    ByteEventReader(Utf8JsonScanner scanner, Sink sink, EventHolder event, Utf8NameTable names) {
        this.s = scanner;
        this.sink = sink;
        this.event = event;
        this.names = names;
    }

    /**
     * Reads the top-level object up to its closing brace (what follows it is not read, as on the
     * Jackson path). Anything but an object is {@link Unsupported}: the Jackson path words it.
     * With {@code parallel}, the events array is scanned by it (a plain file, random access).
     */
    void readDocument(ParallelArrayScan parallel) throws IOException {
        s.skipByteOrderMark();
        if (!s.beginObject()) {
            return;
        }
        do {
            switch (s.key(TOP_KEYS)) {
                case TOP_TRACE_EVENTS -> readEvents(parallel);
                case TOP_DISTRIBUTED_INFO -> sink.header("distributedInfo", s.captureValue());
                case TOP_BASE_TIME -> sink.header("baseTimeNanoseconds", s.captureValue());
                case TOP_DEVICE_PROPERTIES -> sink.header("deviceProperties", s.captureValue());
                default -> s.skipValue();
            }
        } while (s.nextMember());
    }

    private void readEvents(ParallelArrayScan parallel) throws IOException {
        if (s.peekKind() != ARRAY) {
            throw new Unsupported("\"traceEvents\" is not an array");
        }
        sink.traceEventsStart();
        if (s.beginArray()) {
            if (parallel != null) {
                // The chunks' events are loaded into this holder one at a time, as the sequential read
                // fills its own: the sink never keeps a holder past the call.
                // A replayed batch is cleared and handed back for a later chunk: the scan allocates only
                // the batches in flight at once.
                EventHolder replayed = new EventHolder();
                Queue<EventBatch> free = new ConcurrentLinkedQueue<>();
                long end = parallel.runBatches(s.offset(), () -> batchParser(free), new BatchReplay<>() {
                    @Override
                    public void replay(EventBatch batch) {
                        batch.replay(sink, replayed);
                        batch.clear();
                        free.add(batch);
                    }

                    @Override
                    public void rehearse(EventBatch batch) {
                        batch.rehearse(sink, replayed);
                        batch.clear();
                        free.add(batch);
                    }
                });
                s = parallel.scannerAt(end);
            } else {
                do {
                    int kind = s.peekKind();
                    if (kind == OBJECT) {
                        readEvent();
                        sink.event(event);
                    } else if (kind == NULL) {
                        s.literal(NULL);
                        sink.nullEvent();
                    } else {
                        throw new Unsupported("a trace event that is not an object");
                    }
                } while (s.nextElement());
            }
        }
        sink.traceEventsEnd();
    }

    /**
     * A parser of events for the parallel scan: one per pool thread, with its own holder and name
     * table. Each event is read into the holder and packed into the chunk's {@link EventBatch}; an
     * event the collector ignores is only counted there. Batches come from {@code free} when it has
     * one.
     */
    private static BatchParser<EventBatch> batchParser(Queue<EventBatch> free) {
        ByteEventReader r = new ByteEventReader(null, null, new EventHolder(), new Utf8NameTable());
        return new BatchParser<>() {
            @Override
            public EventBatch newBatch() {
                EventBatch reused = free.poll();
                return reused != null ? reused : new EventBatch();
            }

            @Override
            public void parse(Utf8JsonScanner scanner, EventBatch batch) throws IOException {
                r.s = scanner;
                int kind = scanner.peekKind();
                if (kind == OBJECT) {
                    r.readEvent();
                    if (TraceCollector.ignores(r.event)) {
                        batch.addIgnored();
                    } else {
                        batch.add(r.event);
                    }
                } else if (kind == NULL) {
                    scanner.literal(NULL);
                    batch.addNull();
                } else {
                    throw new Unsupported("a trace event that is not an object");
                }
            }
        };
    }

    /** Reads the event object that comes next into the holder. Mirrors {@link EventHolder#read}. */
    private void readEvent() throws IOException {
        EventHolder e = event;
        e.reset();
        for (int field = s.firstKey(eventOrder); field != Utf8JsonScanner.END_OF_OBJECT;
                field = s.nextKey(eventOrder, field)) {
            e.fieldCount++;
            switch (field) {
                case PH -> e.ph = internedText();
                case CAT -> e.cat = internedText();
                case NAME -> e.name = internedText();
                case PID -> readPid(e);
                case TID -> readTid(e);
                case TS -> {
                    int kind = s.peekKind();
                    if (kind == NULL) {
                        s.literal(NULL);
                        e.hasTs = false;
                    } else {
                        e.tsNs = time(kind);
                        e.hasTs = !lastOutOfRange;
                        e.timeOutOfRange |= lastOutOfRange;
                    }
                }
                case DUR -> {
                    int kind = s.peekKind();
                    if (kind == NULL) {
                        s.literal(NULL);
                        e.hasDur = false;
                    } else {
                        e.durNs = time(kind);
                        e.hasDur = !lastOutOfRange;
                        e.timeOutOfRange |= lastOutOfRange;
                    }
                }
                case ARGS -> readArgs(e);
                default -> s.skipValue();
            }
        }
    }

    /** A string interned; other scalars as their text (as {@link JsonValues#scalarText}); no containers. */
    private String internedText() throws IOException {
        int kind = s.peekKind();
        switch (kind) {
            case STRING -> {
                s.string();
                return names.intern(s);
            }
            case NUMBER -> {
                s.number();
                return s.sliceText();
            }
            case NULL -> {
                s.literal(NULL);
                return null;
            }
            case TRUE, FALSE -> {
                s.literal(kind);
                return kind == TRUE ? "true" : "false";
            }
            default -> throw new Unsupported("an object or array where a string belongs");
        }
    }

    /** Set by {@link #time}: the number was beyond 64-bit nanoseconds (the event is skipped, as on the Jackson path). */
    private boolean lastOutOfRange;

    /** µs as a number (or a numeric string) to ns, as {@code EventHolder.readTime}. */
    private long time(int kind) throws IOException {
        lastOutOfRange = false;
        try {
            if (kind == NUMBER) {
                s.number();
                return DecimalMicros.numberToNanos(s);
            }
            if (kind == STRING) {
                s.string();
                return DecimalMicros.toNanos(s.stringValue().trim());
            }
        } catch (NumberFormatException e) {
            if (e.getMessage() != null && e.getMessage().startsWith("out of range")) {
                lastOutOfRange = true;
                return 0;
            }
            throw new Unsupported("a time that is not a number of microseconds");
        }
        throw new Unsupported("a time that is not a number");
    }

    private void readPid(EventHolder e) throws IOException {
        int kind = s.peekKind();
        e.hasPid = kind != NULL;
        if (kind == NUMBER) {
            if (s.number()) {
                e.pid = sliceLong();
                e.pidIsNumber = e.pid != NONE;
            }
        } else if (kind == OBJECT || kind == ARRAY) {
            throw new Unsupported("an object or array as pid");
        } else {
            skipScalar(kind);
        }
    }

    private void readTid(EventHolder e) throws IOException {
        int kind = s.peekKind();
        if (kind == NUMBER) {
            if (s.number()) {
                e.tid = sliceLong();
                e.tidIsNumber = e.tid != NONE;
            }
        } else if (kind == OBJECT || kind == ARRAY) {
            throw new Unsupported("an object or array as tid");
        } else {
            skipScalar(kind);
        }
    }

    private void skipScalar(int kind) throws IOException {
        if (kind == STRING) {
            s.string();
        } else if (kind == NUMBER) {
            s.number();
        } else {
            s.literal(kind);
        }
    }

    /** The integer {@link Utf8JsonScanner#number()} just read, as {@link JsonValues#parseLong} reads it. */
    private long sliceLong() {
        long exact = s.integerValue();
        return exact != Utf8JsonScanner.NOT_EXACT ? exact
                : JsonValues.parseLong(s.buffer(), s.sliceStart(), s.sliceEnd() - s.sliceStart());
    }

    /** Mirrors {@code EventHolder.readArgs} and {@code skipArgs}. */
    private void readArgs(EventHolder e) throws IOException {
        int kind = s.peekKind();
        if (kind == NULL) {
            s.literal(NULL);
            return;
        }
        if (kind != OBJECT) {
            throw new Unsupported("args that are not an object");
        }
        e.hasArgs = true;
        if (!TraceCollector.usesArgs(e.ph, e.cat, e.name)) {
            s.skipValue();
            return;
        }
        for (int arg = s.firstKey(argOrder); arg != Utf8JsonScanner.END_OF_OBJECT;
                arg = s.nextKey(argOrder, arg)) {
            switch (arg) {
                case A_CORRELATION -> e.correlation = lenientLong();
                case A_EXTERNAL_ID, A_EXTERNAL_ID_LEGACY -> e.externalId = lenientLong();
                case A_STREAM -> e.stream = lenientLong();
                case A_NAME -> e.argName = lenientText();
                case A_SYNC_KIND -> e.syncKind = lenientText();
                case A_WAIT_ON_STREAM -> e.waitOnStream = lenientLong();
                case A_WAIT_RECORD -> e.waitRecordCorrelation = lenientLong();
                case A_COLL_NAME -> e.collName = lenientText();
                case A_IN_ELEMS -> e.inElems = lenientLong();
                case A_OUT_ELEMS -> e.outElems = lenientLong();
                case A_DTYPE -> e.dtype = lenientText();
                case A_GROUP_SIZE -> e.groupSize = lenientLong();
                case A_PG_NAME -> e.pgName = lenientText();
                case A_PG_ID -> {
                    if (e.pgName == null) {
                        e.pgName = lenientText();
                    } else {
                        s.skipValue();
                    }
                }
                case A_PG_DESC -> e.pgDesc = lenientText();
                case A_PG_RANKS -> e.pgRanks = arrayOrScalarText();
                case A_SEQ -> e.seq = lenientLong();
                case A_DEVICE_TYPE -> e.memDeviceType = lenientLong();
                case A_DEVICE_ID -> e.memDeviceId = lenientLong();
                case A_TOTAL_ALLOCATED -> e.memTotalAllocated = lenientLong();
                case A_GRID -> {
                    long packed = dims();
                    e.gridX = packed < 0 ? -1 : (int) (packed >> 42);
                    e.gridY = packed < 0 ? -1 : (int) ((packed >> 21) & EventHolder.DIM_MASK);
                    e.gridZ = packed < 0 ? -1 : (int) (packed & EventHolder.DIM_MASK);
                }
                case A_BLOCK -> {
                    long packed = dims();
                    e.blockX = packed < 0 ? -1 : (int) (packed >> 42);
                    e.blockY = packed < 0 ? -1 : (int) ((packed >> 21) & EventHolder.DIM_MASK);
                    e.blockZ = packed < 0 ? -1 : (int) (packed & EventHolder.DIM_MASK);
                }
                default -> s.skipValue();
            }
        }
    }

    /** As {@code EventHolder.dims}: three integers packed, else -1. */
    private long dims() throws IOException {
        if (s.peekKind() != ARRAY) {
            s.skipValue();
            return -1;
        }
        long x = -1;
        long y = -1;
        long z = -1;
        int n = 0;
        boolean ok = true;
        if (s.beginArray()) {
            do {
                int kind = s.peekKind();
                if (kind == NUMBER && n < 3) {
                    long d = s.number() ? sliceLong() : NONE;
                    if (d == NONE) {
                        ok = false;
                    }
                    if (n == 0) {
                        x = d;
                    } else if (n == 1) {
                        y = d;
                    } else {
                        z = d;
                    }
                } else {
                    ok = false;
                    s.skipValue();
                }
                n++;
            } while (s.nextElement());
        }
        return ok && n == 3 ? EventHolder.pack(x, y, z) : -1;
    }

    /** As {@link JsonValues#lenientLong}: an integer or a numeric string, else {@link #NONE}. */
    private long lenientLong() throws IOException {
        int kind = s.peekKind();
        if (kind == NUMBER) {
            return s.number() ? sliceLong() : NONE;
        }
        if (kind == STRING) {
            s.string();
            String text = s.stringValue().trim();
            return JsonValues.parseLong(text.toCharArray(), 0, text.length());
        }
        s.skipValue();
        return NONE;
    }

    /**
     * As {@link JsonValues#lenientText}: a scalar's text, {@code null} for null and containers. A
     * string is interned: the collective args of every collective kernel and {@code record_param_comms}
     * op repeat a few values ({@code "allreduce"}, the dtype, the process group), kept per kernel.
     */
    private String lenientText() throws IOException {
        int kind = s.peekKind();
        switch (kind) {
            case STRING -> {
                s.string();
                return names.intern(s);
            }
            case NUMBER -> {
                s.number();
                return s.sliceText();
            }
            case TRUE, FALSE -> {
                s.literal(kind);
                return kind == TRUE ? "true" : "false";
            }
            default -> {
                s.skipValue();
                return null;
            }
        }
    }

    /** As {@link JsonValues#arrayOrScalarText}: "[a, b]" of an array's scalars, nested containers skipped. */
    private String arrayOrScalarText() throws IOException {
        if (s.peekKind() != ARRAY) {
            return lenientText();
        }
        StringBuilder sb = new StringBuilder("[");
        boolean first = true;
        if (s.beginArray()) {
            do {
                int kind = s.peekKind();
                if (kind == OBJECT || kind == ARRAY) {
                    s.skipValue();
                    continue;
                }
                String text = kind == NULL ? skipNull() : lenientText();
                if (!first) {
                    sb.append(", ");
                }
                sb.append(text);
                first = false;
            } while (s.nextElement());
        }
        String text = sb.append(']').toString();
        // The same few rank lists on every collective: one String each (bounded, as the name table).
        String known = rankLists.putIfAbsent(text, text);
        if (known != null) {
            return known;
        }
        if (rankLists.size() > MAX_RANK_LISTS) {
            rankLists.clear();
        }
        return text;
    }

    private static final int MAX_RANK_LISTS = 4096;
    private final Map<String, String> rankLists = new HashMap<>();

    private String skipNull() throws IOException {
        s.literal(NULL);
        return "null"; // Jackson's getText() of a null token
    }
}
