package io.overlapanalyze.formats.kineto;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.overlapanalyze.model.DeviceIntervals;
import io.overlapanalyze.model.DeviceKind;
import io.overlapanalyze.model.RankTrace;
import io.overlapanalyze.model.Time;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.io.InputStream;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.zip.GZIPInputStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The MTIA inference trace of shared/traces (PROVENANCE.md): device events of category
 * {@code mtia_ccp_events} are device work. Expected values are derived here from the file itself,
 * read with Jackson into exact decimals, by rules written in this test: {@code dma_request} is
 * memory traffic, {@code event_record}/{@code event_wait} synchronisation, every other name
 * ({@code pe_exe}, {@code merge}, {@code remote}) a kernel.
 */
class MtiaRealTraceTest {
    private static final String FILE = "hta_mtia_inference_rank0.json.gz";

    private static Path file() {
        String root = System.getProperty("overlap.sharedTraces", "../shared/traces");
        Path p = Path.of(root, "kineto", FILE);
        Assumptions.assumeTrue(Files.isRegularFile(p), p + " not found: skipping");
        return p;
    }

    /** What the test's own rules say an event is. */
    private static DeviceKind expectedKind(String name) {
        if (name.equals("dma_request")) {
            return DeviceKind.MEMCPY;
        }
        if (name.equals("event_record") || name.equals("event_wait")) {
            return DeviceKind.SYNC;
        }
        return DeviceKind.COMPUTE;
    }

    /** µs text → ns, half up (the reader's rounding; this file has at most 3 decimals anyway). */
    private static long ns(JsonNode v) {
        return v.decimalValue().movePointRight(3).setScale(0, RoundingMode.HALF_UP).longValueExact();
    }

    private record Expected(Map<DeviceKind, List<long[]>> byKind, List<long[]> all, int linked) {
    }

    private static Expected expected(Path p) throws Exception {
        ObjectMapper m = new ObjectMapper().enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);
        JsonNode root;
        try (InputStream in = new GZIPInputStream(Files.newInputStream(p))) {
            root = m.readTree(in);
        }
        Set<Long> runtimeCorrelations = new HashSet<>();
        for (JsonNode e : root.get("traceEvents")) {
            if ("mtia_runtime".equals(e.path("cat").asText()) && e.path("args").has("correlation")) {
                runtimeCorrelations.add(e.get("args").get("correlation").asLong());
            }
        }
        Map<DeviceKind, List<long[]>> byKind = new EnumMap<>(DeviceKind.class);
        List<long[]> all = new ArrayList<>();
        int linked = 0;
        long base = root.get("baseTimeNanoseconds").asLong();
        for (JsonNode e : root.get("traceEvents")) {
            if (!"mtia_ccp_events".equals(e.path("cat").asText())) {
                continue;
            }
            long start = base + ns(e.get("ts"));
            long[] iv = {start, start + ns(e.get("dur"))};
            byKind.computeIfAbsent(expectedKind(e.get("name").asText()), k -> new ArrayList<>()).add(iv);
            all.add(iv);
            JsonNode corr = e.path("args").get("correlation");
            if (corr != null && runtimeCorrelations.contains(corr.asLong())) {
                linked++;
            }
        }
        return new Expected(byKind, all, linked);
    }

    /** |∪ intervals| in ns. */
    static long union(List<long[]> intervals) {
        List<long[]> s = new ArrayList<>(intervals);
        s.sort((a, b) -> Long.compare(a[0], b[0]));
        long total = 0;
        long curStart = Long.MIN_VALUE;
        long curEnd = Long.MIN_VALUE;
        for (long[] iv : s) {
            if (iv[0] > curEnd) {
                if (curEnd > curStart) {
                    total += curEnd - curStart;
                }
                curStart = iv[0];
                curEnd = iv[1];
            } else {
                curEnd = Math.max(curEnd, iv[1]);
            }
        }
        if (curEnd > curStart) {
            total += curEnd - curStart;
        }
        return total;
    }

    private static List<long[]> model(RankTrace t, DeviceKind kind) {
        List<long[]> out = new ArrayList<>();
        DeviceIntervals d = t.device();
        for (int i = 0; i < d.size(); i++) {
            if (kind == null || d.kind(i) == kind) {
                out.add(new long[] {d.start(i), d.end(i)});
            }
        }
        return out;
    }

    @Test
    void mtiaDeviceEventsAreDeviceWork() throws Exception {
        Path p = file();
        List<RankTrace> ranks = new KinetoReader().read(p);
        assertEquals(1, ranks.size(), "one MTIA device (pid 17): one rank");
        RankTrace t = ranks.get(0);
        Expected x = expected(p);

        // PROVENANCE.md: 1,313 events (877 dma_request, 291 event_record, 48 event_wait, the rest kernels);
        // their union is 424,229,939 ns over a span of 443,275,704 ns.
        assertEquals(1313, t.device().size());
        assertEquals(877, model(t, DeviceKind.MEMCPY).size());
        assertEquals(291 + 48, model(t, DeviceKind.SYNC).size());
        assertEquals(1313 - 877 - 291 - 48, model(t, DeviceKind.COMPUTE).size());
        assertEquals(0, model(t, DeviceKind.COMM).size(), "no communication kernel names in this inference trace");
        assertEquals(424_229_939L, union(model(t, null)));
        long first = x.all().stream().mapToLong(iv -> iv[0]).min().orElseThrow();
        long last = x.all().stream().mapToLong(iv -> iv[1]).max().orElseThrow();
        assertEquals(443_275_704L, last - first);

        // Per kind, exactly the test's own unions of the file's intervals.
        for (DeviceKind k : List.of(DeviceKind.COMPUTE, DeviceKind.MEMCPY, DeviceKind.SYNC)) {
            assertEquals(union(x.byKind().get(k)), union(model(t, k)), k.toString());
            assertEquals(x.byKind().get(k).size(), model(t, k).size(), k.toString());
        }
        List<long[]> busy = new ArrayList<>(x.byKind().get(DeviceKind.COMPUTE));
        busy.addAll(x.byKind().get(DeviceKind.MEMCPY));
        List<long[]> modelBusy = new ArrayList<>(model(t, DeviceKind.COMPUTE));
        modelBusy.addAll(model(t, DeviceKind.MEMCPY));
        assertEquals(union(busy), union(modelBusy), "compute ∪ memcpy");

        // Launch links: mtia_runtime calls carry the correlation of their device work.
        int launched = 0;
        for (int i = 0; i < t.device().size(); i++) {
            if (Time.isKnown(t.device().launchNs(i))) {
                launched++;
            }
        }
        assertEquals(x.linked(), launched);
        assertEquals(991, launched);
        assertTrue(t.hostOpsPresent());
        // Twelve streams of MTIA device 17, one lane each.
        assertEquals(12, t.lanes().size());
        assertTrue(t.lanes().stream().allMatch(l -> l.device() == 17));
    }

    @Test
    void bothReaderPathsAgree() throws Exception {
        Path p = file();
        assertEquals(KinetoParity.jackson(p), KinetoParity.scanner(p, 0, 1));
    }
}
