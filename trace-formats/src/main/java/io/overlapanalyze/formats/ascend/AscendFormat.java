package io.overlapanalyze.formats.ascend;

import io.overlapanalyze.formats.input.FormatDetector;
import io.overlapanalyze.formats.input.FormatReader;
import io.overlapanalyze.formats.input.ReadOptions;
import io.overlapanalyze.formats.input.SniffedInput;
import io.overlapanalyze.formats.input.TraceFormatException;
import io.overlapanalyze.model.RankTrace;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

/**
 * Ascend captures: a capture directory ({@code *_ascend_pt}, {@code PROF_*}; its loose JSON files
 * are not traces), a bare JSON array (a timeline: {@code trace_view.json}, {@code msprof_*.json}),
 * or an SQLite database whose tables say Ascend.
 */
public final class AscendFormat implements FormatReader {
    private static final String NOT_A_TIMELINE = ": not an Ascend timeline: ";
    /** An array is said to be empty when its first bytes are "[]" with white space at most. */
    private static final int EMPTY_CHECK_BYTES = 256;

    @Override
    public String formatName() {
        return "an Ascend profiler capture directory, timeline JSON or database";
    }

    @Override
    public String inputNames() {
        return "Ascend *_ascend_pt or PROF_* directories";
    }

    @Override
    public boolean isInputDirectory(Path dir) {
        return AscendReader.isCaptureDirectory(dir);
    }

    @Override
    public boolean recognises(SniffedInput input) {
        return switch (input.content()) {
            case DIRECTORY -> AscendReader.isCaptureDirectory(input.path());
            case JSON_ARRAY -> true;
            case SQLITE -> AscendReader.isAscendDatabase(input.path());
            default -> false;
        };
    }

    @Override
    public List<RankTrace> read(SniffedInput input, ReadOptions options) throws TraceFormatException, IOException {
        return new AscendReader(options.rules(), options.limits()).read(input);
    }

    /** Bare arrays are taken for Ascend timelines; one that is not is said to be what it is. */
    @Override
    public TraceFormatException explain(SniffedInput input, TraceFormatException oneLine) {
        return input.content() == FormatDetector.Content.JSON_ARRAY ? bareArray(input, oneLine) : oneLine;
    }

    /**
     * A bare JSON array that is not an Ascend timeline: said as what it is (an array of events
     * without Ascend's metadata, or an empty one), and what the other JSON format looks like, since
     * "not an Ascend timeline" alone reads as if the tool took it for one.
     */
    private static TraceFormatException bareArray(SniffedInput input, TraceFormatException e) {
        String m = e.getMessage();
        int at = m.indexOf(NOT_A_TIMELINE);
        if (at < 0) {
            return e;
        }
        Path file = input.path();
        byte[] head = input.head();
        String start = new String(head, 0, Math.min(head.length, EMPTY_CHECK_BYTES), StandardCharsets.UTF_8)
                .replaceAll("\\s+", "");
        if (start.equals("[]")) {
            return new TraceFormatException(file + ": an empty JSON array: no trace events", e);
        }
        return new TraceFormatException(file + ": a JSON array of events that is not an Ascend timeline ("
                + m.substring(at + NOT_A_TIMELINE.length()) + "), nor a PyTorch profiler trace (a JSON object with "
                + "\"traceEvents\")", e);
    }
}
