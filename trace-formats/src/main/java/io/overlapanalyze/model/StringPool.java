package io.overlapanalyze.model;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Interns names to small ints so that millions of device intervals share a few thousand strings.
 * Not thread-safe: each reader owns one pool per rank.
 */
public final class StringPool {
    private final Map<String, Integer> ids = new HashMap<>();
    private final List<String> values = new ArrayList<>();

    public int intern(String s) {
        Integer id = ids.get(s);
        if (id != null) {
            return id;
        }
        int next = values.size();
        values.add(s);
        ids.put(s, next);
        return next;
    }

    public String get(int id) {
        return values.get(id);
    }

    public int size() {
        return values.size();
    }
}
