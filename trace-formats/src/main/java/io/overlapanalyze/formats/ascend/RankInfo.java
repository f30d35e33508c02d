package io.overlapanalyze.formats.ascend;

import io.overlapanalyze.model.RankSource;

/**
 * A rank id and where it came from ({@code profiler_info_<rank>.json}, {@code info.json.<n>}, the
 * DB), and what was wrong with the metadata when the id is a fallback ({@code null}: nothing).
 */
record RankInfo(int rank, RankSource source, String warning) {
    static final RankInfo UNKNOWN = new RankInfo(0, RankSource.DEFAULT);

    RankInfo(int rank, RankSource source) {
        this(rank, source, null);
    }

    RankInfo withWarning(String why) {
        return new RankInfo(rank, source, why);
    }
}
