package io.overlapanalyze.formats.input;

import io.overlapanalyze.model.RankTrace;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/** Reads one input (file or directory) of one format into rank traces. */
public interface TraceReader {
    /**
     * Reads the input. A file may hold several ranks (an Nsight export of a torchrun job).
     *
     * @throws TraceFormatException when the input is not a readable trace of this format
     * @throws IOException          when the file cannot be read at all
     */
    List<RankTrace> read(Path input) throws TraceFormatException, IOException;
}
