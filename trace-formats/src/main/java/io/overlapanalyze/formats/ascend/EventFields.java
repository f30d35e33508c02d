package io.overlapanalyze.formats.ascend;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;

import java.io.IOException;
import java.util.HashMap;
import java.util.Map;

/**
 * The fields of one timeline event that the reader uses, as text, so that numbers keep their
 * exact decimal digits ({@code ts} strings of epoch µs, {@code dur} with sub-ns digits, flow ids
 * above 2⁵³) and never pass through {@code double}. Reused for every event (no object per event
 * beyond the args map).
 */
final class EventFields {
    String ph;
    String name;
    String cat;
    String pid;
    String tid;
    String ts;
    String dur;
    String id;
    final Map<String, String> args = new HashMap<>();

    /** Reads the object whose START_OBJECT is the current token. */
    void read(JsonParser p) throws IOException {
        ph = name = cat = pid = tid = ts = dur = id = null;
        args.clear();
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
            String text = scalar(p, v);
            switch (key) {
                case "ph" -> ph = text;
                case "name" -> name = text;
                case "cat" -> cat = text;
                case "pid" -> pid = text;
                case "tid" -> tid = text;
                case "ts" -> ts = text;
                case "dur" -> dur = text;
                case "id" -> id = text;
                default -> { }
            }
        }
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
            } else {
                args.put(key, scalar(p, v));
            }
        }
    }

    private static String scalar(JsonParser p, JsonToken v) throws IOException {
        return v == JsonToken.VALUE_NULL ? null : p.getText();
    }
}
