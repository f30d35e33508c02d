package io.overlapanalyze.formats.kineto;

import io.overlapanalyze.formats.input.Warnings;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import io.overlapanalyze.formats.input.InputLimitExceededException;
import io.overlapanalyze.formats.input.InputStreams;
import io.overlapanalyze.formats.input.Messages;
import io.overlapanalyze.formats.input.TraceFormatException;
import io.overlapanalyze.formats.input.TraceReader;
import io.overlapanalyze.formats.json.JsonReadStrategy;
import io.overlapanalyze.formats.json.ParallelArrayScan;
import io.overlapanalyze.formats.json.Utf8JsonScanner;
import io.overlapanalyze.formats.json.Utf8JsonScanner.Unsupported;
import io.overlapanalyze.formats.json.Utf8NameTable;
import io.overlapanalyze.formats.kernels.KernelClassifier;
import io.overlapanalyze.model.Annotation;
import io.overlapanalyze.model.Collective;
import io.overlapanalyze.model.DeviceIntervals;
import io.overlapanalyze.model.HostSpan;
import io.overlapanalyze.model.HostThread;
import io.overlapanalyze.model.Lane;
import io.overlapanalyze.model.RankSource;
import io.overlapanalyze.model.RankTrace;
import io.overlapanalyze.model.StreamWait;
import io.overlapanalyze.model.TraceFormat;

import java.io.CharConversionException;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.zip.ZipException;

/**
 * Reads a PyTorch profiler (Kineto) Chrome-trace JSON file, plain or gzip, into one
 * {@link RankTrace} per device that ran work (kineto.md; metrics.md §1): one, unless the process
 * drove several devices ({@link DeviceSplit}).
 *
 * <p>The file is streamed event by event; memory grows with the events kept (device work, launch
 * calls, collective ops, step/phase spans), not with the size of the JSON text. Header keys may
 * follow the event array, so times stay in the file's frame until the end and
 * {@code baseTimeNanoseconds} is added last.
 *
 * <p>Two paths fill the same {@link EventHolder} for the same {@link TraceCollector}: the byte
 * scanner ({@link #readWithScanner}, tried first; several threads on a big plain file) and Jackson
 * ({@link #readWithJackson}, the reference), chosen as {@link JsonReadStrategy} says: the scanner
 * gives up ({@link Unsupported}) on anything outside a strict subset of what Jackson takes, damage
 * included, and the file is then read by Jackson, so results, warnings and messages are always the
 * reference path's (ARCHITECTURE.md, "Why two JSON decoders and not one").
 *
 * <p>Damage is handled as kineto.md §9 asks: a file cut short (crash, {@code .tmp}, truncated gzip)
 * after at least one complete event gives a partial trace flagged {@code truncated} with a warning;
 * a file that is not a Kineto trace at all, or uses a value of the wrong type where the reader
 * needs it, gives a one-line {@link TraceFormatException}.
 */
public final class KinetoReader implements TraceReader {
    /** How much of a file {@link #looksLikeKineto(Path)} reads. */
    public static final int SNIFF_BYTES = 16 * 1024;

    private static final JsonFactory FACTORY = JsonFactory.builder()
            .enable(JsonReadFeature.ALLOW_UNESCAPED_CONTROL_CHARS) // raw control chars in names (pytorch#130622)
            .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)     // NaN/Infinity in args must not kill the file
            .enable(JsonReadFeature.ALLOW_TRAILING_COMMA)
            .enable(JsonReadFeature.ALLOW_BACKSLASH_ESCAPING_ANY_CHARACTER)
            .disable(StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION)  // keep messages one short line
            .streamReadConstraints(io.overlapanalyze.formats.input.InputLimits.PARSER_CONSTRAINTS)
            .build();

    private final KernelClassifier classifier;
    /** What one file may decompress to: the run's, passed in. */
    private final io.overlapanalyze.formats.input.InputLimits limits;

    /** A reader with the built-in communication kernel patterns and the default limits. */
    public KinetoReader() {
        this(new KernelClassifier());
    }

    /** A reader with a custom classifier (e.g. user-added communication kernel patterns), the default limits. */
    public KinetoReader(KernelClassifier classifier) {
        this(classifier, io.overlapanalyze.formats.input.InputLimits.DEFAULT);
    }

    /** A reader with a classifier and the run's input limits ({@code --max-input-size}, {@code --max-ratio}). */
    public KinetoReader(KernelClassifier classifier, io.overlapanalyze.formats.input.InputLimits limits) {
        this.classifier = classifier;
        this.limits = limits;
    }

    /**
     * Sniffs whether {@code head} (the first bytes of a file, already decompressed) looks like a
     * Kineto/Chrome trace object: first non-blank character {@code {} and the text mentions
     * {@code traceEvents} or {@code "ph"}.
     */
    public static boolean looksLikeKineto(byte[] head) {
        int i = 0;
        if (head.length >= 3 && (head[0] & 0xff) == 0xef && (head[1] & 0xff) == 0xbb && (head[2] & 0xff) == 0xbf) {
            i = 3; // UTF-8 byte order mark
        }
        while (i < head.length && (head[i] == ' ' || head[i] == '\t' || head[i] == '\n' || head[i] == '\r')) {
            i++;
        }
        if (i >= head.length || head[i] != '{') {
            return false;
        }
        String text = new String(head, StandardCharsets.ISO_8859_1);
        return text.contains("traceEvents") || text.contains("\"ph\"");
    }

    /** {@link #looksLikeKineto(byte[])} on the first {@link #SNIFF_BYTES} of a (possibly gzip) file. */
    public static boolean looksLikeKineto(Path file) throws IOException {
        return looksLikeKineto(InputStreams.head(file, SNIFF_BYTES));
    }

    /**
     * The fast path, then Jackson when it gives up; {@code -Doverlap.kineto.scanner=jackson} reads
     * every file with the Jackson path only, {@code -Doverlap.kineto.threads} sets the scan threads.
     */
    private static final JsonReadStrategy STRATEGY = JsonReadStrategy.of("kineto");

    @Override
    public List<RankTrace> read(Path input) throws TraceFormatException, IOException {
        return STRATEGY.read(() -> DeviceSplit.split(readWithScanner(input)),
                () -> DeviceSplit.split(readWithJackson(input)));
    }

    /** The reference path: Jackson's token stream. Package-private for the parity test. */
    RankTrace readWithJackson(Path input) throws TraceFormatException, IOException {
        try {
            return read(input, false);
        } catch (InvalidUtf8 e) {
            return read(input, true);
        }
    }

    /**
     * The fast path ({@link Utf8JsonScanner}, {@link ByteEventReader}): the same model as
     * {@link #readWithJackson}, or {@link Unsupported} for any input it does not take on, including
     * every damaged file (the Jackson path words the error or the truncation warning). A plain file
     * of at least {@link ParallelArrayScan#MIN_FILE_BYTES} has its events array scanned on several
     * threads ({@link ParallelArrayScan}); when that cannot cut the array cleanly, the file is read
     * again on one thread.
     */
    RankTrace readWithScanner(Path input) throws IOException {
        int threads = STRATEGY.threads();
        return readWithScanner(input, ParallelArrayScan.chunkBytesFor(input, threads), threads);
    }

    /** As {@link #readWithScanner(Path)}; {@code chunkBytes} 0 reads on one thread (tests vary both). */
    RankTrace readWithScanner(Path input, int chunkBytes, int threads) throws IOException {
        return JsonReadStrategy.scan(chunkBytes, chunk -> chunk > 0
                ? scan(input, new ParallelArrayScan(input, Files.size(input), chunk, threads))
                : scan(input, null));
    }

    private RankTrace scan(Path input, ParallelArrayScan parallel) throws IOException {
        InputStream in;
        try {
            in = InputStreams.open(input, limits);
        } catch (EOFException e) {
            throw new Unsupported("the file ends inside the gzip header");
        }
        try (InputStream bytes = in; ParallelArrayScan closeLater = parallel) {
            return new Session(input.toString(), null, true).runScanner(Utf8JsonScanner.forSize(bytes, Files.size(input)), parallel);
        } catch (EOFException | ZipException e) {
            throw new Unsupported("damaged input: " + e.getMessage());
        } catch (InputLimitExceededException e) {
            // This path reads ahead in pieces of up to 1 MiB, Jackson's in 64 KB ones: a gzip file's
            // limit can be crossed here only, in data after the JSON that Jackson never reads (and
            // the ratio message counts the bytes read so far). The Jackson path decides.
            throw new Unsupported("an input limit: " + e.getMessage());
        }
    }

    /**
     * One Jackson pass over the file. It hands Jackson the UTF-8 bytes (its byte-based parser
     * decodes only the strings the reader looks at and skips the rest undecoded), which is about
     * twice as fast as decoding the whole text through a {@code Reader} first. That parser refuses
     * invalid UTF-8, which real traces contain (kernel names with raw bytes), while the rule is that
     * invalid bytes must not fail the file; so on that one error the file is read again from the
     * start through a {@code Reader}, which replaces invalid UTF-8 with U+FFFD.
     */
    private RankTrace read(Path input, boolean viaReader) throws TraceFormatException, IOException {
        String file = input.toString();
        InputStream in;
        try {
            in = InputStreams.open(input, limits);
        } catch (EOFException e) {
            throw new TraceFormatException(file + ": the file ends inside the gzip header (byte 10 or earlier)");
        }
        if (viaReader) {
            try (Reader reader = new InputStreamReader(in, StandardCharsets.UTF_8);
                 JsonParser p = FACTORY.createParser(reader)) {
                return new Session(file, p, false).run();
            }
        }
        try (InputStream bytes = in; JsonParser p = FACTORY.createParser(bytes)) {
            return new Session(file, p, true).run();
        }
    }

    /** Raised on the byte path when the text is not valid UTF-8: read again through a Reader. */
    private static final class InvalidUtf8 extends RuntimeException {
        InvalidUtf8() {
            super(null, null, false, false);
        }
    }

    /** Jackson's byte parser reports bad UTF-8 as "Invalid UTF-8 start/middle byte 0x..". */
    private static boolean isInvalidUtf8(JsonProcessingException e) {
        String m = e.getOriginalMessage();
        return m != null && m.startsWith("Invalid UTF-8");
    }

    /** The state of reading one file, by either path. */
    private final class Session implements ByteEventReader.Sink {
        private final String file;
        private final JsonParser p;
        private final boolean bytePath;
        private final Warnings warnings = new Warnings();
        private final TraceCollector collector;
        private final EventHolder event = new EventHolder();
        private DistributedInfo dist = DistributedInfo.ABSENT;
        private Map<Integer, String> deviceNames = Map.of();
        private Long baseNs;
        private boolean sawEvents;
        private boolean eventsComplete;
        private long eventNumber;   // 1-based number of the event being read
        private long completeEvents;
        private boolean truncated;

        Session(String file, JsonParser p, boolean bytePath) {
            this.file = file;
            this.p = p;
            this.bytePath = bytePath;
            this.collector = new TraceCollector(classifier, warnings);
        }

        /** The fast path: any {@link BadTraceException} becomes {@link Unsupported}, for the Jackson path to word. */
        RankTrace runScanner(Utf8JsonScanner scanner, ParallelArrayScan parallel) throws IOException {
            try {
                new ByteEventReader(scanner, this, event, new Utf8NameTable()).readDocument(parallel);
                if (!sawEvents) {
                    throw new Unsupported("no traceEvents array");
                }
                return finish();
            } catch (BadTraceException e) {
                throw new Unsupported(e.getMessage());
            }
        }

        @Override
        public void traceEventsStart() {
            sawEvents = true;
        }

        @Override
        public void event(EventHolder e) {
            eventNumber++;
            accepted(e);
        }

        private TraceCollector scratch;

        @Override
        public void rehearse(EventHolder e) {
            if (scratch == null) {
                scratch = new TraceCollector(classifier, new Warnings());
            }
            try {
                scratch.accept(e, 1);
            } catch (RuntimeException ignored) {
                // a sample cut mid-way through a file can be anything: only the real scan counts
            }
        }

        @Override
        public void ignoredEvent() {
            eventNumber++;
            completeEvents++;
        }

        @Override
        public void nullEvent() {
            eventNumber++;
            skippedNull();
        }

        /** Event number {@link #eventNumber} goes to the collector (both paths). */
        private void accepted(EventHolder e) {
            collector.accept(e, eventNumber);
            completeEvents++;
        }

        private void skippedNull() {
            warnings.add("null entries in traceEvents skipped", "event " + eventNumber);
            completeEvents++;
        }

        @Override
        public void traceEventsEnd() {
            eventsComplete = true;
        }

        @Override
        public void header(String key, byte[] value) throws IOException {
            try (JsonParser hp = FACTORY.createParser(value)) {
                JsonToken t = hp.nextToken();
                if ("distributedInfo".equals(key)) {
                    dist = DistributedInfo.read(hp);
                } else if ("deviceProperties".equals(key)) {
                    deviceNames = DeviceProperties.read(hp);
                } else {
                    readBase(hp, t);
                }
            }
        }

        /** The reference path: Jackson's token stream. */
        RankTrace run() throws TraceFormatException, IOException {
            try {
                parseDocument();
            } catch (BadTraceException e) {
                throw error(e.getMessage());
            } catch (EOFException | com.fasterxml.jackson.core.io.JsonEOFException e) {
                endedEarly("the file ends early");
            } catch (ZipException e) {
                endedEarly("the gzip data is damaged (" + Messages.firstLine(e) + ")");
            } catch (CharConversionException e) {
                if (bytePath) {
                    throw new InvalidUtf8();
                }
                throw e;
            } catch (JsonProcessingException e) {
                if (bytePath && isInvalidUtf8(e)) {
                    throw new InvalidUtf8();
                }
                if (eventNumber == 0 && !sawEvents) {
                    throw error("not JSON: " + jacksonMessage(e));
                }
                endedEarly("invalid JSON (" + jacksonMessage(e) + ")");
            }
            if (!sawEvents) {
                throw error("not a Kineto trace: the JSON object has no \"traceEvents\" array");
            }
            try {
                return finish();
            } catch (BadTraceException e) {
                throw error(e.getMessage());
            }
        }

        private void parseDocument() throws IOException {
            JsonToken t = p.nextToken();
            if (t == null) {
                throw error0("empty file (no JSON value), expected a Kineto JSON trace");
            }
            if (t != JsonToken.START_OBJECT) {
                throw error0("not a Kineto trace: the top-level JSON value is " + JsonValues.describe(t)
                        + ", expected an object with \"traceEvents\"");
            }
            for (t = p.nextToken(); t != JsonToken.END_OBJECT; t = p.nextToken()) {
                if (t == null) {
                    throw new EOFException("end of input inside the top-level object");
                }
                String key = p.currentName();
                JsonToken value = p.nextToken();
                switch (key) {
                    case "traceEvents":
                        if (value != JsonToken.START_ARRAY) {
                            throw new BadTraceException("\"traceEvents\" is " + JsonValues.describe(value) + ", expected an array");
                        }
                        traceEventsStart();
                        readEvents();
                        traceEventsEnd();
                        break;
                    case "distributedInfo":
                        dist = DistributedInfo.read(p);
                        break;
                    case "baseTimeNanoseconds":
                        readBase(p, value);
                        break;
                    case "deviceProperties":
                        deviceNames = DeviceProperties.read(p);
                        break;
                    default:
                        p.skipChildren();
                }
            }
        }

        private void readEvents() throws IOException {
            for (JsonToken t = p.nextToken(); t != JsonToken.END_ARRAY; t = p.nextToken()) {
                eventNumber++; // before reading: messages about this event name its number
                if (t == null) {
                    throw new EOFException("end of input inside traceEvents");
                }
                if (t == JsonToken.VALUE_NULL) {
                    skippedNull();
                    continue;
                }
                if (t != JsonToken.START_OBJECT) {
                    throw new BadTraceException("trace event " + eventNumber + " is " + JsonValues.describe(t) + ", expected an object");
                }
                event.read(p);
                accepted(event);
            }
        }

        private void readBase(JsonParser p, JsonToken value) throws IOException {
            if (value == JsonToken.VALUE_NULL) {
                return;
            }
            long v = JsonValues.lenientLong(p);
            if (v == JsonValues.NONE) {
                throw new BadTraceException("\"baseTimeNanoseconds\" is " + JsonValues.describe(value) + " that is not an integer");
            }
            baseNs = v;
        }

        /** The file stopped before the JSON did: keep what was read when any event was complete. */
        private void endedEarly(String what) throws TraceFormatException {
            if (!eventsComplete && completeEvents == 0) {
                throw error(what + " before the first complete trace event");
            }
            truncated = true;
            String where = eventsComplete
                    ? "after the event array, at " + position()
                    : "inside trace event " + eventNumber + ", at " + position() + " of the decompressed JSON";
            warnings.add("truncated", file + ": " + what + " " + where + "; kept the " + completeEvents
                    + " complete event(s) before it, the rest was not read");
            if (baseNs == null && collector.maxTsNs != Long.MIN_VALUE && collector.maxTsNs < RELATIVE_TS_LIMIT_NS) {
                warnings.add("no time base", "the file was cut before \"baseTimeNanoseconds\"; times are relative"
                        + " to the profiler's own origin and cannot be compared with other ranks");
            }
        }

        private RankTrace finish() {
            long base = baseNs == null ? 0 : baseNs;
            CollectiveJoiner joiner = new CollectiveJoiner(collector, dist.groups());
            long[] unmatched = joiner.linkLaunches();
            List<Collective> collectives = joiner.buildCollectives(base);
            List<StreamWait> streamWaits = StreamWaitJoiner.join(collector, joiner.runtimeByCorrelation(), base);

            DeviceIntervals device = collector.device;
            device.trimToSize();
            if (base != 0) {
                checkShift(base);
                device.shiftAll(base);
                collector.memory.shiftAll(base);
                for (int i = 0; i < unmatched.length; i++) {
                    unmatched[i] += base;
                }
            }
            List<HostSpan> spans = collector.hostSpans.toSpans(base);
            // By start, then longest first; one lambda, not a composed comparator (millions of spans).
            spans.sort((a, b) -> a.startNs() != b.startNs() ? Long.compare(a.startNs(), b.startNs())
                    : Long.compare(b.endNs(), a.endNs()));

            if (collector.emptyEvents > 1) { // one trailing {} is a known writer quirk: not worth a line
                warnings.add("empty {} events skipped", collector.emptyEvents + " events");
            }
            // Before the warnings are listed: ranges past the annotation budget are warned of.
            List<Annotation> annotations = AnnotationJoiner.join(collector, device, base, warnings);
            int rank = dist.rank() == null ? 0 : dist.rank();
            RankSource source = dist.rank() == null ? RankSource.DEFAULT : RankSource.TRACE;
            int world = dist.worldSize() == null ? -1 : dist.worldSize();
            return new RankTrace(file, TraceFormat.KINETO, rank, source, world, lanes(), device, spans, threads(),
                    collectives, dist.groups(), unmatched, collector.hostOpsPresent, truncated, warnings.lines(),
                    streamWaits, List.of(), collector.memory, null, annotations,
                    collector.hostRanges.outermost(base), null, deviceNames);
        }

        /** Adding the base must not overflow any time (a corrupt base, or epoch times plus a base). */
        private void checkShift(long base) {
            long max = collector.maxTsNs;
            long min = Long.MAX_VALUE;
            DeviceIntervals d = collector.device;
            for (int i = 0; i < d.size(); i++) {
                max = Math.max(max, d.end(i));
                min = Math.min(min, d.start(i));
            }
            TraceCollector.HostSpanColumns spans = collector.hostSpans;
            for (int i = 0; i < spans.size(); i++) {
                max = Math.max(max, spans.end(i));
                min = Math.min(min, spans.start(i));
            }
            try {
                if (max != Long.MIN_VALUE) {
                    Math.addExact(max, base);
                }
                if (min != Long.MAX_VALUE) {
                    Math.addExact(min, base);
                }
            } catch (ArithmeticException e) {
                throw new BadTraceException("\"baseTimeNanoseconds\" " + base + " plus the event times is out of range");
            }
        }

        private List<Lane> lanes() {
            Set<Long> devices = new HashSet<>();
            for (long[] k : collector.laneKeys) {
                devices.add(k[0]);
            }
            boolean oneDevice = devices.size() <= 1;
            List<Lane> lanes = new ArrayList<>();
            for (long[] k : collector.laneKeys) {
                int dev = (int) k[0];
                long stream = k[1];
                String label;
                if (dev < 0) {
                    label = "unknown stream";
                } else {
                    label = (oneDevice ? "" : "device " + dev + " ") + "stream " + stream;
                }
                lanes.add(new Lane(lanes.size(), dev, stream, label));
            }
            return lanes;
        }

        /** Host threads with every name given to them; device stream "threads" excluded. */
        private List<HostThread> threads() {
            Map<Long, List<String>> names = new LinkedHashMap<>();
            for (int i = 0; i < collector.threadNames.size(); i++) {
                String n = collector.threadNames.get(i);
                if (collector.devicePids.contains(collector.threadPid.get(i)) || n.startsWith("stream ")) {
                    continue;
                }
                names.computeIfAbsent(collector.threadTid.get(i), k -> new ArrayList<>()).add(n);
            }
            List<HostThread> out = new ArrayList<>();
            for (Map.Entry<Long, List<String>> e : names.entrySet()) {
                boolean autograd = e.getValue().stream().anyMatch(n -> n.contains("pt_autograd"));
                out.add(new HostThread(e.getKey(), e.getValue(), autograd));
            }
            out.sort(Comparator.comparingLong(HostThread::threadId));
            return out;
        }

        /** "byte N" on the byte path, "character N" through a Reader. */
        private String position() {
            JsonLocation loc = p.currentLocation();
            if (loc == null) {
                return "character -1";
            }
            return loc.getCharOffset() >= 0 ? "character " + loc.getCharOffset() : "byte " + loc.getByteOffset();
        }

        private String where() {
            String at = position();
            return eventNumber > 0 && !eventsComplete ? "trace event " + eventNumber + ", " + at : at;
        }

        private TraceFormatException error(String what) {
            return new TraceFormatException(file + ": " + what + " (" + where() + ")");
        }

        private BadTraceException error0(String what) {
            return new BadTraceException(what);
        }
    }

    /**
     * Below this a {@code ts} cannot be epoch time (it would be before 1973): the file used
     * relative times and needed its {@code baseTimeNanoseconds}.
     */
    private static final long RELATIVE_TS_LIMIT_NS = 100_000_000_000_000_000L;

    /** What the parser found wrong, in plain words (no Jackson jargon): the reader adds its own position. */
    private static String jacksonMessage(JsonProcessingException e) {
        return io.overlapanalyze.formats.input.JsonProblem.describe(e);
    }
}
