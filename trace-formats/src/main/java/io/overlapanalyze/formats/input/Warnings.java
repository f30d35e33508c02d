package io.overlapanalyze.formats.input;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Collects reader warnings by kind, keeping the first example's text and a count, so that a trace
 * with a million bad events (or rows) yields one line, not a million, and says how many (a count of
 * rows is given even when it is one). Shared by the readers.
 */
public final class Warnings {
    private static final class Entry {
        final String first;
        long count;
        /** Added with a count of rows: the line says how many, even when it is one. */
        boolean counted;

        Entry(String first) {
            this.first = first;
        }
    }

    private final Map<String, Entry> byKind = new LinkedHashMap<>();

    /** Records one occurrence of {@code kind}; {@code detail} is kept for the first one only. */
    public void add(String kind, String detail) {
        byKind.computeIfAbsent(kind, k -> new Entry(detail)).count++;
    }

    /** {@code count} occurrences at once; {@code detail} is the first one's. */
    public void add(String kind, String detail, long count) {
        Entry e = byKind.computeIfAbsent(kind, k -> new Entry(detail));
        e.count += count;
        e.counted = true;
    }

    public void add(String line) {
        add(line, "");
    }

    /** One line per kind: {@code "kind: detail"} or {@code "kind: N times (first: detail)"}. */
    public List<String> lines() {
        List<String> out = new ArrayList<>();
        for (Map.Entry<String, Entry> e : byKind.entrySet()) {
            Entry v = e.getValue();
            String detail = v.first == null ? "" : v.first;
            if (v.count == 1 && v.counted) {
                out.add(e.getKey() + ": 1 row" + (detail.isEmpty() ? "" : " (" + detail + ")"));
            } else if (v.count == 1) {
                out.add(detail.isEmpty() ? e.getKey() : e.getKey() + ": " + detail);
            } else {
                out.add(e.getKey() + ": " + v.count + " times" + (detail.isEmpty() ? "" : " (first: " + detail + ")"));
            }
        }
        return out;
    }
}
