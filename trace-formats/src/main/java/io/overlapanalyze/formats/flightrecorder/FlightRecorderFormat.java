package io.overlapanalyze.formats.flightrecorder;

import io.overlapanalyze.formats.input.FormatDetector;
import io.overlapanalyze.formats.input.FormatReader;
import io.overlapanalyze.formats.input.ReadOptions;
import io.overlapanalyze.formats.input.SniffedInput;
import io.overlapanalyze.formats.input.TraceFormatException;
import io.overlapanalyze.model.RankTrace;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * PyTorch Flight Recorder dumps ({@code TORCH_NCCL_DUMP_ON_TIMEOUT}): one file per rank, named
 * {@code <prefix><rank>}, a pickle (protocol 2) of a dict, or the same dict as JSON. Recognised by
 * content: the pickle header with the dump's keys in its head, or a JSON object whose head has
 * {@code entries}, {@code pg_config} or {@code pg_status} and none of Kineto's {@code traceEvents},
 * {@code schemaVersion}, {@code distributedInfo}. Asked before the Kineto reader, which takes any
 * other JSON object.
 */
public final class FlightRecorderFormat implements FormatReader {
    private static final java.util.regex.Pattern NAME =
            java.util.regex.Pattern.compile("(?i).*(trace|dump)\\D*\\d{1,7}(\\.json)?");

    @Override
    public boolean acceptsFileName(String fileName) {
        // <prefix><rank>: PyTorch's default prefix is nccl_trace_rank_, NVIDIA's tooling writes _dump_<rank>.
        // Only such prefixes are walked (a directory's other digit-ending files are not dumps); a dump
        // named otherwise is read when given by name (the content decides).
        return NAME.matcher(fileName).matches();
    }

    @Override
    public String formatName() {
        return "a PyTorch Flight Recorder dump (pickle or JSON)";
    }

    @Override
    public String inputNames() {
        return "Flight Recorder *trace*<rank>, *dump*<rank>";
    }

    @Override
    public boolean recognises(SniffedInput input) throws IOException {
        if (input.content() == FormatDetector.Content.JSON_OBJECT) { // a pickle starts with 0x80, not '{'
            String text = input.headLatin1();
            // nlohmann::json writes keys sorted: "entries" (maybe megabytes) before "version", so the head
            // may hold no "version"; a Kineto trace names traceEvents, schemaVersion or distributedInfo
            // (whose own pg_config must not make it a dump). Those first: a Kineto trace names one early.
            return !text.contains("\"schemaVersion\"") && !text.contains("\"distributedInfo\"")
                    && !text.contains("\"traceEvents\"")
                    && (text.contains("\"entries\"") || text.contains("\"pg_config\"") || text.contains("\"pg_status\""));
        }
        byte[] head = input.head();
        if (head.length >= 3 && (head[0] & 0xff) == 0x80 && head[1] >= 2 && head[1] <= 5) {
            String text = new String(head, StandardCharsets.ISO_8859_1);
            return text.contains("version") && (text.contains("entries") || text.contains("pg_config"));
        }
        return false;
    }

    @Override
    public List<RankTrace> read(SniffedInput input, ReadOptions options) throws TraceFormatException, IOException {
        return List.of(new FlightRecorderReader(options.limits()).read(input.path()));
    }
}
