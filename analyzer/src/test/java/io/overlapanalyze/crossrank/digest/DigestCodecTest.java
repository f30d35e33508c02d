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
import org.junit.jupiter.api.Test;

import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The digest's wire form, written by hand: every value of every enum it carries comes back as
 * itself, and enum values travel by name (the string table holds {@code "FUSED"}), so a constant
 * added or reordered can never decode as another. Digests never outlive a run (a Spark task encodes,
 * its driver, from the same jar, decodes; nothing writes one to a lasting file), so no digest of the
 * ordinal encoding (format 2) needs reading: it is refused with the format number.
 */
class DigestCodecTest {
    private static RankInput everyEnumValue() {
        DeviceIntervals d = new DeviceIntervals(new StringPool(), 8);
        long t = 1_000;
        for (DeviceKind k : DeviceKind.values()) {
            d.add(t, t + 500, 0, k, "kernel " + k.ordinal(), t - 50, 7);
            t += 1_000;
        }
        List<HostSpan> spans = new ArrayList<>();
        long s = 100;
        for (HostSpanKind k : HostSpanKind.values()) {
            spans.add(new HostSpan(k, "span " + k.ordinal(), s, s + 40, 7));
            s += 100;
        }
        ProcessGroup group = new ProcessGroup("0", "default_pg", List.of(0, 1));
        List<Collective> collectives = new ArrayList<>();
        int id = 0;
        for (CollectiveType c : CollectiveType.values()) {
            collectives.add(new Collective(id, c, "nccl " + c.ordinal(), group, id, 16, 16, "Float", 64, 200 + id, 7,
                    new int[0]));
            id++;
        }
        RankTrace trace = new RankTrace("rank0.json", TraceFormat.values()[TraceFormat.values().length - 1], 0,
                RankSource.values()[RankSource.values().length - 1], 2, List.of(new Lane(0, 0, 7, "stream 7")), d,
                spans, List.of(new HostThread(7, List.of("main"), false)), collectives, List.of(), new long[0], true,
                false, List.of(), List.of(), List.of(), MemorySamples.empty(), null, List.of());
        List<StepReport> steps = new ArrayList<>();
        for (TailKind k : TailKind.values()) {
            List<ChainLink> chain = new ArrayList<>();
            for (BoundBy b : BoundBy.values()) {
                chain.add(new ChainLink(1, "allreduce", 64L, 10, 20, null, 5L, null, b));
            }
            chain.add(new ChainLink(2, "allreduce", null, 30, 45, 25L, null, 28L, null));
            steps.add(StepReport.empty("step " + k.ordinal()).withTailNs(100L).withAttribution(new Attribution(k, chain))
                    .withDeviceWindow(1_000, 2_000));
        }
        RankReport report = new RankReport(0, "file name", "rank0.json", "kineto", 2, steps, null, List.of(),
                List.of(), List.of(), null, List.of(), null, null, List.of(), null, null);
        return new RankInput(trace, report);
    }

    @Test
    void everyEnumValueComesBackAsItself() {
        RankInput in = everyEnumValue();
        RankInput back = DigestCodec.decode(DigestCodec.encode(in), new SharedValues());

        RankTrace a = in.trace();
        RankTrace b = back.trace();
        assertEquals(a.format(), b.format());
        assertEquals(a.rankSource(), b.rankSource());
        assertEquals(a.device().size(), b.device().size());
        for (int i = 0; i < a.device().size(); i++) {
            assertEquals(a.device().kind(i), b.device().kind(i), "interval " + i);
            assertEquals(a.device().name(i), b.device().name(i));
            assertEquals(a.device().start(i), b.device().start(i));
            assertEquals(a.device().end(i), b.device().end(i));
        }
        assertEquals(a.hostSpans(), b.hostSpans());
        assertEquals(a.collectives().size(), b.collectives().size());
        for (int i = 0; i < a.collectives().size(); i++) {
            assertEquals(a.collectives().get(i).type(), b.collectives().get(i).type());
            assertEquals(a.collectives().get(i).group(), b.collectives().get(i).group());
            assertArrayEquals(a.collectives().get(i).deviceIntervals(), b.collectives().get(i).deviceIntervals());
        }
        List<StepReport> sa = in.report().steps();
        List<StepReport> sb = back.report().steps();
        assertEquals(sa.size(), sb.size());
        for (int i = 0; i < sa.size(); i++) {
            assertEquals(sa.get(i).attribution(), sb.get(i).attribution(), "step " + i);
            assertEquals(sa.get(i).deviceStartNs(), sb.get(i).deviceStartNs());
            assertEquals(sa.get(i).deviceEndNs(), sb.get(i).deviceEndNs());
        }
        assertNull(sb.get(0).attribution().chain().get(BoundBy.values().length).boundBy());
    }

    @Test
    void enumValuesTravelByName() {
        String bytes = new String(DigestCodec.encode(everyEnumValue()), StandardCharsets.ISO_8859_1);
        for (Enum<?> e : List.<Enum<?>>of(DeviceKind.FUSED, HostSpanKind.values()[0], CollectiveType.values()[0],
                TailKind.values()[0], BoundBy.values()[0])) {
            assertTrue(bytes.contains(e.name()), e.getDeclaringClass().getSimpleName() + " " + e + " not by name");
        }
    }

    @Test
    void aNameThisBuildDoesNotKnowIsACorruptDigest() {
        byte[] bytes = DigestCodec.encode(everyEnumValue());
        // "FUSED" becomes "FUSEX" in the string table: same length, so only the name is wrong.
        String text = new String(bytes, StandardCharsets.ISO_8859_1);
        int at = text.indexOf("FUSED");
        assertTrue(at > 0);
        bytes[at + 4] = 'X';
        UncheckedIOException e = assertThrows(UncheckedIOException.class, () -> DigestCodec.decode(bytes, new SharedValues()));
        assertTrue(e.getCause().getMessage().contains("no DeviceKind named FUSEX"), e.getCause().getMessage());
    }

    @Test
    void theOrdinalEncodingIsRefusedByItsNumber() {
        byte[] bytes = DigestCodec.encode(everyEnumValue());
        bytes[0] = 2; // the format varint: 2 was the ordinal encoding
        UncheckedIOException e = assertThrows(UncheckedIOException.class, () -> DigestCodec.decode(bytes, new SharedValues()));
        assertTrue(e.getCause().getMessage().contains("encoding 2; this build reads 3"), e.getCause().getMessage());
    }
}
