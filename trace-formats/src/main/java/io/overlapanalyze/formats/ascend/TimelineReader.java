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
import io.overlapanalyze.formats.kernels.KernelRules;
import io.overlapanalyze.formats.json.DecimalMicros;
import io.overlapanalyze.model.DeviceKind;
import io.overlapanalyze.model.RankTrace;
import io.overlapanalyze.model.Time;
import io.overlapanalyze.model.TraceFormat;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.IntFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.ZipException;

import static io.overlapanalyze.formats.json.Utf8JsonScanner.ARRAY;
import static io.overlapanalyze.formats.json.Utf8JsonScanner.OBJECT;

/**
 * Reads an Ascend timeline ({@code trace_view.json}, {@code msprof_*.json}, or the slices of one
 * {@code msprof_slice_*}) into one {@link RankTrace} per device (ascend.md §3).
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
 * per-event logic ({@link #take}, or metadata then events) fed by a byte scanner
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
    private static final Pattern GROUP_THREAD = Pattern.compile("^Group\\s+(\\S+)\\s+Communication$");
    private static final Pattern PLANE_THREAD = Pattern.compile("^Plane\\s+\\d+$");

    private final List<Path> parts;
    private final String source;
    private final IntFunction<RankInfo> rankOfDevice;

    // pass 1
    private final Map<String, String> processName = new HashMap<>();
    private final Map<String, String> processLabel = new HashMap<>();
    private final Map<String, String> processSortIndex = new HashMap<>();
    private final Map<String, String> threadName = new HashMap<>();
    private final long[] completeEvents;
    private final List<String> warnings = new ArrayList<>();
    private boolean truncated;

    // pass 2
    private final List<long[]> hostOps = new ArrayList<>();       // start, end, tid, nameIndex
    private final List<String> hostOpNames = new ArrayList<>();
    private final Map<Long, String> hostThreads = new TreeMap<>();
    private boolean hostOpsPresent;
    private final DeviceEventTable deviceEvents = new DeviceEventTable();
    /** The communication streams the plane tasks name, by the pid of their process. */
    private final Map<String, Set<Long>> commStreams = new HashMap<>();
    private final FlowIndex flows = new FlowIndex();
    private final EventFields e = new EventFields();
    private String file;
    private long eventNumber;

    // the single pass: processes whose events were taken (their metadata must not come later)
    private final Set<String> usedPids = new HashSet<>();
    private String lastUsed;


    /** A reader of one timeline; each reader reads once ({@link #read}). */
    TimelineReader(List<Path> parts, String source, IntFunction<RankInfo> rankOfDevice) {
        this.parts = List.copyOf(parts);
        this.source = source;
        this.rankOfDevice = rankOfDevice;
        this.completeEvents = new long[parts.size()];
    }

    private TimelineReader fresh() {
        return new TimelineReader(parts, source, rankOfDevice);
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
                requireAscendLanes();
                return build();
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
        requireAscendLanes();
        for (int i = 0; i < parts.size(); i++) {
            collect(i);
        }
        return build();
    }

    /**
     * The fast path: the single pass of {@link #readWithJackson} with a {@link Utf8JsonScanner} and
     * {@link ByteEventFields} in place of Jackson and {@link EventFields#read}, and the same
     * {@link #take}; so the same model. When metadata comes after its process's events, the file is
     * read again in two passes, metadata then events, as {@link #twoPasses} does. {@link Unsupported}
     * for every file it does not take on: one outside the scanner's subset (which includes every
     * damaged or cut file), one that gives any {@link TraceFormatException}.
     * So it never words an error, warns or marks a trace truncated: the Jackson path does. A plain
     * single file of at least {@link ParallelArrayScan#MIN_FILE_BYTES} is scanned on several threads
     * ({@link ParallelArrayScan}) and its events replayed in file order, so that {@link #take} sees
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
            requireAscendLanes();
        } catch (TraceFormatException ex) {
            throw new Unsupported(ex.getMessage());
        }
        if (twoPasses) {
            pass = Pass.EVENTS;
            for (int i = 0; i < parts.size(); i++) {
                scanPart(i, fields, chunkBytes, threads);
            }
        }
        return build();
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
        file = part.toString();
        eventNumber = 0;
        InputStream in;
        try {
            in = InputStreams.open(part);
        } catch (EOFException ex) {
            throw new Unsupported("the file ends inside the gzip header");
        }
        try (InputStream bytes = in; ParallelArrayScan<EventFields.Packed> parallel = chunkBytes <= 0 ? null
                : new ParallelArrayScan<EventFields.Packed>(part, Files.size(part), chunkBytes, threads).strictEscapes()) {
            // This reader's Jackson does not take \q-style escapes: neither may its scanner.
            Utf8JsonScanner s = new Utf8JsonScanner(bytes).strictEscapes();
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
                                eventNumber++;
                            } else {
                                e.unpack(event);
                                taken();
                            }
                        }

                        @Override
                        public void rehearse(EventFields.Packed event) {
                            // The samples have warmed the element parser up; what take() does with an
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
     * The event in {@link #e} on the fast path: {@link #take} in the single pass; in two passes what
     * {@link #scanMetadata} and then {@link #collect} do with it. Any error is Unsupported (the
     * Jackson path words it).
     */
    private void taken() {
        try {
            switch (pass) {
                case ONE -> {
                    if (!take()) {
                        throw new LateMetadata();
                    }
                }
                case METADATA -> {
                    eventNumber++;
                    if ("M".equals(e.ph)) {
                        metadata();
                    }
                }
                case EVENTS -> {
                    eventNumber++;
                    event();
                }
            }
        } catch (TraceFormatException ex) {
            throw new Unsupported(ex.getMessage());
        }
    }

    /** Marks the events that {@link #take} does nothing with, whatever came before: no copy is kept. */
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

    private void requireAscendLanes() throws TraceFormatException {
        if (!processName.containsValue("Ascend Hardware") && !processName.containsValue("HCCL")
                && !processName.containsValue("Communication") && !processName.containsValue("Overlap Analysis")) {
            if (truncated) {
                throw new TraceFormatException(warnings.get(0).substring("truncated: ".length())
                        + ", before any Ascend lane metadata (process_name \"Ascend Hardware\"/\"HCCL\"): nothing to analyse");
            }
            throw new TraceFormatException(parts.get(0) + ": not an Ascend timeline: no process named"
                    + " \"Ascend Hardware\", \"HCCL\" or \"Communication\" in the metadata events");
        }
    }

    /**
     * Both passes at once, for the usual file whose metadata of a process comes before that
     * process's events (torch_npu writes it first). Returns {@code false} as soon as a metadata event
     * names a process whose events were already taken: the caller then reads the file in two passes.
     */
    private boolean onePass() throws IOException, TraceFormatException {
        for (int i = 0; i < parts.size(); i++) {
            Path part = parts.get(i);
            file = part.toString();
            long complete = 0;
            eventNumber = 0;
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
                        if (!take()) {
                            return false;
                        }
                        complete++;
                    }
                    completeEvents[i] = Long.MAX_VALUE;
                } catch (EOFException | com.fasterxml.jackson.core.io.JsonEOFException ex) {
                    endedEarly(part, complete, "the file ends early", p);
                } catch (JsonProcessingException ex) {
                    endedEarly(part, complete, "invalid JSON (" + firstLine(ex.getOriginalMessage()) + ")", p);
                } catch (java.util.zip.ZipException ex) {
                    endedEarly(part, complete, "the gzip data is damaged", p);
                }
            }
        }
        return true;
    }

    /**
     * One event of the single pass, read into {@link #e}: metadata is kept, other events are taken
     * at once. False when metadata comes for a process whose events were already taken: then the
     * file needs the two passes. The same for both paths' single pass.
     */
    private boolean take() throws TraceFormatException {
        eventNumber++;
        if ("M".equals(e.ph)) {
            if (e.pid != null && usedPids.contains(e.pid)) {
                return false;
            }
            metadata();
        } else {
            if ("X".equals(e.ph) && e.pid != null && e.pid != lastUsed) {
                usedPids.add(e.pid);
                lastUsed = e.pid;
            }
            event();
        }
        return true;
    }

    private JsonParser open(Path part) throws IOException, TraceFormatException {
        try {
            // Bytes, not a Reader: Jackson's UTF-8 parser decodes as it scans (no second pass over the text).
            return FACTORY.createParser(InputStreams.open(part));
        } catch (EOFException ex) {
            throw new TraceFormatException(part + ": the file ends inside the gzip header");
        }
    }

    /** Pass 1: metadata, and how many events are complete (the rest of a damaged file is not read). */
    private void scanMetadata(int partIndex) throws IOException, TraceFormatException {
        Path part = parts.get(partIndex);
        file = part.toString();
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
                    if ("M".equals(e.ph)) {
                        metadata();
                    }
                    complete++;
                }
                completeEvents[partIndex] = Long.MAX_VALUE;
            } catch (EOFException | com.fasterxml.jackson.core.io.JsonEOFException ex) {
                endedEarly(part, complete, "the file ends early", p);
            } catch (JsonProcessingException ex) {
                endedEarly(part, complete, "invalid JSON (" + firstLine(ex.getOriginalMessage()) + ")", p);
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
        truncated = true;
        warnings.add("truncated: " + part + ": " + what + " inside event " + (complete + 1) + ", at character " + at
                + "; kept the " + complete + " complete event(s) before it");
        completeEvents[parts.indexOf(part)] = complete;
    }

    private void metadata() {
        if (e.pid == null || e.name == null) {
            return;
        }
        String value = e.argName;
        switch (e.name) {
            case "process_name" -> {
                if (value != null) {
                    processName.put(e.pid, value);
                }
            }
            case "process_labels" -> {
                String labels = e.argLabels;
                if (labels != null) {
                    processLabel.put(e.pid, labels);
                }
            }
            case "process_sort_index" -> {
                if (e.argSortIndex != null) {
                    processSortIndex.put(e.pid, e.argSortIndex);
                }
            }
            case "thread_name" -> {
                if (value != null && e.tid != null) {
                    threadName.put(e.pid + "|" + e.tid, value);
                }
            }
            default -> { }
        }
    }

    /** Pass 2: the events the model needs. */
    private void collect(int partIndex) throws IOException, TraceFormatException {
        Path part = parts.get(partIndex);
        file = part.toString();
        long limit = completeEvents[partIndex];
        eventNumber = 0;
        try (JsonParser p = open(part)) {
            p.nextToken();
            // Stop after the last complete event without asking for the next token: in a file cut
            // right after an event's "}" or "," that token is the end of input (JsonEOFException).
            for (JsonToken t = p.nextToken(); t == JsonToken.START_OBJECT && eventNumber < limit;
                    t = eventNumber < limit ? p.nextToken() : null) {
                eventNumber++;
                e.read(p);
                event();
            }
        }
    }

    private void event() throws TraceFormatException {
        if (e.ph == null || e.pid == null) {
            return;
        }
        switch (e.ph) {
            case "X" -> complete();
            case "s" -> flowStart();
            case "f" -> flowEnd();
            default -> { }
        }
    }

    private void complete() throws TraceFormatException {
        String process = processName.get(e.pid);
        if (process == null || e.name == null) {
            return;
        }
        switch (process) {
            case "Python" -> {
                hostOpsPresent = true;
                long tid = longOf(e.tid, "tid");
                String name = threadNameOf(e.pid, e.tid);
                if (name != null) {
                    hostThreads.put(tid, name);
                }
                if (RankAssembler.spanKind(e.name) != null || e.name.startsWith("c10d::")) {
                    long start = ns(e.ts, "ts");
                    hostOps.add(new long[] {start, start + ns(e.dur, "dur"), tid, hostOpNames.size()});
                    hostOpNames.add(e.name);
                }
            }
            case "Ascend Hardware" -> {
                if (TaskKinds.isProfilerMarker(e.name)) {
                    return;
                }
                long start = ns(e.ts, "ts");
                long stream = longOf(e.tid, "tid");
                String lane = threadNameOf(e.pid, e.tid);
                if (lane == null) {
                    lane = "Stream " + e.tid;
                }
                deviceEvents.task(e.pid, e.tid, lane, stream, start, start + ns(e.dur, "dur"),
                        e.name, e.argTaskType);
            }
            case "HCCL", "Communication" -> hccl();
            case "Overlap Analysis" -> {
                int type = overlapType(threadNameOf(e.pid, e.tid));
                if (type >= 0) {
                    long start = ns(e.ts, "ts");
                    deviceEvents.overlap(e.pid, e.tid, start, start + ns(e.dur, "dur"), e.name,
                            type);
                }
            }
            default -> { }
        }
    }

    private void hccl() throws TraceFormatException {
        String thread = threadNameOf(e.pid, e.tid);
        if (thread == null) {
            thread = "";
        }
        if (PLANE_THREAD.matcher(thread).matches()) {
            // Plane tasks: not intervals (they lie inside their op); they say which stream is the
            // communication stream, whose hardware tasks must not count as compute.
            String stream = e.argStreamId;
            if (stream != null) {
                try {
                    commStreams.computeIfAbsent(e.pid, d -> new HashSet<>()).add(Long.parseLong(stream));
                } catch (NumberFormatException ignored) {
                    // a stream id we cannot read only loses the exclusion, not the file
                }
            }
            return;
        }
        if (!e.name.startsWith("hcom_") && !thread.endsWith("Communication")) {
            return;
        }
        long start = ns(e.ts, "ts");
        Matcher g = GROUP_THREAD.matcher(thread);
        // "Group 0 Communication" (older) names no group; "Group <hash> Communication" does.
        String groupKey = g.matches() && g.group(1).length() > 3 ? g.group(1) : null;
        long count = -1;
        String c = e.argCount;
        if (c != null) {
            try {
                count = Long.parseLong(c);
            } catch (NumberFormatException ignored) {
                count = -1;
            }
        }
        deviceEvents.collective(e.pid, e.tid, thread.isEmpty() ? "Communication" : thread, start,
                start + ns(e.dur, "dur"), e.name, e.argDataType, count, groupKey);
    }

    private static int overlapType(String thread) {
        if (thread == null) {
            return -1;
        }
        return switch (thread) {
            case "Computing" -> RankAssembler.OVERLAP_COMPUTING;
            case "Communication" -> RankAssembler.OVERLAP_COMMUNICATION;
            case "Communication(Not Overlapped)" -> RankAssembler.OVERLAP_NOT_OVERLAPPED;
            case "Free" -> RankAssembler.OVERLAP_FREE;
            default -> -1;
        };
    }

    private void flowStart() throws TraceFormatException {
        if (!e.id.present || !e.ts.present || e.cat == null) {
            return;
        }
        long tid = longOf(e.tid, "tid");
        long ts = ns(e.ts, "ts");
        int kind = flowKind(e.cat);
        if (kind >= 0) {
            flows.start(kind, flowId(), tid, ts);
        }
    }

    private void flowEnd() throws TraceFormatException {
        if (!e.id.present || !e.ts.present || e.cat == null) {
            return;
        }
        // The flow's end has the ts of its target event; torch_npu matches on pid-tid-ts too.
        long ts = ns(e.ts, "ts");
        int kind = flowKind(e.cat);
        if (kind >= 0) {
            flows.end(kind, e.pid, e.tid, ts, flowId());
        }
    }

    private long flowId() {
        return e.id.valueKnown ? e.id.value : flows.id(e.id.buf, 0, e.id.len);
    }

    private static int flowKind(String cat) {
        return switch (cat) {
            case "async_npu" -> FlowIndex.ASYNC;
            case "HostToDevice" -> FlowIndex.H2D;
            default -> -1;
        };
    }

    /** The launch of a device event: the framework op (async_npu) first, else the CANN launch. */

    /**
     * {@code threadName} of (pid, tid) without building the key string per event. Only asked for events
     * of processes whose metadata is final (the one-pass read falls back to two passes when metadata
     * of a process arrives after its events), so the answer can be cached.
     */
    private String threadNameOf(String pid, String tid) {
        Map<String, String> byTid = threadNameCache.computeIfAbsent(pid, k -> new HashMap<>());
        String name = byTid.get(tid);
        if (name == null) {
            String found = threadName.get(pid + "|" + tid);
            name = found == null ? NO_NAME : found;
            byTid.put(tid, name);
        }
        return name == NO_NAME ? null : name;
    }

    private static final String NO_NAME = new String("\u0000none");
    private final Map<String, Map<String, String>> threadNameCache = new HashMap<>();
    private List<RankTrace> build() {
        DeviceEventTable d = deviceEvents;
        Set<String> devicePids = new LinkedHashSet<>(d.pids());
        devicePids.addAll(commStreams.keySet());
        ProcessDevices devices = new ProcessDevices(devicePids, processName, processLabel, processSortIndex);
        d.assignDevices(devices::of);
        warnings.addAll(devices.warnings());
        Map<Integer, Set<Long>> commStreamsByDevice = new HashMap<>();
        for (Map.Entry<String, Set<Long>> c : commStreams.entrySet()) {
            commStreamsByDevice.computeIfAbsent(devices.of(c.getKey()), k -> new HashSet<>()).addAll(c.getValue());
        }
        Map<Integer, RankAssembler> byDevice = new TreeMap<>();
        for (int i = 0; i < d.size(); i++) {
            byDevice.computeIfAbsent(d.device(i), k -> new RankAssembler());
        }
        if (byDevice.isEmpty()) {
            byDevice.put(0, new RankAssembler());
        }
        List<RankTrace> out = new ArrayList<>();
        boolean typesResolved = false;
        boolean aiCoreTyped = false;
        boolean anyUnresolved = false;
        for (int i = 0; i < d.size(); i++) {
            if (d.role(i) == DeviceEventTable.TASK) {
                String type = d.taskType(i);
                typesResolved |= type != null && !TaskKinds.UNRESOLVED.equals(type);
                aiCoreTyped |= type != null && TaskKinds.AI_CORE.contains(type);
                anyUnresolved |= TaskKinds.UNRESOLVED.equals(type);
                if (aiCoreTyped) {
                    break; // the types are resolved: the usual file stops at its first kernel
                }
            }
        }
        boolean unresolvedIsCompute = anyUnresolved && !aiCoreTyped;
        KernelRules rules = KernelRules.current();
        for (Map.Entry<Integer, RankAssembler> entry : byDevice.entrySet()) {
            int dev = entry.getKey();
            RankAssembler a = entry.getValue();
            a.hostOpsPresent = hostOpsPresent;
            for (Map.Entry<Long, String> t : hostThreads.entrySet()) {
                a.thread(t.getKey(), t.getValue());
            }
            for (long[] h : hostOps) {
                a.hostOp(hostOpNames.get((int) h[3]), h[0], h[1], h[2]);
            }
            Set<Long> comm = commStreamsByDevice.getOrDefault(dev, Set.of());
            for (int i = 0; i < d.size(); i++) {
                if (d.device(i) != dev) {
                    continue;
                }
                byte role = d.role(i);
                long[] launch = role == DeviceEventTable.OVERLAP ? null : flows.launchOf(d.pid(i), d.tid(i), d.start(i));
                long launchNs = launch == null ? Time.UNKNOWN : launch[1];
                long launchTid = launch == null ? -1 : launch[0];
                if (role == DeviceEventTable.TASK) {
                    DeviceKind kind = TaskKinds.ofTaskType(d.taskType(i), d.name(i), unresolvedIsCompute);
                    if (kind == DeviceKind.COMPUTE && comm.contains(d.stream(i))) {
                        kind = DeviceKind.OTHER; // the communication stream's tasks are not compute
                    } else if (kind == DeviceKind.COMPUTE) {
                        kind = rules.kindOfComputeTask(d.name(i)); // MC² operators are fused
                    }
                    a.task(a.lane(dev, d.stream(i), d.lane(i)), d.start(i), d.end(i), kind, d.name(i), launchNs,
                            launchTid);
                } else if (role == DeviceEventTable.COLLECTIVE) {
                    DeviceEventTable.Rare r = d.rare(i);
                    a.collective(a.lane(dev, -1, d.lane(i)), d.start(i), d.end(i), d.name(i), r.groupKey(), d.lane(i),
                            r.dtype(), r.count(), launchNs, launchTid);
                } else {
                    a.overlapEvent(d.rare(i).overlapType(), d.start(i), d.end(i));
                }
            }
            a.warnings.addAll(warnings);
            if (a.device.size() > 0 && unresolvedIsCompute) {
                a.warnings.add("device tasks of \"Task Type\" \"Other\" counted as compute: no task is typed as AI Core"
                        + " work (an older profiler left those types unresolved), and the profiler's own Computing"
                        + " lane counts them");
            } else if (a.device.size() > 0 && !typesResolved) {
                a.warnings.add("device tasks carry no known \"Task Type\": none counted as compute");
            }
            RankInfo info = rankOfDevice.apply(dev);
            if (info.warning() != null) {
                a.warnings.add(info.warning());
            }
            out.add(a.build(source, TraceFormat.ASCEND, info.rank(), info.source(), -1, truncated,
                    parts.get(0).getFileName() + " Overlap Analysis lane"));
        }
        return out;
    }

    private TraceFormatException bad(String field, String value) {
        return new TraceFormatException(file + ": event " + eventNumber + ": \"" + field + "\" is not a number of"
                + " microseconds: " + (value == null ? "missing" : "\"" + abbreviate(value) + "\""));
    }

    private long ns(EventFields.Slice text, String field) throws TraceFormatException {
        if (!text.present) {
            if ("dur".equals(field)) {
                return 0;
            }
            throw bad(field, null);
        }
        if (text.valueKnown) {
            return text.value;
        }
        try {
            return DecimalMicros.toNanos(text.buf, 0, text.len);
        } catch (NumberFormatException ex) {
            throw bad(field, text.text());
        }
    }

    private long longOf(String text, String field) throws TraceFormatException {
        if (text == null) {
            return -1;
        }
        // tids repeat, as the same String (TextCache, Utf8NameTable), a few of them in turn (the
        // host thread's flows, then the stream's kernels): a small cache by identity
        int slot = text.hashCode() & (LONG_CACHE - 1);
        if (longTexts[slot] == text) {
            return longValues[slot];
        }
        try {
            long v = Long.parseLong(text);
            longTexts[slot] = text;
            longValues[slot] = v;
            return v;
        } catch (NumberFormatException ex) {
            try {
                return new java.math.BigDecimal(text).longValueExact();
            } catch (NumberFormatException | ArithmeticException ex2) {
                throw new TraceFormatException(file + ": event " + eventNumber + ": \"" + field + "\" is not an integer: \""
                        + abbreviate(text) + "\"");
            }
        }
    }

    private static final int LONG_CACHE = 8;
    private final String[] longTexts = new String[LONG_CACHE];
    private final long[] longValues = new long[LONG_CACHE];

    private static String abbreviate(String s) {
        return s.length() > 40 ? s.substring(0, 40) + "..." : s;
    }

    private static String firstLine(String s) {
        if (s == null) {
            return "unknown error";
        }
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }
}
