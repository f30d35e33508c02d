package io.overlapanalyze.formats.ascend;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;

import java.io.IOException;

/**
 * The fields of one timeline event that the reader uses, as text, so that numbers keep their
 * exact decimal digits ({@code ts} strings of epoch µs, {@code dur} with sub-ns digits, flow ids
 * above 2⁵³) and never pass through {@code double}. Reused for every event; per event it allocates
 * nothing in the usual case:
 * <ul>
 *   <li>{@code ts}, {@code dur} and the flow {@code id} are copied as characters ({@link Slice}) and converted to
 *       nanoseconds from there; a {@code String} is made only for an error message;</li>
 *   <li>{@code ph}, {@code name}, {@code cat}, {@code pid}, {@code tid} repeat across events and come
 *       from a {@link TextCache};</li>
 *   <li>of {@code args}, only the keys the reader uses are kept ({@code argName} ...); other values
 *       are skipped without being turned into text.</li>
 * </ul>
 * {@link ByteEventFields} fills the same fields from UTF-8 bytes (the fast path): keep the two in step.
 */
final class EventFields {
    String ph;
    String name;
    String cat;
    String pid;
    String tid;
    final Slice ts = new Slice();
    final Slice dur = new Slice();
    final Slice id = new Slice();
    /** {@code args}: only the keys the reader looks at (metadata names, task type, HCCL fields). */
    String argName;
    String argLabels;
    String argTaskType;
    String argStreamId;
    String argCount;
    String argDataType;
    /** {@code process_sort_index} metadata's {@code sort_index}: it checks a pid's encoding (TimelineCollector). */
    String argSortIndex;
    private final TextCache cache = new TextCache();

    /**
     * The fields of one event in one small object: what the parallel scan keeps of each event
     * until it is replayed (a chunk holds ~100,000), so a few words and no slice objects. A slice
     * whose value is known keeps no text. What most events lack (most args, texts) is in a
     * {@link Rare} object, present only when some of it is.
     */
    static final class Packed {
        private static final int TS = 1;
        private static final int TS_KNOWN = 2;
        private static final int DUR = 4;
        private static final int DUR_KNOWN = 8;
        private static final int ID_KNOWN = 16;

        private final String ph;
        private final String name;
        private final String cat;
        private final String pid;
        private final String tid;
        private final String argTaskType;
        private final long ts;
        private final long dur;
        private final long id;
        private final int flags;
        private final Rare rare;

        private Packed(EventFields e) {
            ph = e.ph;
            name = e.name;
            cat = e.cat;
            pid = e.pid;
            tid = e.tid;
            argTaskType = e.argTaskType;
            ts = e.ts.value;
            dur = e.dur.value;
            id = e.id.value;
            flags = (e.ts.present ? TS : 0) | (e.ts.valueKnown ? TS_KNOWN : 0)
                    | (e.dur.present ? DUR : 0) | (e.dur.valueKnown ? DUR_KNOWN : 0)
                    | (e.id.present && e.id.valueKnown ? ID_KNOWN : 0);
            char[] tsText = e.ts.textToKeep();
            char[] durText = e.dur.textToKeep();
            char[] idText = e.id.textToKeep();
            rare = e.argName == null && e.argLabels == null && e.argStreamId == null && e.argCount == null
                    && e.argDataType == null && e.argSortIndex == null && tsText == null && durText == null
                    && idText == null ? null
                    : new Rare(e.argName, e.argLabels, e.argStreamId, e.argCount, e.argDataType, e.argSortIndex,
                    tsText, durText, idText);
        }
    }

    /** The fields of a {@link Packed} event that are usually absent. */
    private record Rare(String argName, String argLabels, String argStreamId, String argCount, String argDataType,
                        String argSortIndex, char[] tsText, char[] durText, char[] idText) {
        private static final Rare NONE = new Rare(null, null, null, null, null, null, null, null, null);
    }

    /** The fields as they are now, packed. */
    Packed pack() {
        return new Packed(this);
    }

    /** The fields as they were when {@code p} was packed. */
    void unpack(Packed p) {
        Rare r = p.rare == null ? Rare.NONE : p.rare;
        ph = p.ph;
        name = p.name;
        cat = p.cat;
        pid = p.pid;
        tid = p.tid;
        argName = r.argName();
        argLabels = r.argLabels();
        argTaskType = p.argTaskType;
        argStreamId = r.argStreamId();
        argCount = r.argCount();
        argDataType = r.argDataType();
        argSortIndex = r.argSortIndex();
        ts.unpack((p.flags & Packed.TS) != 0, (p.flags & Packed.TS_KNOWN) != 0, p.ts, r.tsText());
        dur.unpack((p.flags & Packed.DUR) != 0, (p.flags & Packed.DUR_KNOWN) != 0, p.dur, r.durText());
        boolean idKnown = (p.flags & Packed.ID_KNOWN) != 0;
        id.unpack(idKnown || r.idText() != null, idKnown, p.id, r.idText());
    }

    /** Every field absent: the state before an event's members are read. */
    void clear() {
        ph = name = cat = pid = tid = null;
        argName = argLabels = argTaskType = argStreamId = argCount = argDataType = argSortIndex = null;
        ts.clear();
        dur.clear();
        id.clear();
    }

    /** The characters of one number-like field: no {@code String} per event. */
    static final class Slice {
        char[] buf = new char[32];
        int len;
        boolean present;
        /**
         * What the reader makes of the text, when whoever set the slice made it already: the fast
         * path converts a time to nanoseconds ({@code DecimalMicros}) and a numeric flow id
         * ({@link FlowIndex#numericId}) straight from what it scanned. Else the reader converts
         * {@link #buf}. A slice with a known value may have no text (see {@link Packed}).
         */
        long value;
        boolean valueKnown;

        void clear() {
            present = false;
            valueKnown = false;
        }

        /** The text a packed copy needs: none when absent or when the value is known. */
        private char[] textToKeep() {
            return present && !valueKnown ? java.util.Arrays.copyOf(buf, len) : null;
        }

        private void unpack(boolean isPresent, boolean known, long v, char[] text) {
            present = isPresent;
            valueKnown = known;
            value = v;
            len = 0;
            if (text != null) {
                System.arraycopy(text, 0, room(text.length), 0, text.length);
                len = text.length;
            }
        }

        /** Room for {@code n} characters in {@link #buf} (its text is then set by the caller). */
        char[] room(int n) {
            if (n > buf.length) {
                buf = new char[Math.max(n, buf.length * 2)];
            }
            return buf;
        }

        void set(JsonParser p) throws IOException {
            int n = p.getTextLength();
            System.arraycopy(p.getTextCharacters(), p.getTextOffset(), room(n), 0, n);
            len = n;
            present = true;
            valueKnown = false;
        }

        /** The text, or {@code null} when absent (for messages). */
        String text() {
            return present ? new String(buf, 0, len) : null;
        }
    }

    /** Reads the object whose START_OBJECT is the current token. */
    void read(JsonParser p) throws IOException {
        clear();
        for (JsonToken t = p.nextToken(); t != JsonToken.END_OBJECT; t = p.nextToken()) {
            if (t == null) {
                throw new java.io.EOFException("end of input inside an event");
            }
            String key = p.currentName();
            JsonToken v = p.nextToken();
            if (v == null) {
                throw new java.io.EOFException("end of input inside an event");
            }
            if ("args".equals(key) && v == JsonToken.START_OBJECT) {
                readArgs(p);
                continue;
            }
            if (v.isStructStart()) {
                p.skipChildren();
                continue;
            }
            if (v == JsonToken.VALUE_NULL) {
                continue; // a null field reads as absent
            }
            switch (key) {
                case "ph" -> ph = cache.text(p);
                case "name" -> name = cache.text(p);
                case "cat" -> cat = cache.text(p);
                case "pid" -> pid = cache.text(p);
                case "tid" -> tid = cache.text(p);
                case "ts" -> ts.set(p);
                case "dur" -> dur.set(p);
                case "id" -> id.set(p);
                default -> { }
            }
        }
    }

    private String arg(JsonParser p, JsonToken v) throws IOException {
        return v == JsonToken.VALUE_NULL ? null : cache.text(p);
    }

    private void readArgs(JsonParser p) throws IOException {
        for (JsonToken t = p.nextToken(); t != JsonToken.END_OBJECT; t = p.nextToken()) {
            if (t == null) {
                throw new java.io.EOFException("end of input inside args");
            }
            String key = p.currentName();
            JsonToken v = p.nextToken();
            if (v == null) {
                throw new java.io.EOFException("end of input inside args");
            }
            if (v.isStructStart()) {
                p.skipChildren();
                continue;
            }
            switch (key) {
                case "name" -> argName = arg(p, v);
                case "labels" -> argLabels = arg(p, v);
                case "Task Type" -> argTaskType = arg(p, v);
                case "stream id" -> argStreamId = arg(p, v);
                case "count" -> argCount = arg(p, v);
                case "data_type" -> argDataType = arg(p, v);
                case "sort_index" -> argSortIndex = arg(p, v);
                default -> { }
            }
        }
    }
}
