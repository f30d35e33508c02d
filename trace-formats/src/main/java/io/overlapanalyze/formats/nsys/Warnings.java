package io.overlapanalyze.formats.nsys;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Reader warnings by kind: the first example and a count, so a million bad rows give one line. */
final class Warnings {
    private static final class Entry {
        final String first;
        long count;

        Entry(String first) {
            this.first = first;
        }
    }

    private final Map<String, Entry> byKind = new LinkedHashMap<>();

    void add(String kind, String detail) {
        byKind.computeIfAbsent(kind, k -> new Entry(detail)).count++;
    }

    /** {@code count} occurrences at once; {@code detail} is the first one's. */
    void add(String kind, String detail, long count) {
        byKind.computeIfAbsent(kind, k -> new Entry(detail)).count += count;
    }

    void add(String line) {
        add(line, "");
    }

    List<String> lines() {
        List<String> out = new ArrayList<>();
        for (Map.Entry<String, Entry> e : byKind.entrySet()) {
            Entry v = e.getValue();
            String detail = v.first == null ? "" : v.first;
            if (v.count == 1) {
                out.add(detail.isEmpty() ? e.getKey() : e.getKey() + ": " + detail);
            } else {
                out.add(e.getKey() + ": " + v.count + " times" + (detail.isEmpty() ? "" : " (first: " + detail + ")"));
            }
        }
        return out;
    }
}
