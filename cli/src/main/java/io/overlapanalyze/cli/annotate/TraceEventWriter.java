package io.overlapanalyze.cli.annotate;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;

import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Map;

/**
 * Streams Chrome-trace JSON ({@code {"traceEvents": [...], "otherData": {...}}}) with Jackson:
 * metadata, complete slices ({@code ph "X"}) and thread-scoped instants ({@code ph "i"}). Times go
 * in as ns on the rank's own clock, have the rank's clock offset ({@link #shift}) subtracted, and
 * come out as exact µs text ({@link Micros}); nothing is buffered per event. Every string goes
 * through Jackson's JSON escaping.
 */
final class TraceEventWriter implements Closeable {
    private final JsonGenerator g;
    private final Map<String, ?> otherData;
    /** Subtracted from every time written: the clock offset of the rank being written. */
    private long shiftNs;

    /**
     * @param otherData the trace's metadata (Chrome's "Metadata" view; Perfetto keeps it in the
     *                  trace's info), written last; strings, numbers, booleans and nested maps
     */
    TraceEventWriter(OutputStream out, Map<String, ?> otherData) throws IOException {
        this.otherData = otherData;
        g = new JsonFactory().createGenerator(out, JsonEncoding.UTF8);
        g.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
        g.writeStartObject();
        g.writeStringField("displayTimeUnit", "ns");
        g.writeArrayFieldStart("traceEvents");
    }

    /** From now on, times are written minus {@code offsetNs} (the next rank's clock offset). */
    void shift(long offsetNs) {
        shiftNs = offsetNs;
    }

    /** Perfetto shows a process's labels beside its name. */
    void processLabels(int pid, String labels) throws IOException {
        meta(pid, null, "process_labels", "labels", labels);
    }

    void processName(int pid, String name, int sortIndex) throws IOException {
        meta(pid, null, "process_name", "name", name);
        meta(pid, null, "process_sort_index", "sort_index", sortIndex);
    }

    void threadName(int pid, int tid, String name) throws IOException {
        meta(pid, tid, "thread_name", "name", name);
        meta(pid, tid, "thread_sort_index", "sort_index", tid);
    }

    private void meta(int pid, Integer tid, String what, String key, Object value) throws IOException {
        g.writeStartObject();
        g.writeStringField("ph", "M");
        g.writeNumberField("pid", pid);
        if (tid != null) {
            g.writeNumberField("tid", tid);
        }
        g.writeStringField("name", what);
        g.writeObjectFieldStart("args");
        if (value instanceof Integer i) {
            g.writeNumberField(key, i);
        } else {
            g.writeStringField(key, String.valueOf(value));
        }
        g.writeEndObject();
        g.writeEndObject();
    }

    void slice(int pid, int tid, long startNs, long endNs, String name, String cat, Map<String, ?> args)
            throws IOException {
        g.writeStartObject();
        g.writeStringField("ph", "X");
        common(pid, tid, startNs, name, cat);
        g.writeFieldName("dur");
        g.writeNumber(Micros.of(Math.max(0, endNs - startNs)));
        args(args);
        g.writeEndObject();
    }

    void instant(int pid, int tid, long ns, String name, String cat, Map<String, ?> args) throws IOException {
        g.writeStartObject();
        g.writeStringField("ph", "i");
        g.writeStringField("s", "t");
        common(pid, tid, ns, name, cat);
        args(args);
        g.writeEndObject();
    }

    private void common(int pid, int tid, long ns, String name, String cat) throws IOException {
        g.writeNumberField("pid", pid);
        g.writeNumberField("tid", tid);
        g.writeFieldName("ts");
        g.writeNumber(Micros.of(ns - shiftNs));
        g.writeStringField("name", name);
        g.writeStringField("cat", cat);
    }

    private void args(Map<String, ?> args) throws IOException {
        if (args == null || args.isEmpty()) {
            return;
        }
        g.writeFieldName("args");
        object(args);
    }

    /** A map as a JSON object; {@code null} values are left out. */
    private void object(Map<?, ?> map) throws IOException {
        g.writeStartObject();
        for (Map.Entry<?, ?> e : map.entrySet()) {
            Object v = e.getValue();
            if (v == null) {
                continue;
            }
            String key = String.valueOf(e.getKey());
            if (v instanceof Long l) {
                g.writeNumberField(key, l);
            } else if (v instanceof Integer i) {
                g.writeNumberField(key, i);
            } else if (v instanceof Boolean b) {
                g.writeBooleanField(key, b);
            } else if (v instanceof Map<?, ?> m) {
                g.writeFieldName(key);
                object(m);
            } else {
                g.writeStringField(key, v.toString());
            }
        }
        g.writeEndObject();
    }

    /** Ends the array, writes the metadata and ends the object; the stream stays open (the caller owns it). */
    @Override
    public void close() throws IOException {
        g.writeEndArray();
        if (otherData != null && !otherData.isEmpty()) {
            g.writeFieldName("otherData");
            object(otherData);
        }
        g.writeEndObject();
        g.close();
    }
}
