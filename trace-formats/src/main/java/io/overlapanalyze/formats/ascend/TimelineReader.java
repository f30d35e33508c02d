package io.overlapanalyze.formats.ascend;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import io.overlapanalyze.formats.input.InputStreams;
import io.overlapanalyze.formats.input.TraceFormatException;
import io.overlapanalyze.formats.json.JsonReadStrategy;
import io.overlapanalyze.formats.json.ParallelArrayScan;
import io.overlapanalyze.formats.json.ParallelArrayScan.ElementParser;
import io.overlapanalyze.formats.json.ParallelArrayScan.Replay;
import io.overlapanalyze.formats.json.Utf8JsonScanner;
import io.overlapanalyze.formats.json.Utf8JsonScanner.Unsupported;
import io.overlapanalyze.model.RankTrace;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import io.overlapanalyze.formats.kernels.KernelRules;
import java.nio.file.Path;
import java.util.List;
import java.util.function.IntFunction;
import java.util.zip.ZipException;

import static io.overlapanalyze.formats.json.Utf8JsonScanner.ARRAY;
import static io.overlapanalyze.formats.json.Utf8JsonScanner.OBJECT;

/**
 * Reads an Ascend timeline ({@code trace_view.json}, {@code msprof_*.json}, or the slices of one
 * {@code msprof_slice_*}) into one {@link RankTrace} per device (ascend.md §3). This class decides
 * how the file is read and hands each event to a {@link TimelineCollector}, which holds what the
 * events mean and what of them is kept.
 *
 * <p>The file is a bare JSON array whose metadata ({@code process_name}, {@code thread_name}) may
 * come anywhere, and pids are encodings that differ by version, so lanes can only be resolved by
 * name once all metadata is known. Rather than buffer every event, the reader streams the input
 * twice: pass 1 keeps the metadata and finds where the JSON ends (truncation), pass 2 keeps only
 * the events it needs. Memory grows with device tasks, collectives and the few host ops it keeps,
 * not with the file.
 *
 * <p>Most files (torch_npu writes each process's metadata before its events) need only one pass:
 * the reader first tries a single pass that takes events as it meets them, and falls back to the two
 * passes when a metadata event arrives for a process whose events it has already taken, or when the
 * file has an error (so that errors are those of the two-pass read). Either way the model is the
 * same; the single pass halves the parsing.
 *
 * <p>Both reads have a fast path, as the Kineto reader has ({@link #readWithScanner}), chosen as
 * {@link JsonReadStrategy} says: the same
 * per-event logic ({@link TimelineCollector#take}, or metadata then events) fed by a byte scanner
 * ({@link ByteEventFields}) instead of Jackson, on several threads for a big plain file. It takes
 * on only well-formed files within the scanner's subset; for anything else (damage, truncation, a
 * bad value) it gives up and the Jackson path ({@link #readWithJackson}) reads the file as it
 * always did, so errors, truncation warnings and partial results are that path's. (The torch_npu
 * captures in shared/traces write the Python process's metadata after its first events: the fast
 * path's single pass stops at that metadata and its two passes read them.)
 */
final class TimelineReader {
    private static final JsonFactory FACTORY = JsonFactory.builder()
            .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
            .enable(JsonReadFeature.ALLOW_TRAILING_COMMA)
            .enable(JsonReadFeature.ALLOW_UNESCAPED_CONTROL_CHARS)
            .disable(StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION)
            .streamReadConstraints(io.overlapanalyze.formats.input.InputLimits.PARSER_CONSTRAINTS)
            .build();

    private final List<Path> parts;
    private final String source;
    private final IntFunction<RankInfo> rankOfDevice;
    private final KernelRules rules;
    /** What each part may decompress to: the run\'s limits, passed in. */
    private final io.overlapanalyze.formats.input.InputLimits limits;

    /** Per part, how many events pass 2 reads: all ({@code Long.MAX_VALUE}) or the complete ones of a damaged part. */
    private final long[] completeEvents;
    /** The one holder every event is read into, then handed to {@link #collector}. */
    private final EventFields e = new EventFields();
    /** What the events mean and what of them is kept; this reader only reads. */
    private final TimelineCollector collector;

    /** A reader of one timeline; each reader reads once ({@link #read}). */
    TimelineReader(List<Path> parts, String source, IntFunction<RankInfo> rankOfDevice, KernelRules rules,
                   io.overlapanalyze.formats.input.InputLimits limits) {
        this.parts = List.copyOf(parts);
        this.source = source;
        this.rankOfDevice = rankOfDevice;
        this.rules = rules;
        this.limits = limits;
        this.completeEvents = new long[parts.size()];
        this.collector = new TimelineCollector(this.parts, source, rankOfDevice, rules);
    }

    private TimelineReader fresh() {
        return new TimelineReader(parts, source, rankOfDevice, rules, limits);
    }

    /**
     * The fast path, then Jackson when it gives up (see {@link #readWithScanner}); {@code
     * -Doverlap.ascend.scanner=jackson} reads with the Jackson path only, {@code
     * -Doverlap.ascend.threads} sets the scan threads.
     */
    private static final JsonReadStrategy STRATEGY = JsonReadStrategy.of("ascend");

    List<RankTrace> read() throws TraceFormatException, IOException {
        return STRATEGY.read(this::readWithScanner, this::readWithJackson);
    }

    /**
     * The reference path: Jackson's token stream, one pass, else two. On an unused reader (it reads
     * into this one). Package-private for the parity test.
     */
    List<RankTrace> readWithJackson() throws TraceFormatException, IOException {
        try {
            if (onePass()) {
                collector.requireAscendLanes();
                return collector.build();
            }
        } catch (TraceFormatException ex) {
            // The two passes decide which error the file gives (a later part may be damaged).
        }
        return fresh().twoPasses();
    }

    /** Metadata of every part first, then the events: any file. */
    private List<RankTrace> twoPasses() throws TraceFormatException, IOException {
        for (int i = 0; i < parts.size(); i++) {
            scanMetadata(i);
        }
        collector.requireAscendLanes();
        for (int i = 0; i < parts.size(); i++) {
            collect(i);
        }
        return collector.build();
    }

    /**
     * The fast path: the single pass of {@link #readWithJackson} with a {@link Utf8JsonScanner} and
     * {@link ByteEventFields} in place of Jackson and {@link EventFields#read}, and the same
     * {@link TimelineCollector#take}; so the same model. When metadata comes after its process's events, the file is
     * read again in two passes, metadata then events, as {@link #twoPasses} does. {@link Unsupported}
     * for every file it does not take on: one outside the scanner's subset (which includes every
     * damaged or cut file), one that gives any {@link TraceFormatException}.
     * So it never words an error, warns or marks a trace truncated: the Jackson path does. A plain
     * single file of at least {@link ParallelArrayScan#MIN_FILE_BYTES} is scanned on several threads
     * ({@link ParallelArrayScan}) and its events replayed in file order, so that {@link TimelineCollector#take} sees
     * them as a sequential read would (metadata before events, the late-metadata check).
     * Reads with readers of its own: this one stays unused.
     */
    List<RankTrace> readWithScanner() throws IOException {
        int threads = STRATEGY.threads();
        return readWithScanner(parts.size() == 1 ? ParallelArrayScan.chunkBytesFor(parts.get(0), threads) : 0, threads);
    }

    /**
     * As {@link #readWithScanner()}; {@code chunkBytes} 0 reads on one thread (tests vary both). Only
     * a single plain file can be read in parallel (random access), others are read on one thread.
     */
    List<RankTrace> readWithScanner(int chunkBytes, int threads) throws IOException {
        try {
            return scanWith(chunkBytes, threads, false);
        } catch (LateMetadata ex) {
            // Metadata after its process's events (real torch_npu captures do this): every part's
            // metadata first, then the events, as the Jackson path's two passes do.
            return scanWith(chunkBytes, threads, true);
        }
    }

    private List<RankTrace> scanWith(int chunkBytes, int threads, boolean twoPasses) throws IOException {
        // Only a single plain file has the random access that the parallel scan needs.
        int parallelChunk = chunkBytes > 0 && parts.size() == 1 && !InputStreams.isGzip(parts.get(0)) ? chunkBytes : 0;
        return JsonReadStrategy.scan(parallelChunk, chunk -> fresh().scan(chunk, threads, twoPasses));
    }

    private List<RankTrace> scan(int chunkBytes, int threads, boolean twoPasses) throws IOException {
        ByteEventFields fields = new ByteEventFields();
        pass = twoPasses ? Pass.METADATA : Pass.ONE;
        for (int i = 0; i < parts.size(); i++) {
            scanPart(i, fields, chunkBytes, threads);
        }
        try {
            collector.requireAscendLanes();
        } catch (TraceFormatException ex) {
            throw new Unsupported(ex.getMessage());
        }
        if (twoPasses) {
            pass = Pass.EVENTS;
            for (int i = 0; i < parts.size(); i++) {
                scanPart(i, fields, chunkBytes, threads);
            }
        }
        try {
            return collector.build();
        } catch (TraceFormatException ex) {
            throw new Unsupported(ex.getMessage());
        }
    }

    /** Which events {@link #taken} uses: all in one pass, or metadata then the rest (as {@link #twoPasses}). */
    private enum Pass { ONE, METADATA, EVENTS }

    private Pass pass = Pass.ONE;

    /** The single pass met metadata for a process whose events it had taken: read in two passes. */
    private static final class LateMetadata extends RuntimeException {
        LateMetadata() {
            super(null, null, false, false);
        }
    }

    /** One part as {@link #onePass} reads it. */
    private void scanPart(int partIndex, ByteEventFields fields, int chunkBytes, int threads) throws IOException {
        Path part = parts.get(partIndex);
        collector.part(part.toString());
        InputStream in;
        try {
            in = InputStreams.open(part, limits);
        } catch (EOFException ex) {
            throw new Unsupported("the file ends inside the gzip header");
        }
        try (InputStream bytes = in; ParallelArrayScan parallel = chunkBytes <= 0 ? null
                : new ParallelArrayScan(part, Files.size(part), chunkBytes, threads).strictEscapes()) {
            // This reader's Jackson does not take \q-style escapes: neither may its scanner.
            Utf8JsonScanner s = Utf8JsonScanner.forSize(bytes, Files.size(part)).strictEscapes();
            s.skipByteOrderMark();
            if (s.peekKind() != ARRAY) {
                throw new Unsupported("the top-level value is not an array");
            }
            if (s.beginArray()) {
                if (parallel != null) {
                    // What follows the array is not read, as on the Jackson path.
                    parallel.run(s.offset(), TimelineReader::elementParser, new Replay<>() {
                        @Override
                        public void element(EventFields.Packed event) {
                            if (event == IGNORED) {
                                collector.skip();
                            } else {
                                e.unpack(event);
                                taken();
                            }
                        }

                        @Override
                        public void rehearse(EventFields.Packed event) {
                            // The samples have warmed the element parser up; what the collector does with an
                            // event depends on the metadata before it, which a sample lacks.
                        }
                    });
                } else {
                    do {
                        if (s.peekKind() != OBJECT) {
                            throw new Unsupported("an event that is not an object");
                        }
                        fields.read(s, e);
                        taken();
                    } while (s.nextElement());
                }
            }
        } catch (EOFException | ZipException ex) {
            throw new Unsupported("damaged input: " + ex.getMessage());
        }
    }

    /**
     * The event in {@link #e} on the fast path, handed to the collector: {@link TimelineCollector#take}
     * in the single pass; in two passes {@link TimelineCollector#metadata} then
     * {@link TimelineCollector#event}, as {@link #scanMetadata} and {@link #collect} do. Any error is
     * Unsupported (the Jackson path words it).
     */
    private void taken() {
        try {
            switch (pass) {
                case ONE -> {
                    if (!collector.take(e)) {
                        throw new LateMetadata();
                    }
                }
                case METADATA -> collector.metadata(e);
                case EVENTS -> collector.event(e);
            }
        } catch (TraceFormatException ex) {
            throw new Unsupported(ex.getMessage());
        }
    }

    /** Marks the events that the collector does nothing with, whatever came before: no copy is kept. */
    private static final EventFields.Packed IGNORED = new EventFields().pack();

    /** A parser of events for the parallel scan: one per pool thread, with its own holder and name table. */
    private static ElementParser<EventFields.Packed> elementParser() {
        ByteEventFields fields = new ByteEventFields();
        EventFields holder = new EventFields();
        return s -> {
            if (s.peekKind() != OBJECT) {
                throw new Unsupported("an event that is not an object");
            }
            fields.read(s, holder);
            boolean used = holder.pid != null && holder.ph != null && switch (holder.ph) {
                case "M", "X", "s", "f" -> true;
                default -> false;
            };
            return used ? holder.pack() : IGNORED;
        };
    }

    /**
     * Both passes at once, for the usual file whose metadata of a process comes before that
     * process's events (torch_npu writes it first). Returns {@code false} as soon as a metadata event
     * names a process whose events were already taken: the caller then reads the file in two passes.
     */
    private boolean onePass() throws IOException, TraceFormatException {
        for (int i = 0; i < parts.size(); i++) {
            Path part = parts.get(i);
            collector.part(part.toString());
            long complete = 0;
            try (JsonParser p = open(part)) {
                try {
                    JsonToken t = p.nextToken();
                    if (t != JsonToken.START_ARRAY) {
                        return false; // the two passes give the message
                    }
                    for (t = p.nextToken(); t != JsonToken.END_ARRAY; t = p.nextToken()) {
                        if (t == null) {
                            throw new EOFException("end of input inside the event array");
                        }
                        if (t != JsonToken.START_OBJECT) {
                            return false;
                        }
                        e.read(p);
                        if (!collector.take(e)) {
                            return false;
                        }
                        complete++;
                    }
                    completeEvents[i] = Long.MAX_VALUE;
                } catch (EOFException | com.fasterxml.jackson.core.io.JsonEOFException ex) {
                    endedEarly(part, complete, "the file ends early", p);
                } catch (JsonProcessingException ex) {
                    endedEarly(part, complete, "invalid JSON (" + io.overlapanalyze.formats.input.JsonProblem.describe(ex) + ")", p);
                } catch (java.util.zip.ZipException ex) {
                    endedEarly(part, complete, "the gzip data is damaged", p);
                }
            }
        }
        return true;
    }

    private JsonParser open(Path part) throws IOException, TraceFormatException {
        try {
            // Bytes, not a Reader: Jackson's UTF-8 parser decodes as it scans (no second pass over the text).
            return FACTORY.createParser(InputStreams.open(part, limits));
        } catch (EOFException ex) {
            throw new TraceFormatException(part + ": the file ends inside the gzip header");
        }
    }

    /** Pass 1: metadata, and how many events are complete (the rest of a damaged file is not read). */
    private void scanMetadata(int partIndex) throws IOException, TraceFormatException {
        Path part = parts.get(partIndex);
        String file = part.toString();
        collector.part(file);
        long complete = 0;
        try (JsonParser p = open(part)) {
            try {
                JsonToken t = p.nextToken();
                if (t == null) {
                    throw new TraceFormatException(file + ": empty file (no JSON value), expected an Ascend timeline array");
                }
                if (t != JsonToken.START_ARRAY) {
                    throw new TraceFormatException(file + ": not an Ascend timeline: the top-level JSON value is "
                            + (t == JsonToken.START_OBJECT ? "an object" : "a " + t.asString()) + ", expected an array of events");
                }
                for (t = p.nextToken(); t != JsonToken.END_ARRAY; t = p.nextToken()) {
                    if (t == null) {
                        throw new EOFException("end of input inside the event array");
                    }
                    if (t != JsonToken.START_OBJECT) {
                        throw new TraceFormatException(file + ": event " + (complete + 1) + " is not a JSON object");
                    }
                    e.read(p);
                    collector.metadata(e);
                    complete++;
                }
                completeEvents[partIndex] = Long.MAX_VALUE;
            } catch (EOFException | com.fasterxml.jackson.core.io.JsonEOFException ex) {
                endedEarly(part, complete, "the file ends early", p);
            } catch (JsonProcessingException ex) {
                endedEarly(part, complete, "invalid JSON (" + io.overlapanalyze.formats.input.JsonProblem.describe(ex) + ")", p);
            } catch (java.util.zip.ZipException ex) {
                endedEarly(part, complete, "the gzip data is damaged", p);
            }
        }
    }

    private void endedEarly(Path part, long complete, String what, JsonParser p) throws TraceFormatException {
        com.fasterxml.jackson.core.JsonLocation loc = p.currentLocation();
        long at = loc == null ? -1 : loc.getCharOffset() >= 0 ? loc.getCharOffset() : loc.getByteOffset();
        if (complete == 0) {
            throw new TraceFormatException(part + ": " + what + " before the first complete event (character " + at + ")");
        }
        collector.truncated("truncated: " + part + ": " + what + " inside event " + (complete + 1) + ", at character " + at
                + "; kept the " + complete + " complete event(s) before it");
        completeEvents[parts.indexOf(part)] = complete;
    }

    /** Pass 2: the events the model needs. */
    private void collect(int partIndex) throws IOException, TraceFormatException {
        Path part = parts.get(partIndex);
        collector.part(part.toString());
        long limit = completeEvents[partIndex];
        long read = 0;
        try (JsonParser p = open(part)) {
            p.nextToken();
            // Stop after the last complete event without asking for the next token: in a file cut
            // right after an event's "}" or "," that token is the end of input (JsonEOFException).
            for (JsonToken t = p.nextToken(); t == JsonToken.START_OBJECT && read < limit;
                    t = read < limit ? p.nextToken() : null) {
                read++;
                e.read(p);
                collector.event(e);
            }
        }
    }

}
