package io.overlapanalyze.crossrank.digest;

import io.overlapanalyze.crossrank.RankInput;
import io.overlapanalyze.model.Collective;
import io.overlapanalyze.model.CollectiveType;
import io.overlapanalyze.model.DeviceIntervals;
import io.overlapanalyze.model.DeviceKind;
import io.overlapanalyze.model.HostSpan;
import io.overlapanalyze.model.HostSpanKind;
import io.overlapanalyze.model.HostThread;
import io.overlapanalyze.model.Lane;
import io.overlapanalyze.model.MemorySamples;
import io.overlapanalyze.model.ProcessGroup;
import io.overlapanalyze.model.RankSource;
import io.overlapanalyze.model.RankTrace;
import io.overlapanalyze.model.StringPool;
import io.overlapanalyze.model.TraceFormat;
import io.overlapanalyze.report.Attribution;
import io.overlapanalyze.report.BoundBy;
import io.overlapanalyze.report.ChainLink;
import io.overlapanalyze.report.RankReport;
import io.overlapanalyze.report.StepReport;
import io.overlapanalyze.report.TailKind;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The binary form of a digest {@link RankInput}: a string table and a process-group table (every
 * collective of a group names the same members; a 64-rank group written per collective would be
 * most of the bytes), then the trace and the reduced report. Integers are zig-zag varints; times
 * are deltas (start from the previous start, end and launch from the start), taken in wrapping
 * long arithmetic so that {@code Time.UNKNOWN} and any other value come back exactly. Enum values
 * are written by name, through the string table (each name once per digest, then a one-byte
 * index like any repeated string), and read back through a per-digest table of the index's value.
 *
 * <p>A digest lives only within the run that made it: a Spark task encodes it and the driver of the
 * same job, from the same jar, decodes it; nothing writes one to a file that outlives the run. So a
 * change of encoding needs no reader of the old one: {@link #FORMAT} only refuses a mismatch.
 */
final class DigestCodec {
    // 2: steps carry their device window; 3: enum values by name (in the string table), not ordinal,
    // so that reordering or inserting a constant cannot make a digest decode as another value.
    private static final int FORMAT = 3;

    private DigestCodec() {
    }

    static byte[] encode(RankInput digest) {
        Writer w = new Writer();
        try {
            writeTrace(w, digest.trace());
            writeReport(w, digest.report());
            return w.finish();
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a byte array does not fail
        }
    }

    /** Decodes a digest, its strings and process groups taken from {@code shared} (a job's ranks share them). */
    static RankInput decode(byte[] bytes, SharedValues shared) {
        try {
            Reader r = new Reader(bytes, shared);
            RankTrace trace = readTrace(r);
            RankReport report = readReport(r);
            return new RankInput(trace, report);
        } catch (IOException e) {
            throw new UncheckedIOException("corrupt rank digest", e);
        }
    }

    private static void writeTrace(Writer w, RankTrace t) throws IOException {
        w.str(t.source());
        w.name(t.format());
        w.num(t.rank());
        w.name(t.rankSource());
        w.num(t.worldSize());
        w.num(t.hostOpsPresent() ? 1 : 0);
        w.num(t.truncated() ? 1 : 0);
        w.str(t.commUnclassified());
        w.num(t.lanes().size());
        for (Lane l : t.lanes()) {
            w.num(l.index());
            w.num(l.device());
            w.num(l.stream());
            w.str(l.label());
        }
        DeviceIntervals d = t.device();
        w.num(d.size());
        long prev = 0;
        for (int i = 0; i < d.size(); i++) {
            long s = d.start(i);
            w.num(s - prev);
            w.num(d.end(i) - s);
            w.num(d.lane(i));
            w.name(d.kind(i));
            w.str(d.name(i));
            w.num(d.launchNs(i) - s);
            w.num(d.launchThread(i));
            w.num(d.collective(i));
            w.num(d.preCapture(i) ? 1 : 0);
            prev = s;
        }
        w.num(t.hostSpans().size());
        prev = 0;
        for (HostSpan s : t.hostSpans()) {
            w.name(s.kind());
            w.str(s.name());
            w.num(s.startNs() - prev);
            w.num(s.endNs() - s.startNs());
            w.num(s.threadId());
            prev = s.startNs();
        }
        w.num(t.threads().size());
        for (HostThread h : t.threads()) {
            w.num(h.threadId());
            w.num(h.names().size());
            for (String n : h.names()) {
                w.str(n);
            }
            w.num(h.autograd() ? 1 : 0);
        }
        w.num(t.collectives().size());
        prev = 0;
        for (Collective c : t.collectives()) {
            w.num(c.id());
            w.name(c.type());
            w.str(c.name());
            w.group(c.group());
            w.num(c.sequence());
            w.num(c.inElements());
            w.num(c.outElements());
            w.str(c.dtype());
            w.num(c.bytes());
            w.num(c.enqueueNs() - prev);
            prev = c.enqueueNs();
            w.num(c.threadId());
            w.num(c.deviceIntervals().length);
            int last = 0;
            for (int i : c.deviceIntervals()) {
                w.num(i - last);
                last = i;
            }
        }
    }

    private static RankTrace readTrace(Reader r) throws IOException {
        String source = r.str();
        TraceFormat format = r.required(r.formats);
        int rank = r.integer();
        RankSource rankSource = r.required(r.rankSources);
        int worldSize = r.integer();
        boolean hostOps = r.integer() == 1;
        boolean truncated = r.integer() == 1;
        String commUnclassified = r.str();
        int n = r.integer();
        List<Lane> lanes = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            lanes.add(new Lane(r.integer(), r.integer(), r.num(), r.str()));
        }
        n = r.integer();
        DeviceIntervals d = new DeviceIntervals(new StringPool(), n);
        long prev = 0;
        for (int i = 0; i < n; i++) {
            long s = prev + r.num();
            long e = s + r.num();
            int lane = r.integer();
            DeviceKind kind = r.required(r.deviceKinds);
            String name = r.str();
            long launchNs = s + r.num();
            long launchThread = r.num();
            int at = d.add(s, e, lane, kind, name, launchNs, launchThread);
            d.setCollective(at, r.integer());
            if (r.integer() == 1) {
                d.markPreCapture(at);
            }
            prev = s;
        }
        d.trimToSize();
        n = r.integer();
        List<HostSpan> spans = new ArrayList<>(n);
        prev = 0;
        for (int i = 0; i < n; i++) {
            HostSpanKind kind = r.required(r.hostSpanKinds);
            String name = r.str();
            long s = prev + r.num();
            long e = s + r.num();
            spans.add(new HostSpan(kind, name, s, e, r.num()));
            prev = s;
        }
        n = r.integer();
        List<HostThread> threads = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            long id = r.num();
            int m = r.integer();
            List<String> names = new ArrayList<>(m);
            for (int j = 0; j < m; j++) {
                names.add(r.str());
            }
            threads.add(new HostThread(id, names, r.integer() == 1));
        }
        n = r.integer();
        List<Collective> collectives = new ArrayList<>(n);
        prev = 0;
        for (int i = 0; i < n; i++) {
            int id = r.integer();
            CollectiveType type = r.required(r.collectiveTypes);
            String name = r.str();
            ProcessGroup group = r.group();
            long sequence = r.num();
            long in = r.num();
            long out = r.num();
            String dtype = r.str();
            long size = r.num();
            long enqueueNs = prev + r.num();
            prev = enqueueNs;
            long threadId = r.num();
            int[] iv = new int[r.integer()];
            int last = 0;
            for (int j = 0; j < iv.length; j++) {
                last += r.integer();
                iv[j] = last;
            }
            collectives.add(new Collective(id, type, name, group, sequence, in, out, dtype, size, enqueueNs,
                    threadId, iv));
        }
        return new RankTrace(source, format, rank, rankSource, worldSize, lanes, d, spans, threads, collectives,
                List.of(), new long[0], hostOps, truncated, List.of(), List.of(), List.of(), MemorySamples.empty(),
                commUnclassified, List.of());
    }

    private static void writeReport(Writer w, RankReport r) throws IOException {
        w.num(r.rank());
        w.str(r.rankSource());
        w.str(r.source());
        w.str(r.format());
        w.optional(r.worldSize() == null ? null : r.worldSize().longValue());
        w.num(r.steps().size());
        for (StepReport s : r.steps()) {
            w.str(s.name());
            w.optional(s.tailNs());
            w.optional(s.deviceStartNs());
            w.optional(s.deviceStartNs() == null || s.deviceEndNs() == null ? null : s.deviceEndNs() - s.deviceStartNs());
            Attribution a = s.attribution();
            w.name(a.kind());
            w.num(a.chain().size());
            for (ChainLink c : a.chain()) {
                w.num(c.collective());
                w.str(c.type());
                w.optional(c.bytes());
                w.num(c.startNs());
                w.num(c.endNs() - c.startNs());
                w.optional(c.dataReadyNs());
                w.optional(c.enqueueNs());
                w.optional(c.queueFreeNs());
                w.name(c.boundBy());
            }
        }
    }

    private static RankReport readReport(Reader r) throws IOException {
        int rank = r.integer();
        String rankSource = r.str();
        String source = r.str();
        String format = r.str();
        Long world = r.optional();
        int n = r.integer();
        List<StepReport> steps = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            String name = r.str();
            Long tail = r.optional();
            Long windowStart = r.optional();
            Long windowLength = r.optional();
            Long windowEnd = windowStart == null || windowLength == null ? null : windowStart + windowLength;
            TailKind kind = r.required(r.tailKinds);
            int m = r.integer();
            List<ChainLink> chain = new ArrayList<>(m);
            for (int j = 0; j < m; j++) {
                int collective = r.integer();
                String type = r.str();
                Long bytes = r.optional();
                long start = r.num();
                long end = start + r.num();
                Long ready = r.optional();
                Long enqueue = r.optional();
                Long queueFree = r.optional();
                BoundBy bound = r.boundBys.read();
                chain.add(new ChainLink(collective, type, bytes, start, end, ready, enqueue, queueFree, bound));
            }
            StepReport step = StepReport.empty(name).withTailNs(tail).withAttribution(new Attribution(kind, chain));
            steps.add(windowStart == null || windowEnd == null ? step : step.withDeviceWindow(windowStart, windowEnd));
        }
        return new RankReport(rank, rankSource, source, format, world == null ? null : world.intValue(), steps, null,
                List.of(), List.of(), List.of(), null, List.of(), null, null, List.of(), null, null);
    }

    /** Writes the body, then prefixes it with the format and the two tables. */
    private static final class Writer {
        private final ByteArrayOutputStream body = new ByteArrayOutputStream();
        private final DataOutputStream out = new DataOutputStream(body);
        private final Map<String, Integer> strings = new LinkedHashMap<>();
        private final Map<ProcessGroup, Integer> groups = new LinkedHashMap<>();
        /** The same indexes by instance: a rank's collectives share a few groups, whose hash walks every member. */
        private final Map<ProcessGroup, Integer> groupByInstance = new IdentityHashMap<>();

        void num(long v) throws IOException {
            varint(out, (v << 1) ^ (v >> 63));
        }

        void optional(Long v) throws IOException {
            out.writeBoolean(v != null);
            if (v != null) {
                num(v);
            }
        }

        /** 0 for null, else 1 + the string's index in the table. */
        void str(String s) throws IOException {
            varint(out, s == null ? 0 : 1 + strings.computeIfAbsent(s, k -> strings.size()));
        }

        /** An enum value by its name (a string of the table, so each name is written once); null as 0. */
        void name(Enum<?> e) throws IOException {
            str(e == null ? null : e.name());
        }

        void group(ProcessGroup g) throws IOException {
            varint(out, g == null ? 0 : 1 + groupByInstance.computeIfAbsent(g,
                    k -> groups.computeIfAbsent(k, same -> groups.size())));
        }

        byte[] finish() throws IOException {
            out.flush();
            ByteArrayOutputStream all = new ByteArrayOutputStream(body.size() + 1024);
            DataOutputStream head = new DataOutputStream(all);
            varint(head, FORMAT);
            // Groups first: their strings join the table before it is written.
            ByteArrayOutputStream groupBytes = new ByteArrayOutputStream();
            DataOutputStream g = new DataOutputStream(groupBytes);
            varint(g, groups.size());
            for (ProcessGroup p : groups.keySet()) {
                varint(g, p.name() == null ? 0 : 1 + strings.computeIfAbsent(p.name(), k -> strings.size()));
                varint(g, p.description() == null ? 0
                        : 1 + strings.computeIfAbsent(p.description(), k -> strings.size()));
                varint(g, p.ranks().size());
                int last = 0;
                for (int rank : p.ranks()) {
                    varint(g, ((long) (rank - last) << 1) ^ ((rank - last) >> 31));
                    last = rank;
                }
            }
            g.flush();
            varint(head, strings.size());
            for (String s : strings.keySet()) {
                byte[] b = s.getBytes(StandardCharsets.UTF_8);
                varint(head, b.length);
                head.write(b);
            }
            head.write(groupBytes.toByteArray());
            head.write(body.toByteArray());
            head.flush();
            return all.toByteArray();
        }

        private static void varint(DataOutputStream out, long v) throws IOException {
            while ((v & ~0x7FL) != 0) {
                out.writeByte((int) ((v & 0x7F) | 0x80));
                v >>>= 7;
            }
            out.writeByte((int) v);
        }
    }

    private static final class Reader {
        private final DataInputStream in;
        private final String[] strings;
        private final ProcessGroup[] groups;
        final Names<TraceFormat> formats;
        final Names<RankSource> rankSources;
        final Names<DeviceKind> deviceKinds;
        final Names<HostSpanKind> hostSpanKinds;
        final Names<CollectiveType> collectiveTypes;
        final Names<TailKind> tailKinds;
        final Names<BoundBy> boundBys;

        Reader(byte[] bytes, SharedValues shared) throws IOException {
            in = new DataInputStream(new ByteArrayInputStream(bytes));
            long format = varint();
            if (format != FORMAT) {
                throw new IOException("rank digest encoding " + format + "; this build reads " + FORMAT);
            }
            strings = new String[(int) varint()];
            for (int i = 0; i < strings.length; i++) {
                byte[] b = new byte[(int) varint()];
                in.readFully(b);
                strings[i] = shared.of(new String(b, StandardCharsets.UTF_8));
            }
            groups = new ProcessGroup[(int) varint()];
            for (int i = 0; i < groups.length; i++) {
                String name = str();
                String description = str();
                int n = (int) varint();
                List<Integer> ranks = new ArrayList<>(n);
                int last = 0;
                for (int j = 0; j < n; j++) {
                    long z = varint();
                    last += (int) ((z >>> 1) ^ -(z & 1));
                    ranks.add(last);
                }
                groups[i] = shared.of(new ProcessGroup(name, description, ranks));
            }
            formats = new Names<>(TraceFormat.class);
            rankSources = new Names<>(RankSource.class);
            deviceKinds = new Names<>(DeviceKind.class);
            hostSpanKinds = new Names<>(HostSpanKind.class);
            collectiveTypes = new Names<>(CollectiveType.class);
            tailKinds = new Names<>(TailKind.class);
            boundBys = new Names<>(BoundBy.class);
        }

        /** An enum value that is never absent. */
        <E extends Enum<E>> E required(Names<E> names) throws IOException {
            E e = names.read();
            if (e == null) {
                throw new IOException(names.type.getSimpleName() + " missing");
            }
            return e;
        }

        /**
         * The values of one enum by string-table index, each name looked up once per digest: an interval's
         * kind costs an array read, as the ordinal did.
         */
        final class Names<E extends Enum<E>> {
            private final Class<E> type;
            private final Object[] byString = new Object[strings.length];

            Names(Class<E> type) {
                this.type = type;
            }

            /** The value written by {@link Writer#name}; null where null was written. */
            E read() throws IOException {
                int i = (int) varint();
                if (i == 0) {
                    return null;
                }
                if (i > strings.length) {
                    throw new IOException("string index " + i + " beyond the table of " + strings.length);
                }
                Object e = byString[i - 1];
                if (e == null) {
                    try {
                        e = Enum.valueOf(type, strings[i - 1]);
                    } catch (IllegalArgumentException unknown) {
                        throw new IOException("no " + type.getSimpleName() + " named " + strings[i - 1], unknown);
                    }
                    byString[i - 1] = e;
                }
                return type.cast(e);
            }
        }

        long num() throws IOException {
            long z = varint();
            return (z >>> 1) ^ -(z & 1);
        }

        int integer() throws IOException {
            return Math.toIntExact(num());
        }

        Long optional() throws IOException {
            return in.readBoolean() ? num() : null;
        }

        String str() throws IOException {
            int i = (int) varint();
            return i == 0 ? null : strings[i - 1];
        }

        ProcessGroup group() throws IOException {
            int i = (int) varint();
            return i == 0 ? null : groups[i - 1];
        }

        private long varint() throws IOException {
            long v = 0;
            for (int shift = 0; shift < 64; shift += 7) {
                int b = in.readUnsignedByte();
                v |= (long) (b & 0x7F) << shift;
                if ((b & 0x80) == 0) {
                    return v;
                }
            }
            throw new IOException("varint longer than 64 bits");
        }
    }
}
