package io.overlapanalyze.cli.history;

import java.util.Map;
import java.util.TreeMap;

/**
 * One row of a run history: a run's saved summary and where it came from.
 *
 * @param id      the row's id, increasing in the order runs were appended ({@code null} before it is appended)
 * @param time    when it was appended, ISO-8601 UTC ("2026-12-02T22:18:17Z")
 * @param commit  the commit it ran on, or {@code null} when neither the command line nor the CI environment said
 * @param branch  the branch it ran on, or {@code null} likewise
 * @param labels  {@code --label k=v} given when it was appended, sorted by key
 * @param passed  whether the run counts as a passing run (a baseline for later gates)
 * @param summary the summary JSON exactly as {@code summary} writes it
 */
public record HistoryRun(Long id, String time, String commit, String branch, Map<String, String> labels,
                         boolean passed, String summary) {
    public HistoryRun {
        labels = java.util.Collections.unmodifiableMap(new TreeMap<>(labels));
    }

    /** What to call the run in messages: "runs.db, run 17". */
    public String source(String database) {
        return database + ", run " + id;
    }
}
