package io.overlapanalyze.cli.annotate;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;

import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Map;

/**
 * Streams Chrome-trace JSON ({@code {"traceEvents": [...]}}) with Jackson: metadata, complete
 * slices ({@code ph "X"}) and thread-scoped instants ({@code ph "i"}). Times go in as ns and come
 * out as exact µs text ({@link Micros}); nothing is buffered per event.
 */
final class TraceEventWriter implements Closeable {
    private final JsonGenerator g;

    TraceEventWriter(OutputStream out) throws IOException {
        g = new JsonFactory().createGenerator(out, JsonEncoding.UTF8);
        g.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
        g.writeStartObject();
        g.writeStringField("displayTimeUnit", "ns");
        g.writeArrayFieldStart("traceEvents");
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
        g.writeNumber(Micros.of(ns));
        g.writeStringField("name", name);
        g.writeStringField("cat", cat);
    }

    private void args(Map<String, ?> args) throws IOException {
        if (args == null || args.isEmpty()) {
            return;
        }
        g.writeObjectFieldStart("args");
        for (Map.Entry<String, ?> e : args.entrySet()) {
            Object v = e.getValue();
            if (v == null) {
                continue;
            }
            if (v instanceof Long l) {
                g.writeNumberField(e.getKey(), l);
            } else if (v instanceof Integer i) {
                g.writeNumberField(e.getKey(), i);
            } else if (v instanceof Boolean b) {
                g.writeBooleanField(e.getKey(), b);
            } else {
                g.writeStringField(e.getKey(), v.toString());
            }
        }
        g.writeEndObject();
    }

    /** Ends the array and object; the stream stays open (the caller owns it). */
    @Override
    public void close() throws IOException {
        g.writeEndArray();
        g.writeEndObject();
        g.close();
    }
}
