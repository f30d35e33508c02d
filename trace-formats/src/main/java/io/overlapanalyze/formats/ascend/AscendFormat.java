package io.overlapanalyze.formats.ascend;

import io.overlapanalyze.formats.input.FormatDetector;
import io.overlapanalyze.formats.input.FormatReader;
import io.overlapanalyze.formats.input.Messages;
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
        if (input.content() != FormatDetector.Content.JSON_ARRAY) {
            return new AscendReader().read(input.path());
        }
        // Bare arrays are Ascend timelines; the reader says so in one line when the array is something else.
        try {
            return new AscendReader().read(input.path());
        } catch (TraceFormatException e) {
            throw bareArray(input, e);
        }
    }

    /**
     * A bare JSON array that is not an Ascend timeline: said as what it is (an array of events
     * without Ascend's metadata, or an empty one), and what the other JSON format looks like, since
     * "not an Ascend timeline" alone reads as if the tool took it for one.
     */
    private static TraceFormatException bareArray(SniffedInput input, TraceFormatException e) {
        String m = Messages.oneLine(e);
        int at = m.indexOf(NOT_A_TIMELINE);
        if (at < 0) {
            return e;
        }
        Path file = input.path();
        String start = new String(input.head(), StandardCharsets.UTF_8).replaceAll("\\s+", "");
        if (start.equals("[]")) {
            return new TraceFormatException(file + ": an empty JSON array: no trace events", e);
        }
        return new TraceFormatException(file + ": a JSON array of events that is not an Ascend timeline ("
                + m.substring(at + NOT_A_TIMELINE.length()) + "), nor a PyTorch profiler trace (a JSON object with "
                + "\"traceEvents\")", e);
    }
}
