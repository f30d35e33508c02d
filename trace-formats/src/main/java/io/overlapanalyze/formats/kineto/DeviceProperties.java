package io.overlapanalyze.formats.kineto;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.overlapanalyze.model.RankTrace;

import java.io.EOFException;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;

/**
 * The trace's top-level {@code deviceProperties} array (kineto.md): one object per device of the
 * machine, {@code id} its index (the {@code pid} of its device events) and {@code name} its model
 * ("NVIDIA A100-SXM4-80GB"). Optional metadata: any other shape, or an entry without an integer id
 * or a text name, is left out, never a failure of the file.
 */
final class DeviceProperties {
    private DeviceProperties() {
    }

    /** Device index → model name, from the value at the current token; empty when it lists none. */
    static Map<Integer, String> read(JsonParser p) throws IOException {
        Map<Integer, String> names = new HashMap<>();
        if (p.currentToken() != JsonToken.START_ARRAY) {
            p.skipChildren(); // null, an object, a scalar: nothing to take
            return names;
        }
        for (JsonToken e = p.nextToken(); e != JsonToken.END_ARRAY; e = p.nextToken()) {
            if (e == null) {
                throw new EOFException("end of input inside deviceProperties");
            }
            if (e != JsonToken.START_OBJECT) {
                p.skipChildren();
                continue;
            }
            long id = JsonValues.NONE;
            String name = null;
            for (JsonToken f = p.nextToken(); f != JsonToken.END_OBJECT; f = p.nextToken()) {
                if (f == null) {
                    throw new EOFException("end of input inside deviceProperties");
                }
                String key = p.currentName();
                JsonToken v = p.nextToken();
                if ("id".equals(key)) {
                    id = JsonValues.lenientLong(p);
                } else if ("name".equals(key) && v == JsonToken.VALUE_STRING) {
                    name = p.getText();
                } else {
                    p.skipChildren();
                }
            }
            if (id != JsonValues.NONE && id >= Integer.MIN_VALUE && id <= Integer.MAX_VALUE && name != null) {
                names.put((int) id, name);
            }
        }
        return RankTrace.deviceNames(names);
    }
}
