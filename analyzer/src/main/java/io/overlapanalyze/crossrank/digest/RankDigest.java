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
import io.overlapanalyze.report.RankReport;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.ObjectOutputStream;
import java.io.Serial;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A rank's {@link CrossRankDigest} in a form that travels by Java serialization (a Spark task's
 * result): the pruned trace in a compact binary encoding (the model's columnar stores are not
 * serializable, and would carry their doubling slack), the reduced report as a serializable
 * record. {@link #toInput()} gives back a {@link RankInput} the cross-rank analysis reads as it
 * reads the digest itself.
 */
public final class RankDigest implements Serializable {
    @Serial
    private static final long serialVersionUID = 1L;
    private static final int FORMAT = 1;

    private final byte[] trace;
    private final RankReport report;

    private RankDigest(byte[] trace, RankReport report) {
        this.trace = trace;
        this.report = report;
    }

    /** Prunes one rank's full input ({@link CrossRankDigest#of}) and encodes it. */
    public static RankDigest of(RankInput full) {
        RankInput digest = CrossRankDigest.of(full);
        return new RankDigest(encode(digest.trace()), digest.report());
    }

    /** The rank id. */
    public int rank() {
        return report.rank();
    }

    /** The digest as an input of the cross-rank analysis (decoded anew on each call). */
    public RankInput toInput() {
        return new RankInput(decode(trace), report);
    }

    /** Bytes of this digest under Java serialization (what a task sends to the driver). */
    public long serializedBytes() {
        return serializedBytes(this);
    }

    /** Bytes of any serializable object under Java serialization. */
    public static long serializedBytes(Serializable o) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(o);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.size();
    }

    static byte[] encode(RankTrace t) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeInt(FORMAT);
            writeString(out, t.source());
            out.writeByte(t.format().ordinal());
            out.writeInt(t.rank());
            out.writeByte(t.rankSource().ordinal());
            out.writeInt(t.worldSize());
            out.writeBoolean(t.hostOpsPresent());
            out.writeBoolean(t.truncated());
            writeString(out, t.commUnclassified());
            out.writeInt(t.lanes().size());
            for (Lane l : t.lanes()) {
                out.writeInt(l.index());
                out.writeInt(l.device());
                out.writeLong(l.stream());
                writeString(out, l.label());
            }
            DeviceIntervals d = t.device();
            StringPool names = d.names();
            out.writeInt(names.size());
            for (int i = 0; i < names.size(); i++) {
                writeString(out, names.get(i));
            }
            out.writeInt(d.size());
            for (int i = 0; i < d.size(); i++) {
                out.writeLong(d.start(i));
                out.writeLong(d.end(i));
                out.writeInt(d.lane(i));
                out.writeByte(d.kind(i).ordinal());
                out.writeInt(d.nameId(i));
                out.writeLong(d.launchNs(i));
                out.writeLong(d.launchThread(i));
                out.writeInt(d.collective(i));
                out.writeBoolean(d.preCapture(i));
            }
            out.writeInt(t.hostSpans().size());
            for (HostSpan s : t.hostSpans()) {
                out.writeByte(s.kind().ordinal());
                writeString(out, s.name());
                out.writeLong(s.startNs());
                out.writeLong(s.endNs());
                out.writeLong(s.threadId());
            }
            out.writeInt(t.threads().size());
            for (HostThread h : t.threads()) {
                out.writeLong(h.threadId());
                out.writeInt(h.names().size());
                for (String n : h.names()) {
                    writeString(out, n);
                }
                out.writeBoolean(h.autograd());
            }
            out.writeInt(t.collectives().size());
            for (Collective c : t.collectives()) {
                out.writeInt(c.id());
                out.writeByte(c.type().ordinal());
                writeString(out, c.name());
                ProcessGroup g = c.group();
                out.writeBoolean(g != null);
                if (g != null) {
                    writeString(out, g.name());
                    writeString(out, g.description());
                    out.writeInt(g.ranks().size());
                    for (int r : g.ranks()) {
                        out.writeInt(r);
                    }
                }
                out.writeLong(c.sequence());
                out.writeLong(c.inElements());
                out.writeLong(c.outElements());
                writeString(out, c.dtype());
                out.writeLong(c.bytes());
                out.writeLong(c.enqueueNs());
                out.writeLong(c.threadId());
                out.writeInt(c.deviceIntervals().length);
                for (int i : c.deviceIntervals()) {
                    out.writeInt(i);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a byte array does not fail
        }
        return bytes.toByteArray();
    }

    static RankTrace decode(byte[] bytes) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes))) {
            int format = in.readInt();
            if (format != FORMAT) {
                throw new IllegalStateException("rank digest encoding " + format + ", this build reads " + FORMAT);
            }
            String source = readString(in);
            TraceFormat traceFormat = TraceFormat.values()[in.readByte()];
            int rank = in.readInt();
            RankSource rankSource = RankSource.values()[in.readByte()];
            int worldSize = in.readInt();
            boolean hostOps = in.readBoolean();
            boolean truncated = in.readBoolean();
            String commUnclassified = readString(in);
            int n = in.readInt();
            List<Lane> lanes = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                lanes.add(new Lane(in.readInt(), in.readInt(), in.readLong(), readString(in)));
            }
            n = in.readInt();
            String[] names = new String[n];
            for (int i = 0; i < n; i++) {
                names[i] = readString(in);
            }
            n = in.readInt();
            DeviceIntervals d = new DeviceIntervals(new StringPool(), n);
            for (int i = 0; i < n; i++) {
                long start = in.readLong();
                long end = in.readLong();
                int lane = in.readInt();
                DeviceKind kind = DeviceKind.ofOrdinal(in.readByte());
                String name = names[in.readInt()];
                long launchNs = in.readLong();
                long launchThread = in.readLong();
                int at = d.add(start, end, lane, kind, name, launchNs, launchThread);
                d.setCollective(at, in.readInt());
                if (in.readBoolean()) {
                    d.markPreCapture(at);
                }
            }
            d.trimToSize();
            n = in.readInt();
            List<HostSpan> spans = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                spans.add(new HostSpan(HostSpanKind.values()[in.readByte()], readString(in), in.readLong(),
                        in.readLong(), in.readLong()));
            }
            n = in.readInt();
            List<HostThread> threads = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                long id = in.readLong();
                int m = in.readInt();
                List<String> threadNames = new ArrayList<>(m);
                for (int j = 0; j < m; j++) {
                    threadNames.add(readString(in));
                }
                threads.add(new HostThread(id, threadNames, in.readBoolean()));
            }
            n = in.readInt();
            List<Collective> collectives = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                int id = in.readInt();
                CollectiveType type = CollectiveType.values()[in.readByte()];
                String name = readString(in);
                ProcessGroup group = null;
                if (in.readBoolean()) {
                    String gName = readString(in);
                    String gDesc = readString(in);
                    int m = in.readInt();
                    List<Integer> ranks = new ArrayList<>(m);
                    for (int j = 0; j < m; j++) {
                        ranks.add(in.readInt());
                    }
                    group = new ProcessGroup(gName, gDesc, ranks);
                }
                long sequence = in.readLong();
                long inElements = in.readLong();
                long outElements = in.readLong();
                String dtype = readString(in);
                long size = in.readLong();
                long enqueueNs = in.readLong();
                long threadId = in.readLong();
                int[] iv = new int[in.readInt()];
                for (int j = 0; j < iv.length; j++) {
                    iv[j] = in.readInt();
                }
                collectives.add(new Collective(id, type, name, group, sequence, inElements, outElements, dtype, size,
                        enqueueNs, threadId, iv));
            }
            return new RankTrace(source, traceFormat, rank, rankSource, worldSize, lanes, d, spans, threads,
                    collectives, List.of(), new long[0], hostOps, truncated, List.of(), List.of(), List.of(),
                    MemorySamples.empty(), commUnclassified, List.of());
        } catch (IOException e) {
            throw new UncheckedIOException("corrupt rank digest", e);
        }
    }

    private static void writeString(DataOutputStream out, String s) throws IOException {
        if (s == null) {
            out.writeInt(-1);
            return;
        }
        byte[] b = s.getBytes(StandardCharsets.UTF_8); // not writeUTF: a kernel name may pass its 64 KiB cap
        out.writeInt(b.length);
        out.write(b);
    }

    private static String readString(DataInputStream in) throws IOException {
        int n = in.readInt();
        if (n < 0) {
            return null;
        }
        byte[] b = new byte[n];
        in.readFully(b);
        return new String(b, StandardCharsets.UTF_8);
    }
}
