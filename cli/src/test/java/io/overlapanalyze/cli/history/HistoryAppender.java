package io.overlapanalyze.cli.history;

import io.overlapanalyze.cli.history.HistoryRun;
import io.overlapanalyze.cli.history.RunHistory;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * A separate writer process for {@link RunHistoryTest}: appends {@code count} runs to the history, each with its
 * own connection (as each CI job's {@code summary --history} would), labelled with the writer's name.
 * Arguments: DB SUMMARY_FILE WRITER COUNT.
 */
public final class HistoryAppender {
    private HistoryAppender() {
    }

    public static void main(String[] args) throws Exception {
        String summary = Files.readString(Path.of(args[1]));
        int count = Integer.parseInt(args[3]);
        for (int i = 0; i < count; i++) {
            RunHistory.append(args[0], new HistoryRun(null, "2026-12-02T00:00:00Z", null, "main",
                    Map.of("writer", args[2], "n", String.valueOf(i)), true, summary));
        }
    }
}
