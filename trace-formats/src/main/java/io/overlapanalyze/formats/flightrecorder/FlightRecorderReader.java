package io.overlapanalyze.formats.flightrecorder;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.overlapanalyze.formats.input.InputLimits;
import io.overlapanalyze.formats.input.InputStreams;
import io.overlapanalyze.formats.input.Messages;
import io.overlapanalyze.formats.input.TraceFormatException;
import io.overlapanalyze.model.RankTrace;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.Map;

/**
 * Reads one Flight Recorder dump, pickle or JSON, into a rank trace. The pickle goes through
 * {@link PlainUnpickler} (plain values only: a dump is untrusted input); the JSON through Jackson
 * into plain maps and lists. Both become the same value tree, which {@link DumpDecoder} reads.
 */
public final class FlightRecorderReader {
    /**
     * A dump holds at most {@code TORCH_NCCL_TRACE_BUFFER_SIZE} entries (2,000 by default, a few
     * hundred bytes each): 256 MiB is far above any real dump and keeps a hostile file from costing
     * more memory than that.
     */
    static final long MAX_DUMP_BYTES = 256L << 20;

    private static final int MAX_JSON_DEPTH = 64;

    /** What a dump may decompress to besides {@link #MAX_DUMP_BYTES}: the run's limits, passed in. */
    private final InputLimits limits;

    /** A reader under the default limits (tests and tools). */
    public FlightRecorderReader() {
        this(InputLimits.DEFAULT);
    }

    /** A reader under the run's input limits ({@code --max-input-size}, {@code --max-ratio}). */
    public FlightRecorderReader(InputLimits limits) {
        this.limits = limits;
    }

    /** Reads the dump at {@code file}. */
    public RankTrace read(Path file) throws TraceFormatException, IOException {
        byte[] bytes = readBounded(file, limits);
        Object tree = isPickle(bytes) ? unpickle(file, bytes) : parseJson(file, bytes);
        return new DumpDecoder(file).decode(tree);
    }

    private static boolean isPickle(byte[] bytes) {
        return bytes.length >= 2 && (bytes[0] & 0xff) == 0x80;
    }

    private static Object unpickle(Path file, byte[] bytes) throws TraceFormatException {
        PlainUnpickler unpickler = new PlainUnpickler();
        try {
            return unpickler.loads(bytes);
        } catch (PlainUnpickler.RefusedOpcode e) {
            throw new TraceFormatException(file + ": refused: the pickle asks for " + e.getMessage()
                    + "; a Flight Recorder dump holds only plain values, and nothing in an input is ever run");
        } catch (IOException | RuntimeException e) {
            throw new TraceFormatException(file + ": not a readable pickle: " + Messages.oneLine(e), e);
        } catch (StackOverflowError e) {
            // Pyrolite is iterative, but hashing a list used as a dict key recurses through its nesting.
            throw new TraceFormatException(file + ": not a readable pickle: nested too deep for a dump");
        } finally {
            unpickler.close();
        }
    }

    private static Object parseJson(Path file, byte[] bytes) throws TraceFormatException {
        // A dump nests a few levels deep; a deeper document is no dump and must not cost a deep recursion.
        JsonFactory factory = JsonFactory.builder().streamReadConstraints(
                StreamReadConstraints.builder().maxNestingDepth(MAX_JSON_DEPTH).build()).build();
        try {
            return new ObjectMapper(factory).readValue(bytes, Map.class);
        } catch (JsonProcessingException e) {
            var loc = e.getLocation();
            throw new TraceFormatException(file + ": not readable JSON: " + io.overlapanalyze.formats.input.JsonProblem.describe(e)
                    + (loc != null && loc.getLineNr() > 0 ? " (line " + loc.getLineNr() + ", column " + loc.getColumnNr() + ")"
                    : ""), e);
        } catch (IOException e) {
            throw new TraceFormatException(file + ": cannot read: " + Messages.oneLine(e), e);
        }
    }

    private static byte[] readBounded(Path file, InputLimits limits) throws IOException, TraceFormatException {
        long limit = Math.min(MAX_DUMP_BYTES, limits.maxDecompressedBytes());
        try (InputStream in = InputStreams.open(file, limits)) {
            byte[] bytes = in.readNBytes((int) Math.min(Integer.MAX_VALUE - 8, limit + 1));
            if (bytes.length > limit) {
                throw new TraceFormatException(file + ": over " + limit + " bytes, more than any Flight Recorder "
                        + "dump holds");
            }
            return bytes;
        }
    }
}
