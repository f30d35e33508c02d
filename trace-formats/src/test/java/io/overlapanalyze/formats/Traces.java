package io.overlapanalyze.formats;

import io.overlapanalyze.formats.input.TraceFormatException;
import io.overlapanalyze.model.RankTrace;

import java.nio.file.Path;
import java.util.List;

/** The tests' reading through the front door with the default options; a failure to read fails the test. */
final class Traces {
    private Traces() {
    }

    static List<RankTrace> load(Path input) {
        try {
            return TraceFormats.standard().read(input);
        } catch (TraceFormatException e) {
            throw new AssertionError(e.getMessage(), e);
        }
    }
}
