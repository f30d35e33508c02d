package io.overlapanalyze.analysis.rank;

import io.overlapanalyze.formats.TraceFormats;
import io.overlapanalyze.formats.input.TraceFormatException;
import io.overlapanalyze.model.RankTrace;

import java.nio.file.Path;
import java.util.List;

/** The tests' reading through the front door with the default options; a failure to read fails the test. */
final class Traces {
    private Traces() {
    }

    /** One input's rank traces. */
    static List<RankTrace> load(Path input) {
        try {
            return TraceFormats.standard().read(input);
        } catch (TraceFormatException e) {
            throw new AssertionError(e.getMessage(), e);
        }
    }

    /** Every path expanded and read, in order. */
    static List<RankTrace> loadAll(List<Path> paths) {
        List<RankTrace> all = new java.util.ArrayList<>();
        for (Path p : paths) {
            try {
                for (Path f : TraceFormats.standard().expand(p)) {
                    all.addAll(TraceFormats.standard().read(f));
                }
            } catch (TraceFormatException e) {
                throw new AssertionError(e.getMessage(), e);
            }
        }
        return all;
    }
}
