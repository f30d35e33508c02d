package io.overlapanalyze.formats.nsys;

import io.overlapanalyze.model.DeviceKind;
import io.overlapanalyze.primitives.LongIntMap;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Interval names and kinds of buffered device rows, each distinct (name, kind) once: a buffered row
 * holds only an {@code int} reference. Kernel names are keyed by their {@code StringIds} id in a
 * primitive map, so the per-row lookup neither boxes nor hashes a string.
 */
final class RowNames {
    private final List<String> names = new ArrayList<>();
    private final List<DeviceKind> kinds = new ArrayList<>();
    private final Map<String, Integer> byName = new HashMap<>();
    private final LongIntMap byStringId = new LongIntMap();

    /** The reference of (name, kind), added if new. */
    int ref(String name, DeviceKind kind) {
        String key = kind.ordinal() + "\u0000" + name;
        Integer r = byName.get(key);
        if (r == null) {
            r = names.size();
            names.add(name);
            kinds.add(kind);
            byName.put(key, r);
        }
        return r;
    }

    /** The reference cached for a kernel name's string id, or -1. */
    int kernel(long stringId) {
        return byStringId.get(stringId);
    }

    void cacheKernel(long stringId, int ref) {
        byStringId.put(stringId, ref);
    }

    String name(int ref) {
        return names.get(ref);
    }

    DeviceKind kind(int ref) {
        return kinds.get(ref);
    }
}
