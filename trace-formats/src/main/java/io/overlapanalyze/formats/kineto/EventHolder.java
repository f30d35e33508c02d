package io.overlapanalyze.formats.kineto;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.overlapanalyze.formats.json.DecimalMicros;
import io.overlapanalyze.formats.json.Utf8NameTable;

import java.io.EOFException;
import java.io.IOException;

/**
 * The fields of one trace event the reader uses, read from the stream into reusable slots (no
 * tree, no per-event map). Unused fields and {@code args} keys are skipped unparsed.
 */
final class EventHolder {
    static final long NONE = CollectiveArgs.NONE;

    int fieldCount;
    String ph;
    String cat;
    String name;
    boolean pidIsNumber;
    boolean hasPid;
    long pid;
    boolean tidIsNumber;
    long tid;
    boolean hasTs;
    long tsNs;
    boolean hasDur;
    long durNs;
    /**
     * A time that is a number beyond 64-bit nanoseconds (after the year 2262): the event is
     * skipped with a warning, the rest of the file read (issue 29; it refused the whole file).
     */
    boolean timeOutOfRange;

    boolean hasArgs;
    long correlation;
    long externalId;
    long stream;
    String argName; // args.name of metadata events (thread_name)

    // cuda_sync events (kineto.md §3.1): the explicit dependency of a stream wait.
    String syncKind;
    long waitOnStream;
    long waitRecordCorrelation;

    String collName;
    long inElems;
    long outElems;
    String dtype;
    long groupSize;
    String pgName;
    String pgDesc;
    String pgRanks;
    long seq;
    // [memory] instants (kineto.md §3.3)
    long memDeviceType;
    long memDeviceId;
    long memTotalAllocated;
    // Kernel launch shape (args "grid" and "block", each an array of three counts); -1 when absent
    // or not three integers, so that both read paths keep the same shapes.
    int gridX;
    int gridY;
    int gridZ;
    int blockX;
    int blockY;
    int blockZ;

    /** Clears every field for the next event (both read paths start from here). */
    void reset() {
        fieldCount = 0;
        ph = null;
        cat = null;
        name = null;
        pidIsNumber = false;
        hasPid = false;
        pid = NONE;
        tidIsNumber = false;
        tid = NONE;
        hasTs = false;
        tsNs = 0;
        hasDur = false;
        durNs = 0;
        timeOutOfRange = false;
        hasArgs = false;
        correlation = NONE;
        externalId = NONE;
        stream = NONE;
        argName = null;
        syncKind = null;
        waitOnStream = NONE;
        waitRecordCorrelation = NONE;
        collName = null;
        inElems = NONE;
        outElems = NONE;
        dtype = null;
        groupSize = NONE;
        pgName = null;
        pgDesc = null;
        pgRanks = null;
        seq = NONE;
        memDeviceType = NONE;
        memDeviceId = NONE;
        memTotalAllocated = NONE;
        gridX = -1;
        gridY = -1;
        gridZ = -1;
        blockX = -1;
        blockY = -1;
        blockZ = -1;
    }

    /** Names, categories and phases interned from the parser's buffer (no String per event). */
    private final Utf8NameTable names = new Utf8NameTable();

    /**
     * Reads the event object whose START_OBJECT is the current token, up to its END_OBJECT.
     * {@code nextFieldName()} returns the parser's canonical (interned) name without a token
     * round trip; the switch then hits on the cached hash.
     */
    void read(JsonParser p) throws IOException {
        reset();
        for (String field = p.nextFieldName(); ; field = p.nextFieldName()) {
            if (field == null) {
                JsonToken t = p.currentToken();
                if (t == JsonToken.END_OBJECT) {
                    return;
                }
                if (t == null) {
                    throw new EOFException("end of input inside an event");
                }
                throw new IllegalStateException("unexpected token " + t + " in an object"); // Jackson never does this
            }
            p.nextToken();
            fieldCount++;
            switch (field) {
                case "ph":
                    ph = internedText(p, "ph");
                    break;
                case "cat":
                    cat = internedText(p, "cat");
                    break;
                case "name":
                    name = internedText(p, "name");
                    break;
                case "pid":
                    readPid(p);
                    break;
                case "tid":
                    readTid(p);
                    break;
                case "ts":
                    hasTs = readTime(p, "ts");
                    tsNs = lastTime;
                    break;
                case "dur":
                    hasDur = readTime(p, "dur");
                    durNs = lastTime;
                    break;
                case "args":
                    if (argsNeeded()) {
                        readArgs(p);
                    } else {
                        skipArgs(p);
                    }
                    break;
                default:
                    p.skipChildren();
            }
        }
    }

    /** A string value interned; other scalars as {@link JsonValues#scalarText} gives them. */
    private String internedText(JsonParser p, String field) throws IOException {
        if (p.currentToken() == JsonToken.VALUE_STRING) {
            return names.intern(p.getTextCharacters(), p.getTextOffset(), p.getTextLength());
        }
        return JsonValues.scalarText(p, field);
    }

    /** Whether the collector can use this event's args (decided by {@link TraceCollector#usesArgs}). */
    private boolean argsNeeded() {
        return TraceCollector.usesArgs(ph, cat, name);
    }

    /** Skips an args value, with the same type check as {@link #readArgs}. */
    private void skipArgs(JsonParser p) throws IOException {
        JsonToken t = p.currentToken();
        if (t == JsonToken.VALUE_NULL) {
            return;
        }
        if (t != JsonToken.START_OBJECT) {
            throw new BadTraceException("\"args\" is " + JsonValues.describe(t) + ", expected an object");
        }
        hasArgs = true;
        p.skipChildren();
    }

    private long lastTime;

    /** Reads a µs time into {@link #lastTime}; false when null. Non-numbers are a format error. */
    private boolean readTime(JsonParser p, String field) throws IOException {
        JsonToken t = p.currentToken();
        try {
            if (t == JsonToken.VALUE_NUMBER_INT || t == JsonToken.VALUE_NUMBER_FLOAT) {
                lastTime = DecimalMicros.toNanos(p.getTextCharacters(), p.getTextOffset(), p.getTextLength());
                return true;
            }
            if (t == JsonToken.VALUE_STRING) {
                // Not Kineto's own form, but a numeric string is unambiguous (Ascend writes ts so).
                lastTime = DecimalMicros.toNanos(p.getText().trim());
                return true;
            }
        } catch (NumberFormatException e) {
            // A number too large for nanoseconds in 64 bits is a number, not a malformed one: that
            // event has no usable time (skipped and counted), the file is not refused for it.
            boolean tooLarge = e.getMessage() != null && e.getMessage().startsWith("out of range");
            if (tooLarge) {
                timeOutOfRange = true;
                return false;
            }
            throw new BadTraceException("\"" + field + "\" is " + quoteShort(p.getText()) + ", expected a number of microseconds");
        }
        if (t == JsonToken.VALUE_NULL) {
            return false;
        }
        throw new BadTraceException("\"" + field + "\" is " + JsonValues.describe(t) + ", expected a number of microseconds");
    }

    private void readPid(JsonParser p) throws IOException {
        JsonToken t = p.currentToken();
        hasPid = t != JsonToken.VALUE_NULL;
        if (t == JsonToken.VALUE_NUMBER_INT) {
            pid = JsonValues.lenientLong(p);
            pidIsNumber = pid != NONE;
        } else if (t == JsonToken.START_OBJECT || t == JsonToken.START_ARRAY) {
            throw new BadTraceException("\"pid\" is " + JsonValues.describe(t) + ", expected a number or a string");
        }
        // Strings ("Spans", "Traces", "") and other scalars: a bookkeeping lane, never a device.
    }

    private void readTid(JsonParser p) throws IOException {
        JsonToken t = p.currentToken();
        if (t == JsonToken.VALUE_NUMBER_INT) {
            tid = JsonValues.lenientLong(p);
            tidIsNumber = tid != NONE;
        } else if (t == JsonToken.START_OBJECT || t == JsonToken.START_ARRAY) {
            throw new BadTraceException("\"tid\" is " + JsonValues.describe(t) + ", expected a number or a string");
        }
    }

    private void readArgs(JsonParser p) throws IOException {
        JsonToken t = p.currentToken();
        if (t == JsonToken.VALUE_NULL) {
            return;
        }
        if (t != JsonToken.START_OBJECT) {
            throw new BadTraceException("\"args\" is " + JsonValues.describe(t) + ", expected an object");
        }
        hasArgs = true;
        // Args are version-dependent metadata (ROCm writes "stream": "0x0" on runtime events), so
        // values of an unexpected type are treated as absent rather than failing the file.
        for (JsonToken a = p.nextToken(); a != JsonToken.END_OBJECT; a = p.nextToken()) {
            if (a == null) {
                throw new EOFException("end of input inside event args");
            }
            String key = p.currentName();
            p.nextToken();
            switch (key) {
                case "correlation":
                    correlation = JsonValues.lenientLong(p);
                    break;
                case "External id":
                case "external id": // legacy lower-case spelling (2022 traces)
                    externalId = JsonValues.lenientLong(p);
                    break;
                case "stream":
                    stream = JsonValues.lenientLong(p);
                    break;
                case "name":
                    argName = JsonValues.lenientText(p);
                    break;
                case "cuda_sync_kind":
                    syncKind = JsonValues.lenientText(p);
                    break;
                case "wait_on_stream":
                    waitOnStream = JsonValues.lenientLong(p);
                    break;
                case "wait_on_cuda_event_record_corr_id":
                    // -1 when unknown; a value beyond long (uint64 garbage) reads as NONE, not an error
                    waitRecordCorrelation = JsonValues.lenientLong(p);
                    break;
                case "Collective name":
                    collName = JsonValues.lenientText(p);
                    break;
                case "In msg nelems":
                    inElems = JsonValues.lenientLong(p);
                    break;
                case "Out msg nelems":
                    outElems = JsonValues.lenientLong(p);
                    break;
                case "dtype":
                    dtype = JsonValues.lenientText(p);
                    break;
                case "Group size":
                    groupSize = JsonValues.lenientLong(p);
                    break;
                case "Process Group Name":
                    pgName = JsonValues.lenientText(p);
                    break;
                case "Process Group ID": // older name of the above (early 2024)
                    if (pgName == null) {
                        pgName = JsonValues.lenientText(p);
                    } else {
                        p.skipChildren();
                    }
                    break;
                case "Process Group Description":
                    pgDesc = JsonValues.lenientText(p);
                    break;
                case "Process Group Ranks":
                    pgRanks = JsonValues.arrayOrScalarText(p);
                    break;
                case "Seq":
                    seq = JsonValues.lenientLong(p);
                    break;
                case "Device Type":
                    memDeviceType = JsonValues.lenientLong(p);
                    break;
                case "Device Id":
                    memDeviceId = JsonValues.lenientLong(p);
                    break;
                case "Total Allocated":
                    memTotalAllocated = JsonValues.lenientLong(p);
                    break;
                case "grid": {
                    long packed = dims(p);
                    gridX = (int) (packed >> 42);
                    gridY = (int) ((packed >> 21) & DIM_MASK);
                    gridZ = (int) (packed & DIM_MASK);
                    if (packed < 0) {
                        gridX = gridY = gridZ = -1;
                    }
                    break;
                }
                case "block": {
                    long packed = dims(p);
                    blockX = (int) (packed >> 42);
                    blockY = (int) ((packed >> 21) & DIM_MASK);
                    blockZ = (int) (packed & DIM_MASK);
                    if (packed < 0) {
                        blockX = blockY = blockZ = -1;
                    }
                    break;
                }
                default:
                    p.skipChildren();
            }
        }
    }

    static final long DIM_MASK = (1L << 21) - 1;

    /**
     * Three dimensions packed in one value (21 bits each; CUDA's grid x reaches 2^31 − 1, beyond
     * what a shape worth telling apart in a report needs), or -1 when the value is not an array of
     * exactly three integers in [0, 2^21): such a shape is left unknown. Mirrored by
     * {@code ByteEventReader.dims}.
     */
    static long pack(long x, long y, long z) {
        if (x < 0 || y < 0 || z < 0 || x > DIM_MASK || y > DIM_MASK || z > DIM_MASK) {
            return -1;
        }
        return (x << 42) | (y << 21) | z;
    }

    private static long dims(JsonParser p) throws IOException {
        if (p.currentToken() != JsonToken.START_ARRAY) {
            p.skipChildren();
            return -1;
        }
        long[] d = {-1, -1, -1};
        int n = 0;
        boolean ok = true;
        for (JsonToken t = p.nextToken(); t != JsonToken.END_ARRAY; t = p.nextToken()) {
            if (t == null) {
                throw new EOFException("end of input inside event args");
            }
            if (t == JsonToken.VALUE_NUMBER_INT && n < 3) {
                d[n] = JsonValues.lenientLong(p);
            } else {
                ok = false;
                p.skipChildren();
            }
            n++;
        }
        return ok && n == 3 ? pack(d[0], d[1], d[2]) : -1;
    }

    /** The collective metadata in this event's args, or {@code null} when it has none. */
    CollectiveArgs collectiveArgs() {
        if (collName == null && inElems == NONE && outElems == NONE && dtype == null && pgName == null
                && pgRanks == null) {
            return null; // the common case (every compute kernel): no allocation
        }
        CollectiveArgs a = new CollectiveArgs(collName, inElems, outElems, dtype, groupSize, pgName, pgDesc, pgRanks, seq);
        return a.any() ? a : null;
    }

    private static String quoteShort(String s) {
        if (s == null) {
            return "null";
        }
        return "\"" + (s.length() > 40 ? s.substring(0, 40) + "..." : s) + "\"";
    }
}
