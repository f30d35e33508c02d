package io.overlapanalyze.formats.ascend;

import io.overlapanalyze.formats.json.KeyPredictor;
import io.overlapanalyze.formats.json.KeyTable;
import io.overlapanalyze.formats.json.Utf8JsonScanner;
import io.overlapanalyze.formats.json.Utf8NameTable;
import io.overlapanalyze.formats.json.DecimalMicros;

import java.io.IOException;

import static io.overlapanalyze.formats.json.Utf8JsonScanner.ARRAY;
import static io.overlapanalyze.formats.json.Utf8JsonScanner.NULL;
import static io.overlapanalyze.formats.json.Utf8JsonScanner.NUMBER;
import static io.overlapanalyze.formats.json.Utf8JsonScanner.OBJECT;
import static io.overlapanalyze.formats.json.Utf8JsonScanner.STRING;
import static io.overlapanalyze.formats.json.Utf8JsonScanner.TRUE;

/**
 * The fast path's twin of {@link EventFields#read}: fills the same {@link EventFields} from a
 * {@link Utf8JsonScanner}, field by field with the same meaning, so that the timeline reader cannot
 * tell which path read an event.
 *
 * <p><b>Keep in step with {@link EventFields#read} and its {@code readArgs}</b>. What they do, and
 * so what this does:
 * <ul>
 *   <li>a top-level {@code null} leaves the field absent (an earlier value of a repeated key stays);
 *       objects and arrays are skipped; {@code args} is read only when it is an object;</li>
 *   <li>{@code ph}, {@code name}, {@code cat}, {@code pid}, {@code tid} and the kept {@code args} are
 *       the value's text as Jackson gives it ({@code TextCache.text}): a string decoded, a number's
 *       exact digits, {@code "true"}/{@code "false"};</li>
 *   <li>{@code ts}, {@code dur}, {@code id} are that same text as characters ({@link EventFields.Slice}),
 *       or, when it is a number, only what the reader would make of those characters, made here from
 *       the bytes: nanoseconds of a time, a numeric flow id (the slice's {@code value});</li>
 *   <li>in {@code args} a {@code null} does clear the field (a repeated key: the last one wins).</li>
 * </ul>
 * Anything outside the scanner's subset is {@link Utf8JsonScanner.Unsupported}, for the Jackson
 * path to read. {@code AscendScannerParityTest} reads every test timeline both ways and compares.
 */
final class ByteEventFields {
    private static final int PH = 0;
    private static final int NAME = 1;
    private static final int CAT = 2;
    private static final int PID = 3;
    private static final int TID = 4;
    private static final int TS = 5;
    private static final int DUR = 6;
    private static final int ID = 7;
    private static final int ARGS = 8;
    /** Kept by no field, but named so that {@link #keyOrder} can predict them: flows' binding point. */
    private static final int BP = 9;
    private static final KeyTable KEYS = KeyTable.of("ph", "name", "cat", "pid", "tid", "ts", "dur", "id", "args", "bp");

    private static final int A_NAME = 0;
    private static final int A_LABELS = 1;
    private static final int A_TASK_TYPE = 2;
    private static final int A_STREAM_ID = 3;
    private static final int A_COUNT = 4;
    private static final int A_DATA_TYPE = 5;
    private static final int A_SORT_INDEX = 6;
    /** From here on, args no field keeps, named so that {@link #argOrder} can predict them (a task's ids). */
    private static final int A_UNKEPT = 7;
    private static final KeyTable ARG_KEYS = KeyTable.of("name", "labels", "Task Type", "stream id", "count", "data_type",
            "sort_index", "Model Id", "Physic Stream Id", "Task Id", "Batch Id");

    /** The keys of this thread's events, in the order they come (see {@link KeyPredictor}). */
    private final KeyPredictor keyOrder = new KeyPredictor(KEYS);
    private final KeyPredictor argOrder = new KeyPredictor(ARG_KEYS);

    /** The byte-side {@link TextCache}: names, pids and tids repeat across events. */
    private final Utf8NameTable names = new Utf8NameTable();

    /** Reads the event object that comes next in {@code s} into {@code e}. */
    void read(Utf8JsonScanner s, EventFields e) throws IOException {
        e.clear();
        for (int key = s.firstKey(keyOrder); key != Utf8JsonScanner.END_OF_OBJECT;
                key = s.nextKey(keyOrder, key)) {
            int kind = s.peekKind();
            if (key == ARGS && kind == OBJECT) {
                readArgs(s, e);
            } else if (key < 0 || key == ARGS || key == BP || kind == OBJECT || kind == ARRAY || kind == NULL) {
                s.skipValue(); // not a field it keeps, a container, or null (absent)
            } else {
                switch (key) {
                    case PH -> e.ph = text(s, kind);
                    case NAME -> e.name = text(s, kind);
                    case CAT -> e.cat = text(s, kind);
                    case PID -> e.pid = text(s, kind);
                    case TID -> e.tid = text(s, kind);
                    case TS -> time(s, kind, e.ts);
                    case DUR -> time(s, kind, e.dur);
                    case ID -> flowId(s, kind, e.id);
                    default -> s.skipValue();
                }
            }
        }
    }

    private void readArgs(Utf8JsonScanner s, EventFields e) throws IOException {
        for (int key = s.firstKey(argOrder); key != Utf8JsonScanner.END_OF_OBJECT;
                key = s.nextKey(argOrder, key)) {
            int kind = s.peekKind();
            if (key < 0 || key >= A_UNKEPT || kind == OBJECT || kind == ARRAY) {
                s.skipValue();
                continue;
            }
            String value = null;
            if (kind == NULL) {
                s.literal(NULL);
            } else {
                value = text(s, kind);
            }
            switch (key) {
                case A_NAME -> e.argName = value;
                case A_LABELS -> e.argLabels = value;
                case A_TASK_TYPE -> e.argTaskType = value;
                case A_STREAM_ID -> e.argStreamId = value;
                case A_COUNT -> e.argCount = value;
                case A_DATA_TYPE -> e.argDataType = value;
                case A_SORT_INDEX -> e.argSortIndex = value;
                default -> { }
            }
        }
    }

    /** A scalar's text, as Jackson's {@code getText()}: strings decoded, numbers as written. */
    private String text(Utf8JsonScanner s, int kind) throws IOException {
        if (kind == STRING) {
            s.string();
            return names.intern(s);
        }
        if (kind == NUMBER) {
            s.number();
            return names.intern(s);
        }
        s.literal(kind);
        return kind == TRUE ? "true" : "false";
    }

    /**
     * {@link #slice}, or, when the text is a plain number of microseconds, only its nanoseconds:
     * what the reader would make of the characters, made from the bytes at hand (it then needs no
     * characters; see {@link EventFields.Slice#value}).
     */
    private static void time(Utf8JsonScanner s, int kind, EventFields.Slice to) throws IOException {
        if (!scan(s, kind, to)) {
            return;
        }
        if (s.slicePlainAscii()) {
            try {
                to.value = kind == NUMBER ? DecimalMicros.numberToNanos(s)
                        : DecimalMicros.toNanos(s.buffer(), s.sliceStart(), s.sliceEnd() - s.sliceStart());
                to.valueKnown = true;
                to.present = true;
                to.len = 0;
                return;
            } catch (NumberFormatException ex) {
                // not a time: the reader converts the characters and words the error, if it needs the value
            }
        }
        setScanned(s, to);
    }

    /**
     * The text as characters ({@link #setScanned}), or, when it is a numeric flow id, only its number
     * ({@link FlowIndex#numericId}, made from the bytes at hand; the reader then needs no characters).
     */
    private static void flowId(Utf8JsonScanner s, int kind, EventFields.Slice to) throws IOException {
        if (!scan(s, kind, to)) {
            return; // true/false: not numeric
        }
        if (s.slicePlainAscii()) {
            long v = FlowIndex.numericId(s.buffer(), s.sliceStart(), s.sliceEnd() - s.sliceStart());
            if (v != FlowIndex.NOT_NUMERIC) {
                to.value = v;
                to.valueKnown = true;
                to.present = true;
                to.len = 0;
                return;
            }
        }
        setScanned(s, to);
    }

    /** Scans a string or number (true: its text is the scanner's slice) or a literal (false: set here). */
    private static boolean scan(Utf8JsonScanner s, int kind, EventFields.Slice to) throws IOException {
        if (kind == STRING) {
            s.string();
            return true;
        }
        if (kind == NUMBER) {
            s.number();
            return true;
        }
        s.literal(kind);
        set(to, kind == TRUE ? "true" : "false");
        return false;
    }

    /** The scanner's slice as characters (decoded when it is not plain ASCII). */
    private static void setScanned(Utf8JsonScanner s, EventFields.Slice to) {
        if (!s.slicePlainAscii()) {
            set(to, s.stringValue());
            return;
        }
        byte[] b = s.buffer();
        int start = s.sliceStart();
        int n = s.sliceEnd() - start;
        char[] c = to.room(n);
        for (int i = 0; i < n; i++) {
            c[i] = (char) b[start + i]; // plain ASCII: each byte is its char
        }
        to.len = n;
        to.present = true;
        to.valueKnown = false;
    }

    private static void set(EventFields.Slice to, String text) {
        text.getChars(0, text.length(), to.room(text.length()), 0);
        to.len = text.length();
        to.present = true;
        to.valueKnown = false;
    }
}
