package io.overlapanalyze.formats.ascend;

import io.overlapanalyze.model.RankSource;

/** A rank id and where it came from ({@code profiler_info_<rank>.json}, {@code info.json.<n>}, the DB). */
record RankInfo(int rank, RankSource source) {
    static final RankInfo UNKNOWN = new RankInfo(0, RankSource.DEFAULT);
}
