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
    private final TextCache cache = new TextCache();

    /** The characters of one number-like field: no {@code String} per event. */
    static final class Slice {
        char[] buf = new char[32];
        int len;
        boolean present;

        void set(JsonParser p) throws IOException {
            int n = p.getTextLength();
            if (n > buf.length) {
                buf = new char[Math.max(n, buf.length * 2)];
            }
            System.arraycopy(p.getTextCharacters(), p.getTextOffset(), buf, 0, n);
            len = n;
            present = true;
        }

        /** The text, or {@code null} when absent (for messages). */
        String text() {
            return present ? new String(buf, 0, len) : null;
        }
    }

    /** Reads the object whose START_OBJECT is the current token. */
    void read(JsonParser p) throws IOException {
        ph = name = cat = pid = tid = null;
        argName = argLabels = argTaskType = argStreamId = argCount = argDataType = null;
        ts.present = false;
        dur.present = false;
        id.present = false;
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
                default -> { }
            }
        }
    }
}
