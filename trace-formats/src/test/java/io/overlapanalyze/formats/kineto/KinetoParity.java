package io.overlapanalyze.formats.kineto;

import io.overlapanalyze.formats.input.InputLimits;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.overlapanalyze.formats.input.TraceFormatException;
import io.overlapanalyze.formats.json.ParallelArrayScan;
import io.overlapanalyze.formats.json.Utf8JsonScanner;
import io.overlapanalyze.formats.json.Utf8JsonScanner.Unsupported;
import io.overlapanalyze.formats.json.Utf8NameTable;
import io.overlapanalyze.model.Collective;
import io.overlapanalyze.model.DeviceIntervals;
import io.overlapanalyze.model.HostSpan;
import io.overlapanalyze.model.HostThread;
import io.overlapanalyze.model.Lane;
import io.overlapanalyze.model.MemorySamples;
import io.overlapanalyze.model.ProcessGroup;
import io.overlapanalyze.model.RankTrace;
import io.overlapanalyze.model.ReferenceOverlap;
import io.overlapanalyze.model.StreamWait;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.lang.reflect.Field;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The harness of the Kineto scanner parity tests: the reference is always the Jackson path
 * ({@link KinetoReader#readWithJackson}, {@link EventHolder#read}); the fast path must give exactly
 * its result or throw {@link Unsupported}.
 *
 * <p>Two levels are compared. The <b>model</b>: a {@link RankTrace} rendered to a canonical text
 * ({@link #dump}) with every column of every row. The <b>events</b>: the field values
 * {@link ByteEventReader} puts into the {@link EventHolder} for each event, against those
 * {@link EventHolder#read} puts there from Jackson's token stream ({@link #jacksonEvents},
 * {@link #scannerEvents}); this catches differences in fields the model does not keep exactly
 * (the raw {@code Process Group Ranks} text, {@code Group size}, ...).
 */
final class KinetoParity {
    /** What a fast-path read gives when it declines the input. */
    static final String UNSUPPORTED = "<Unsupported>";

    private KinetoParity() {
    }

    // ------------------------------------------------------------------ model level

    /** The reference: {@link KinetoReader#readWithJackson}, as a dump or the exception's class and message. */
    static String jackson(Path file) {
        return jackson(file, InputLimits.DEFAULT);
    }

    /** As {@link #jackson(Path)}, under these input limits. */
    static String jackson(Path file, InputLimits limits) {
        return outcome(() -> reader(limits).readWithJackson(file), false);
    }

    private static KinetoReader reader(InputLimits limits) {
        return new KinetoReader(new io.overlapanalyze.formats.kernels.KernelClassifier(), limits);
    }

    /** The public API ({@link KinetoReader#read}: fast path, falling back to Jackson). */
    static String publicRead(Path file) {
        return publicRead(file, InputLimits.DEFAULT);
    }

    /** As {@link #publicRead(Path)}, under these input limits. */
    static String publicRead(Path file, InputLimits limits) {
        return outcome(() -> {
            List<RankTrace> l = reader(limits).read(file);
            if (l.size() == 1) {
                return l.get(0);
            }
            // Several devices: read(Path) must be the reference model split per device.
            RankTrace whole = reader(limits).readWithJackson(file);
            assertEquals(dumpAll(DeviceSplit.split(whole)), dumpAll(l), file + ": one rank per device");
            return whole;
        }, false);
    }

    private static String dumpAll(List<RankTrace> ranks) {
        StringBuilder sb = new StringBuilder();
        for (RankTrace t : ranks) {
            sb.append(dump(t)).append("----\n");
        }
        return sb.toString();
    }

    /** The fast path; {@link #UNSUPPORTED} when it declines. {@code chunkBytes} 0: one thread. */
    static String scanner(Path file, int chunkBytes, int threads) {
        return scanner(file, chunkBytes, threads, InputLimits.DEFAULT);
    }

    /** As {@link #scanner(Path, int, int)}, under these input limits. */
    static String scanner(Path file, int chunkBytes, int threads, InputLimits limits) {
        return outcome(() -> reader(limits).readWithScanner(file, chunkBytes, threads), true);
    }

    /** A read of one trace, by whichever path. */
    interface Read {
        RankTrace read() throws Exception;
    }

    /**
     * The outcome of {@code r} as one comparable text: the dump, or the exception's kind and
     * message; {@link #UNSUPPORTED} when the fast path ({@code scannerPath}) declines.
     */
    static String outcome(Read r, boolean scannerPath) {
        try {
            return dump(r.read());
        } catch (Unsupported e) {
            if (scannerPath) {
                return UNSUPPORTED;
            }
            throw new AssertionError("Unsupported escaped a reference or public read: " + e.getMessage(), e);
        } catch (TraceFormatException e) {
            return "TraceFormatException: " + e.getMessage();
        } catch (Exception e) {
            // IOExceptions and runtime failures: the scanner path must match them exactly too.
            return "EXCEPTION " + e.getClass().getName() + ": " + e.getMessage();
        }
    }

    /** A canonical text of every part of a trace (strings escaped, one item per line). */
    static String dump(RankTrace t) {
        List<String> lines = new ArrayList<>();
        lines.add("source=" + t.source());
        lines.add("format=" + t.format() + " rank=" + t.rank() + " rankSource=" + t.rankSource()
                + " worldSize=" + t.worldSize() + " deviceNames=" + escape(String.valueOf(new java.util.TreeMap<>(t.deviceNames())))
                + " hostOpsPresent=" + t.hostOpsPresent()
                + " truncated=" + t.truncated());
        lines.add("lanes " + t.lanes().size());
        for (Lane l : t.lanes()) {
            lines.add("  lane " + l.index() + " dev=" + l.device() + " stream=" + l.stream() + " label=" + l.label());
        }
        DeviceIntervals d = t.device();
        lines.add("device " + d.size() + " names=" + d.names().size());
        for (int i = 0; i < d.size(); i++) {
            lines.add("  " + i + " [" + d.start(i) + "," + d.end(i) + ") lane=" + d.lane(i) + " kind=" + d.kind(i)
                    + " name#" + d.nameId(i) + "=" + d.name(i) + " launch=" + d.launchNs(i) + "@" + d.launchThread(i)
                    + " coll=" + d.collective(i) + " shape=" + d.shape(i));
        }
        lines.add("hostSpans " + t.hostSpans().size());
        for (HostSpan s : t.hostSpans()) {
            lines.add("  " + s.kind() + " " + s.name() + " [" + s.startNs() + "," + s.endNs() + ") tid=" + s.threadId());
        }
        lines.add("threads " + t.threads().size());
        for (HostThread h : t.threads()) {
            lines.add("  " + h.threadId() + " autograd=" + h.autograd() + " names=" + h.names());
        }
        lines.add("collectives " + t.collectives().size());
        for (Collective c : t.collectives()) {
            lines.add("  " + c.id() + " " + c.type() + " name=" + c.name() + " group=" + group(c.group())
                    + " seq=" + c.sequence() + " in=" + c.inElements() + " out=" + c.outElements()
                    + " dtype=" + c.dtype() + " bytes=" + c.bytes() + " enqueue=" + c.enqueueNs()
                    + " tid=" + c.threadId() + " intervals=" + Arrays.toString(c.deviceIntervals()));
        }
        lines.add("groups " + t.groups().size());
        for (ProcessGroup g : t.groups()) {
            lines.add("  " + group(g));
        }
        lines.add("unmatchedLaunchNs " + Arrays.toString(t.unmatchedLaunchNs()));
        lines.add("warnings " + t.warnings().size());
        for (String w : t.warnings()) {
            lines.add("  " + w);
        }
        lines.add("streamWaits " + t.streamWaits().size());
        for (StreamWait w : t.streamWaits()) {
            lines.add("  waiting=" + w.waitingLane() + " wait=" + w.waitNs() + " submit=" + w.submitNs()
                    + " recorded=" + w.recordedLane() + " recordHost=" + w.recordHostNs());
        }
        lines.add("referenceOverlap " + t.referenceOverlap().size());
        for (ReferenceOverlap r : t.referenceOverlap()) {
            lines.add("  " + r);
        }
        lines.add("annotations " + t.annotations().size());
        for (io.overlapanalyze.model.Annotation a : t.annotations()) {
            lines.add("  " + a.name() + " [" + a.startNs() + ", " + a.endNs() + ") lane=" + a.lane() + " tid="
                    + a.threadId() + " intervals=" + Arrays.toString(a.intervals()));
        }
        MemorySamples m = t.memory();
        lines.add("memory " + m.size());
        for (int i = 0; i < m.size(); i++) {
            lines.add("  t=" + m.timeNs(i) + " total=" + m.totalAllocated(i) + " dev=" + m.device(i));
        }
        StringBuilder sb = new StringBuilder();
        for (String line : lines) {
            sb.append(escape(line)).append('\n');
        }
        return sb.toString();
    }

    private static String group(ProcessGroup g) {
        return g == null ? "null" : "(name=" + g.name() + " desc=" + g.description() + " ranks=" + g.ranks() + ")";
    }

    /** Control characters, non-ASCII and the escape character itself as {@code \}{@code uXXXX}: one line, unambiguous. */
    static String escape(String s) {
        int i = 0;
        while (i < s.length() && s.charAt(i) >= 0x20 && s.charAt(i) <= 0x7e && s.charAt(i) != '\\') {
            i++;
        }
        if (i == s.length()) {
            return s;
        }
        StringBuilder sb = new StringBuilder(s.length() + 16).append(s, 0, i);
        for (; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x20 || c > 0x7e || c == '\\') {
                sb.append("\\u").append(HEX[c >> 12]).append(HEX[(c >> 8) & 15]).append(HEX[(c >> 4) & 15]).append(HEX[c & 15]);
            } else {
                sb.append(c);
            }
        }
        return sb.toString();
    }

    private static final char[] HEX = "0123456789abcdef".toCharArray();

    // ------------------------------------------------------------------ event level

    private static JsonFactory factory;

    /** KinetoReader's own Jackson factory (the same features as the reference path), by reflection. */
    static synchronized JsonFactory factory() {
        if (factory != null) {
            return factory;
        }
        try {
            Field f = KinetoReader.class.getDeclaredField("FACTORY");
            f.setAccessible(true);
            factory = (JsonFactory) f.get(null);
            return factory;
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }

    /**
     * Every field of an event holder as one line. {@code tsNs}/{@code durNs} are shown only with
     * {@code hasTs}/{@code hasDur}: when the time is null the Jackson path leaves the value of an
     * earlier time there and the byte path leaves 0, and {@link TraceCollector} reads neither then.
     */
    static String fingerprint(EventHolder e) {
        return escape("fields=" + e.fieldCount + " ph=" + e.ph + " cat=" + e.cat + " name=" + e.name
                + " pid=" + e.hasPid + "/" + e.pidIsNumber + "/" + e.pid
                + " tid=" + e.tidIsNumber + "/" + e.tid
                + " ts=" + (e.hasTs ? String.valueOf(e.tsNs) : "-")
                + " dur=" + (e.hasDur ? String.valueOf(e.durNs) : "-")
                + " args=" + e.hasArgs + " corr=" + e.correlation + " ext=" + e.externalId + " stream=" + e.stream
                + " argName=" + e.argName + " sync=" + e.syncKind + " waitOn=" + e.waitOnStream
                + " waitRec=" + e.waitRecordCorrelation + " coll=" + e.collName + " in=" + e.inElems
                + " out=" + e.outElems + " dtype=" + e.dtype + " gsize=" + e.groupSize + " pg=" + e.pgName
                + " pgDesc=" + e.pgDesc + " pgRanks=" + e.pgRanks + " seq=" + e.seq + " memType=" + e.memDeviceType
                + " memDev=" + e.memDeviceId + " memTotal=" + e.memTotalAllocated
                + " grid=" + e.gridX + "," + e.gridY + "," + e.gridZ + " block=" + e.blockX + "," + e.blockY + "," + e.blockZ
                + " timeOutOfRange=" + e.timeOutOfRange);
    }

    /**
     * The reference event stream: Jackson's token stream over {@code doc}, each event read by
     * {@link EventHolder#read} (as {@code KinetoReader}'s Jackson path does), headers by
     * {@link DistributedInfo#read} and {@link JsonValues#lenientLong}. Any failure is given as one
     * line starting with "ERROR".
     */
    static List<String> jacksonEvents(byte[] doc) {
        List<String> out = new ArrayList<>();
        try (JsonParser p = factory().createParser(doc)) {
            JsonToken t = p.nextToken();
            if (t != JsonToken.START_OBJECT) {
                throw new IllegalStateException("top-level " + t);
            }
            EventHolder h = new EventHolder();
            for (t = p.nextToken(); t != JsonToken.END_OBJECT; t = p.nextToken()) {
                if (t == null) {
                    throw new IllegalStateException("end of input");
                }
                String key = p.currentName();
                JsonToken v = p.nextToken();
                switch (key) {
                    case "traceEvents" -> {
                        if (v != JsonToken.START_ARRAY) {
                            throw new IllegalStateException("traceEvents " + v);
                        }
                        out.add("[");
                        for (JsonToken e = p.nextToken(); e != JsonToken.END_ARRAY; e = p.nextToken()) {
                            if (e == JsonToken.VALUE_NULL) {
                                out.add("null");
                            } else if (e == JsonToken.START_OBJECT) {
                                h.read(p);
                                out.add(fingerprint(h));
                            } else {
                                throw new IllegalStateException("event " + e);
                            }
                        }
                        out.add("]");
                    }
                    case "distributedInfo" -> out.add("distributedInfo=" + escape(String.valueOf(DistributedInfo.read(p))));
                    case "baseTimeNanoseconds" -> out.add("base=" + base(p, v));
                    case "deviceProperties" -> out.add("deviceProperties=" + escape(String.valueOf(
                            new java.util.TreeMap<>(DeviceProperties.read(p)))));
                    default -> p.skipChildren();
                }
            }
        } catch (Exception e) {
            return List.of("ERROR " + e.getClass().getSimpleName() + ": " + e.getMessage());
        }
        return out;
    }

    private static String base(JsonParser p, JsonToken v) throws IOException {
        if (v == JsonToken.VALUE_NULL) {
            return "null";
        }
        long n = JsonValues.lenientLong(p);
        if (n == JsonValues.NONE) {
            throw new IllegalStateException("base is not an integer");
        }
        return String.valueOf(n);
    }

    /**
     * The fast path's event stream over {@code doc} ({@code null} when it declines), one scanner
     * reading the bytes through {@code in}. With {@code normalizeIgnored}, events the collector
     * ignores are given as "ignored" (the parallel scan keeps no copy of them).
     */
    static List<String> scannerEvents(java.io.InputStream in, boolean normalizeIgnored) throws IOException {
        Recorder r = new Recorder(normalizeIgnored);
        try {
            new ByteEventReader(new Utf8JsonScanner(in), r, new EventHolder(), new Utf8NameTable()).readDocument(null);
        } catch (Unsupported e) {
            return null;
        } catch (BadTraceException e) {
            return null; // a header the Jackson path refuses: the reader's session makes it Unsupported too
        }
        return r.out;
    }

    static List<String> scannerEvents(byte[] doc) throws IOException {
        return scannerEvents(new ByteArrayInputStream(doc), false);
    }

    /**
     * The events array of a plain file scanned by {@link ParallelArrayScan} (cut into chunks of
     * {@code chunkBytes}), as the reader's session would receive them; ignored events normalized.
     * Throws {@link ParallelArrayScan.Resequence} or {@link Unsupported} as the scan does.
     */
    static List<String> parallelEvents(Path file, int chunkBytes, int threads) throws IOException {
        Recorder r = new Recorder(true);
        try (java.io.InputStream in = Files.newInputStream(file);
             ParallelArrayScan scan = new ParallelArrayScan(file, Files.size(file), chunkBytes, threads)) {
            new ByteEventReader(new Utf8JsonScanner(in), r, new EventHolder(), new Utf8NameTable()).readDocument(scan);
        }
        return r.out;
    }

    /** Records what the fast path hands a reader session. */
    static final class Recorder implements ByteEventReader.Sink {
        final List<String> out = new ArrayList<>();
        private final boolean normalizeIgnored;

        Recorder(boolean normalizeIgnored) {
            this.normalizeIgnored = normalizeIgnored;
        }

        @Override
        public void traceEventsStart() {
            out.add("[");
        }

        @Override
        public void event(EventHolder e) {
            out.add(normalizeIgnored && TraceCollector.ignores(e) ? "ignored" : fingerprint(e));
        }

        @Override
        public void rehearse(EventHolder e) {
            // no effect on the trace
        }

        @Override
        public void ignoredEvent() {
            if (!normalizeIgnored) {
                throw new AssertionError("the sequential scan reported an ignored event");
            }
            out.add("ignored");
        }

        @Override
        public void nullEvent() {
            out.add("null");
        }

        @Override
        public void traceEventsEnd() {
            out.add("]");
        }

        @Override
        public void header(String key, byte[] value) throws IOException {
            try (JsonParser hp = factory().createParser(value)) {
                JsonToken t = hp.nextToken();
                if ("distributedInfo".equals(key)) {
                    out.add("distributedInfo=" + escape(String.valueOf(DistributedInfo.read(hp))));
                } else if ("deviceProperties".equals(key)) {
                    out.add("deviceProperties=" + escape(String.valueOf(new java.util.TreeMap<>(DeviceProperties.read(hp)))));
                } else {
                    String b;
                    try {
                        b = base(hp, t);
                    } catch (IllegalStateException e) {
                        throw new Unsupported(e.getMessage()); // the reader words it on the Jackson path
                    }
                    out.add("base=" + b);
                }
            }
        }
    }

    // ------------------------------------------------------------------ checking many inputs

    /** What the fast path must do with an input: take it, decline it, or either (parity either way). */
    enum Expect {
        ACCEPT, UNSUPPORTED, EITHER
    }

    /** The first line where two dumps differ, with both versions (the whole dumps can be long). */
    static String firstDifference(String expected, String actual) {
        String[] a = expected.split("\n", -1);
        String[] b = actual.split("\n", -1);
        for (int i = 0; i < Math.max(a.length, b.length); i++) {
            String x = i < a.length ? a[i] : "<end>";
            String y = i < b.length ? b[i] : "<end>";
            if (!x.equals(y)) {
                return "line " + (i + 1) + ":\n    jackson: " + shorten(x) + "\n    scanner: " + shorten(y);
            }
        }
        return "equal";
    }

    private static String shorten(String s) {
        return s.length() > 400 ? s.substring(0, 400) + "..." : s;
    }

    /**
     * Checks inputs against the reference and collects every failure (so that one run lists them
     * all), with counts of what the fast path did.
     */
    static final class Checker {
        private final Path dir;
        final List<String> failures = new ArrayList<>();
        int cases;
        int accepted;
        int declined;
        int jacksonFailed;
        int parallelRuns;
        int eventStreams;
        /** Whether the fast path took the last input checked. */
        boolean lastTook;
        private int fileNumber;

        Checker(Path dir) {
            this.dir = dir;
        }

        /** Also read with the public API when the fast path took the input (then it is the same read). */
        boolean publicWhenTaken = true;
        /** Also scan the events with the input arriving a few bytes per read. */
        boolean trickle = true;

        /**
         * Writes {@code doc} to a fresh plain file and checks it (model, events, parallel with
         * {@code chunks}); returns the reference outcome. (A fresh name each time: rewriting a
         * file in place makes ext4 flush it on close, 2 ms a write.)
         */
        String check(String name, byte[] doc, Expect expect, int... chunks) throws IOException {
            Path f = dir.resolve("case-" + fileNumber++ + ".json");
            Files.write(f, doc);
            try {
                return checkFile(name, f, doc, expect, chunks);
            } finally {
                Files.delete(f);
            }
        }

        /** As {@link #check} without the event-level comparison. */
        String checkModel(String name, byte[] doc, Expect expect, int... chunks) throws IOException {
            Path f = dir.resolve("case-" + fileNumber++ + ".json");
            Files.write(f, doc);
            try {
                return checkFile(name, f, null, expect, chunks);
            } finally {
                Files.delete(f);
            }
        }

        /**
         * The parallel scan of {@code plain} (a decompressed copy of a file already checked)
         * against that file's reference dump, the source line aside.
         */
        void checkParallel(String name, Path plain, String reference, int... chunks) {
            for (int k = 0; k < chunks.length; k++) {
                parallelRuns++;
                int threads = 2 + k % 2;
                String par = scanner(plain, chunks[k], threads);
                if (!withoutSource(par).equals(withoutSource(reference))) {
                    failures.add(name + ": parallel (chunks of " + chunks[k] + " bytes, " + threads + " threads) differs"
                            + (par.equals(UNSUPPORTED) ? " (declined)" : " at " + firstDifference(reference, par)));
                }
            }
        }

        private static String withoutSource(String dump) {
            return dump.startsWith("source=") ? dump.substring(dump.indexOf('\n') + 1) : dump;
        }

        /**
         * Checks one file. {@code doc} is its decompressed content (for the event-level comparison;
         * {@code null} to skip it); {@code chunks} are parallel chunk sizes to try (plain files only),
         * each with 2 and 3 threads alternately.
         */
        String checkFile(String name, Path f, byte[] doc, Expect expect, int... chunks) throws IOException {
            cases++;
            String ref = jackson(f);
            boolean refIsTrace = ref.startsWith("source=");
            if (!refIsTrace) {
                jacksonFailed++;
            }
            String seq = scanner(f, 0, 1);
            boolean took = !seq.equals(UNSUPPORTED);
            lastTook = took;
            if (!took || publicWhenTaken) {
                String pub = publicRead(f);
                if (!ref.equals(pub)) {
                    failures.add(name + ": read(Path) differs from readWithJackson at " + firstDifference(ref, pub));
                }
            }
            if (took) {
                accepted++;
                if (!ref.equals(seq)) {
                    failures.add(name + ": the scanner path accepted it with a different result at "
                            + firstDifference(ref, seq));
                }
                if (expect == Expect.UNSUPPORTED) {
                    failures.add(name + ": expected Unsupported on the scanner path, it was accepted");
                }
            } else {
                declined++;
                if (expect == Expect.ACCEPT) {
                    failures.add(name + ": expected the scanner path to take it, it declined (Jackson: "
                            + shorten(ref.lines().findFirst().orElse("")) + ")");
                }
            }
            if (doc != null) {
                eventStreams++;
                List<String> events = scannerEvents(doc);
                if (events != null) {
                    List<String> refEvents = jacksonEvents(doc);
                    if (!refEvents.equals(events)) {
                        failures.add(name + ": event fields differ: " + firstDifference(String.join("\n", refEvents),
                                String.join("\n", events)));
                    }
                    if (trickle && doc.length < 50_000) {
                        List<String> trickled = scannerEvents(new io.overlapanalyze.formats.json.TrickleInputStream(
                                doc, doc.length, 9), false);
                        if (!events.equals(trickled)) {
                            failures.add(name + ": events differ when the input arrives a few bytes at a time");
                        }
                    }
                } else if (took) {
                    failures.add(name + ": the event scan declined what the reader's scanner path took");
                }
            }
            for (int k = 0; k < chunks.length; k++) {
                parallelRuns++;
                int threads = 2 + k % 2;
                String par = scanner(f, chunks[k], threads);
                if (!par.equals(seq)) {
                    failures.add(name + ": parallel (chunks of " + chunks[k] + " bytes, " + threads
                            + " threads) differs from the sequential scan"
                            + (par == UNSUPPORTED || seq == UNSUPPORTED ? " (" + (par == UNSUPPORTED ? "parallel" : "sequential")
                            + " declined)" : " at " + firstDifference(seq, par)));
                }
            }
            return ref;
        }

        void assertNoFailures(String what) {
            System.out.println(what + ": " + summary());
            if (!failures.isEmpty()) {
                StringBuilder sb = new StringBuilder(failures.size() + " failure(s) in " + what + ":");
                for (String f : failures.subList(0, Math.min(25, failures.size()))) {
                    sb.append("\n- ").append(f);
                }
                throw new AssertionError(sb.toString());
            }
        }

        String summary() {
            return cases + " inputs: scanner took " + accepted + ", declined " + declined + "; Jackson refused or failed "
                    + jacksonFailed + "; " + eventStreams + " event-level comparisons; " + parallelRuns + " parallel reads";
        }
    }
}
