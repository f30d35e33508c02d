package io.overlapanalyze.cli.annotate;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One slice before it is given a track: {@code [start, end)} on the rank's own clock.
 *
 * @param args written as the slice's args, in order; {@code null} values are left out
 */
record Slice(long start, long end, String name, String cat, Map<String, Object> args) {
    /** Args in the given order (key, value, key, value, …); {@code null} values are left out when written. */
    static Map<String, Object> args(Object... kv) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put((String) kv[i], kv[i + 1]);
        }
        return m;
    }
}
