package io.overlapanalyze.model;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Interns names to small ints so that millions of device intervals share a few thousand strings.
 * Not thread-safe: each reader owns one pool per rank.
 *
 * <p>Part of the model, not a reader's cache: the codes are stored in {@link DeviceIntervals}'
 * name column and stay valid for the model's lifetime, so the pool is unbounded and never drops a
 * name. The Ascend reader's {@code TextCache} does a different job (it turns the JSON parser's
 * characters into a shared {@code String} before a name is known, bounded, no codes), and its
 * output is what this pool is then given.
 */
public final class StringPool {
    private static final int RECENT = 256;
    private final Map<String, Integer> ids = new HashMap<>();
    private final List<String> values = new ArrayList<>();
    /**
     * The last strings interned, by hash, compared by identity: the readers hand over the same
     * instance for the same name (their name tables intern), and names repeat, so most calls
     * end here without a map lookup.
     */
    private final String[] recent = new String[RECENT];
    private final int[] recentIds = new int[RECENT];

    public int intern(String s) {
        int slot = s == null ? 0 : s.hashCode() & (RECENT - 1);
        if (s != null && recent[slot] == s) {
            return recentIds[slot];
        }
        Integer id = ids.get(s);
        if (id == null) {
            id = values.size();
            values.add(s);
            ids.put(s, id);
        }
        if (s != null) {
            recent[slot] = s;
            recentIds[slot] = id;
        }
        return id;
    }

    public String get(int id) {
        return values.get(id);
    }

    public int size() {
        return values.size();
    }
}
