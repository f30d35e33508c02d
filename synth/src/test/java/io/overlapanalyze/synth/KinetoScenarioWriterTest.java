package io.overlapanalyze.synth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.overlapanalyze.synth.SyntheticTimeline.Interval;
import io.overlapanalyze.synth.SyntheticTimeline.PlannedStep;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Reads the written JSON back with plain Jackson, without the planner's help, and checks it. */
class KinetoScenarioWriterTest {
    private static final JsonMapper MAPPER = JsonMapper.builder()
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .nodeFactory(JsonNodeFactory.withExactBigDecimals(true))
            .build();
    private static final Pattern THREE_DECIMALS = Pattern.compile("\\d+\\.\\d{3}");

    static List<String> builtins() {
        return BuiltinScenarios.names();
    }

    private record Written(SyntheticTimeline plan, String text, JsonNode root) {
        List<JsonNode> events() {
            List<JsonNode> out = new ArrayList<>();
            root.get("traceEvents").forEach(out::add);
            return out;
        }

        List<JsonNode> events(String ph, String cat) {
            return events().stream().filter(e -> ph.equals(e.path("ph").asText())
                    && (cat == null || cat.equals(e.path("cat").asText()))).toList();
        }
    }

    private static Written write(Scenario s) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        SyntheticTimeline plan = KinetoScenarioWriter.write(s, out);
        String text = out.toString(StandardCharsets.UTF_8);
        return new Written(plan, text, MAPPER.readTree(text));
    }

    private static long ns(JsonNode number) {
        return Durations.usToNs(number.decimalValue());
    }

    @ParameterizedTest
    @MethodSource("builtins")
    void headerIsThatOfARecentPyTorch(String name) throws IOException {
        Scenario s = BuiltinScenarios.get(name);
        Written w = write(s);
        JsonNode r = w.root();
        assertEquals(1, r.get("schemaVersion").asInt());
        assertEquals("ms", r.get("displayTimeUnit").asText());
        assertEquals(name + ".pt.trace.json", r.get("traceName").asText());
        assertEquals(1711964646000000000L, r.get("baseTimeNanoseconds").asLong());
        assertEquals(w.plan().baseTimeNanoseconds(), r.get("baseTimeNanoseconds").asLong());
        assertEquals(1, r.get("deviceProperties").size());
        JsonNode di = r.get("distributedInfo");
        assertEquals("nccl", di.get("backend").asText());
        assertEquals(s.rank(), di.get("rank").asInt());
        assertEquals(s.worldSize(), di.get("world_size").asInt());
        assertEquals(1, di.get("pg_count").asInt());
        JsonNode pg = di.get("pg_config").get(0);
        assertEquals("0", pg.get("pg_name").asText());
        assertEquals("default_pg", pg.get("pg_desc").asText());
        assertEquals(s.worldSize(), pg.get("ranks").size());
        assertEquals("2.21.5", di.get("nccl_version").asText());
    }

    @ParameterizedTest
    @MethodSource("builtins")
    void everyTsAndDurHasExactlyThreeDecimals(String name) throws IOException {
        Written w = write(BuiltinScenarios.get(name));
        int seen = 0;
        try (JsonParser p = new JsonFactory().createParser(w.text())) {
            for (JsonToken t = p.nextToken(); t != null; t = p.nextToken()) {
                if (t == JsonToken.FIELD_NAME && (p.getCurrentName().equals("ts") || p.getCurrentName().equals("dur"))) {
                    p.nextToken();
                    assertTrue(THREE_DECIMALS.matcher(p.getText()).matches(), p.getText());
                    seen++;
                }
            }
        }
        assertTrue(seen > 20);
    }

    @ParameterizedTest
    @MethodSource("builtins")
    void linksAreUniqueAndComplete(String name) throws IOException {
        Written w = write(BuiltinScenarios.get(name));
        Map<Long, Integer> runtimeByCorr = new HashMap<>();
        for (JsonNode e : w.events("X", "cuda_runtime")) {
            if (e.get("name").asText().equals("cudaLaunchKernel")) { // sync calls are checked below
                runtimeByCorr.merge(e.get("args").get("correlation").asLong(), 1, Integer::sum);
            }
        }
        Map<Long, JsonNode> rpcByExt = new HashMap<>();
        for (JsonNode e : w.events("X", "cpu_op")) {
            if (e.get("name").asText().equals("record_param_comms")) {
                assertNotNull(rpcByExt.put(e.get("args").get("External id").asLong(), e) == null ? e : null);
            }
        }
        Set<Long> seenCorr = new HashSet<>();
        List<JsonNode> kernels = w.events("X", "kernel");
        assertFalse(kernels.isEmpty());
        for (JsonNode k : kernels) {
            long corr = k.get("args").get("correlation").asLong();
            assertEquals(1, runtimeByCorr.getOrDefault(corr, 0), "one runtime event per kernel correlation");
            assertTrue(seenCorr.add(corr), "correlations are unique");
            assertEquals(k.get("pid").asInt(), k.get("args").get("device").asInt());
            assertEquals(k.get("tid").asInt(), k.get("args").get("stream").asInt());
            if (k.get("name").asText().startsWith("ncclDevKernel_")) {
                JsonNode rpc = rpcByExt.get(k.get("args").get("External id").asLong());
                assertNotNull(rpc, "NCCL kernel's External id names a record_param_comms");
                for (String arg : List.of("Collective name", "In msg nelems", "Out msg nelems", "dtype",
                        "Group size", "Process Group Name", "Process Group Description", "Process Group Ranks")) {
                    assertEquals(rpc.get("args").get(arg), k.get("args").get(arg), arg);
                }
                assertEquals(20, k.get("tid").asInt());
            } else {
                assertEquals(7, k.get("tid").asInt());
            }
        }
        assertEquals(kernels.size(), runtimeByCorr.size(), "no launch without device work");
        assertEquals(w.events("s", "ac2g").size(), w.events("f", "ac2g").size());
    }

    @ParameterizedTest
    @MethodSource("builtins")
    void deviceTimesConvertBackToThePlanExactly(String name) throws IOException {
        Written w = write(BuiltinScenarios.get(name));
        List<Interval> compute = new ArrayList<>();
        List<Interval> comm = new ArrayList<>();
        for (JsonNode k : w.events("X", "kernel")) {
            long start = ns(k.get("ts"));
            Interval i = new Interval(start, start + ns(k.get("dur")));
            (k.get("tid").asInt() == 20 ? comm : compute).add(i);
        }
        compute.sort(Comparator.comparingLong(Interval::start));
        comm.sort(Comparator.comparingLong(Interval::start));
        List<Interval> plannedCompute = new ArrayList<>();
        List<Interval> plannedComm = new ArrayList<>();
        for (PlannedStep s : w.plan().steps()) {
            s.compute().forEach(k -> plannedCompute.add(k.interval()));
            s.reductions().forEach(r -> plannedComm.add(r.interval()));
        }
        assertEquals(plannedCompute, compute);
        assertEquals(plannedComm, comm);
    }

    @Test
    void seedTraceHasTheWorkedExampleIntervalsRelativeToTheFirstKernel() throws IOException {
        Written w = write(BuiltinScenarios.get("seed-4ms"));
        List<JsonNode> kernels = new ArrayList<>(w.events("X", "kernel"));
        kernels.sort(Comparator.comparing((JsonNode k) -> k.get("ts").decimalValue())
                .thenComparingInt(k -> k.get("tid").asInt()));
        long t0 = ns(kernels.get(0).get("ts"));
        List<String> got = new ArrayList<>();
        for (JsonNode k : kernels) {
            long s = ns(k.get("ts")) - t0;
            got.add(k.get("tid").asInt() + ":" + s / 1_000_000.0 + "-" + (s + ns(k.get("dur"))) / 1_000_000.0);
        }
        assertEquals(List.of("7:0.0-2.0", "7:2.0-4.0", "20:2.0-6.0", "7:4.0-6.0", "20:6.0-10.0", "20:10.0-14.0"),
                got);
    }

    /** On the autograd thread: launch(b1) &lt; enqueue(g1) &lt; launch(b2) &lt; enqueue(g2) ... */
    @ParameterizedTest
    @MethodSource("builtins")
    void autogradThreadIssuesBlocksAndBucketsInOrder(String name) throws IOException {
        Scenario s = BuiltinScenarios.get(name);
        Written w = write(s);
        int autogradTid = -1;
        for (JsonNode m : w.events("M", null)) {
            if (m.get("name").asText().equals("thread_name") && m.get("args").get("name").asText().contains("pt_autograd_")) {
                autogradTid = m.get("tid").asInt();
            }
        }
        List<String> order = new ArrayList<>();
        for (JsonNode e : sortedByTs(w.events("X", null))) {
            if (e.get("tid").asInt() != autogradTid || !e.get("pid").isInt() || e.get("pid").asInt() < 100) {
                continue;
            }
            String n = e.get("name").asText();
            if (n.startsWith("autograd::engine::evaluate_function: ")) {
                order.add("B");
            } else if (n.equals("c10d::allreduce_")) {
                order.add("G");
            }
        }
        List<Scenario.Block> blocks = s.backward();
        boolean lateBeforeLastBlock = blocks.subList(0, blocks.size() - 1).stream()
                .anyMatch(b -> b.bucket() != null && b.bucket().launchDelayNs() > 0);
        if (!lateBeforeLastBlock) {
            StringBuilder expected = new StringBuilder();
            for (int step = 0; step < s.steps(); step++) {
                for (Scenario.Block b : blocks) {
                    expected.append(b.bucket() != null ? "BG" : "B");
                }
            }
            assertEquals(expected.toString(), String.join("", order));
            return;
        }
        // A late bucket before the last block: the engine may launch later blocks while its hook
        // waits (TimelinePlanner), so only "each bucket after its own block, buckets in order".
        List<Integer> bucketBlocks = new ArrayList<>();
        for (int i = 0; i < blocks.size(); i++) {
            if (blocks.get(i).bucket() != null) {
                bucketBlocks.add(i);
            }
        }
        int perStep = blocks.size() + bucketBlocks.size();
        assertEquals(s.steps() * perStep, order.size());
        for (int step = 0; step < s.steps(); step++) {
            List<String> stepOrder = order.subList(step * perStep, (step + 1) * perStep);
            int blocksSeen = 0;
            int bucket = 0;
            for (String e : stepOrder) {
                if (e.equals("B")) {
                    blocksSeen++;
                } else {
                    assertTrue(blocksSeen > bucketBlocks.get(bucket), "bucket " + bucket + " after its block: " + order);
                    bucket++;
                }
            }
            assertEquals(bucketBlocks.size(), bucket);
        }
    }

    @ParameterizedTest
    @MethodSource("builtins")
    void hostLaunchPrecedesDeviceStartExceptLateBuckets(String name) throws IOException {
        Written w = write(BuiltinScenarios.get(name));
        Map<Long, JsonNode> runtime = new HashMap<>();
        w.events("X", "cuda_runtime").forEach(e -> runtime.put(e.get("args").get("correlation").asLong(), e));
        Set<Long> lateStarts = new HashSet<>();
        w.plan().steps().forEach(s -> s.reductions().stream().filter(r -> r.late()).forEach(r -> lateStarts.add(r.start())));
        List<JsonNode> steps = w.events("X", "user_annotation").stream()
                .filter(e -> e.get("name").asText().startsWith("ProfilerStep#")).toList();
        assertEquals(w.plan().steps().size(), steps.size());
        for (JsonNode k : w.events("X", "kernel")) {
            JsonNode launch = runtime.get(k.get("args").get("correlation").asLong());
            long launchTs = ns(launch.get("ts"));
            long start = ns(k.get("ts"));
            if (!lateStarts.contains(start)) {
                assertTrue(launchTs < start, "launch before kernel: " + k.get("name"));
            }
            long inSteps = steps.stream().filter(st -> ns(st.get("ts")) <= launchTs
                    && launchTs + ns(launch.get("dur")) <= ns(st.get("ts")) + ns(st.get("dur"))).count();
            assertEquals(1, inSteps, "each launch lies in exactly one ProfilerStep");
        }
    }

    @Test
    void lateBucketEnqueueIsAfterItsDataIsReady() throws IOException {
        Written w = write(BuiltinScenarios.get("late-last-bucket"));
        List<JsonNode> c10d = sortedByTs(w.events("X", "cpu_op").stream()
                .filter(e -> e.get("name").asText().equals("c10d::allreduce_")).toList());
        List<JsonNode> compute = sortedByTs(w.events("X", "kernel").stream().filter(k -> k.get("tid").asInt() == 7).toList());
        JsonNode lastBlock = compute.get(compute.size() - 1);
        long ready = ns(lastBlock.get("ts")) + ns(lastBlock.get("dur"));
        assertEquals(ready + 300_000, ns(c10d.get(2).get("ts")));
        assertTrue(ns(c10d.get(1).get("ts")) < ready);
    }

    /**
     * syncEvents: per bucket, a cudaEventRecord on the autograd thread between its block's last
     * launch and the next block's first, a cudaStreamWaitEvent inside its c10d::allreduce_ before
     * the NCCL launch, and a cuda_sync Stream Wait Event on the comm stream naming both.
     */
    @Test
    void syncEventsLinkEachWaitToItsBlocksRecord() throws IOException {
        Scenario s = BuiltinScenarios.get("late-middle-bucket-sync");
        Written w = write(s);
        Map<Long, JsonNode> runtime = new HashMap<>();
        w.events("X", "cuda_runtime").forEach(e -> runtime.put(e.get("args").get("correlation").asLong(), e));
        List<JsonNode> waits = sortedByTs(w.events("X", "cuda_sync"));
        List<JsonNode> nccl = sortedByTs(w.events("X", "kernel").stream()
                .filter(k -> k.get("tid").asInt() == 20).toList());
        List<JsonNode> c10d = sortedByTs(w.events("X", "cpu_op").stream()
                .filter(e -> e.get("name").asText().equals("c10d::allreduce_")).toList());
        List<JsonNode> blockFns = sortedByTs(w.events("X", "cpu_op").stream()
                .filter(e -> e.get("name").asText().startsWith("autograd::engine::evaluate_function: ")).toList());
        List<JsonNode> launches = sortedByTs(w.events("X", "cuda_runtime").stream()
                .filter(e -> e.get("name").asText().equals("cudaLaunchKernel")).toList());
        assertEquals(3, waits.size());
        for (int k = 0; k < 3; k++) {
            JsonNode wait = waits.get(k);
            JsonNode args = wait.get("args");
            assertEquals("Stream Wait Event", wait.get("name").asText());
            assertEquals("Stream Wait Event", args.get("cuda_sync_kind").asText());
            assertEquals(20, wait.get("tid").asInt());
            assertEquals(20, args.get("stream").asInt());
            assertEquals(7, args.get("wait_on_stream").asInt());
            assertEquals(ns(nccl.get(k).get("ts")), ns(wait.get("ts")) + ns(wait.get("dur")), "ends where the kernel starts");

            JsonNode call = runtime.get(args.get("correlation").asLong());
            assertEquals("cudaStreamWaitEvent", call.get("name").asText());
            JsonNode ncclLaunch = runtime.get(nccl.get(k).get("args").get("correlation").asLong());
            assertTrue(ns(call.get("ts")) + ns(call.get("dur")) <= ns(ncclLaunch.get("ts")), "wait before launch");
            assertTrue(ns(call.get("ts")) > ns(c10d.get(k).get("ts")), "inside the collective");

            JsonNode record = runtime.get(args.get("wait_on_cuda_event_record_corr_id").asLong());
            assertEquals("cudaEventRecord", record.get("name").asText());
            assertEquals(call.get("tid"), record.get("tid"));
            // Bucket k follows block k: the record lies after that block's op starts launching and
            // before the next block's op begins, so it captures exactly blocks 0..k.
            long recordTs = ns(record.get("ts"));
            JsonNode fn = blockFns.get(k);
            assertTrue(recordTs > ns(fn.get("ts")) && recordTs + ns(record.get("dur")) < ns(fn.get("ts")) + ns(fn.get("dur")));
            long launchedBefore = launches.stream().filter(l -> ns(l.get("ts")) < recordTs
                    && l.get("tid").equals(record.get("tid")) && !isNcclLaunch(l, nccl)).count();
            assertEquals(k + 1, launchedBefore, "compute launches before the record of bucket " + (k + 1));
        }
        // Same device timeline without them, and no sync events at all.
        Written plain = write(s.withSyncEvents(false));
        assertEquals(w.plan().steps(), plain.plan().steps());
        assertTrue(plain.events("X", "cuda_sync").isEmpty());
        assertTrue(plain.events("X", "cuda_runtime").stream()
                .allMatch(e -> e.get("name").asText().equals("cudaLaunchKernel")));
    }

    private static boolean isNcclLaunch(JsonNode launch, List<JsonNode> nccl) {
        long corr = launch.get("args").get("correlation").asLong();
        return nccl.stream().anyMatch(k -> k.get("args").get("correlation").asLong() == corr);
    }

    @Test
    void optimizerKernelIsLaunchedInsideOptimizerStepOnTheMainThread() throws IOException {
        Written w = write(BuiltinScenarios.get("seed-1ms-optimizer"));
        JsonNode opt = w.events("X", "user_annotation").stream()
                .filter(e -> e.get("name").asText().equals("Optimizer.step#SGD.step")).findFirst().orElseThrow();
        List<JsonNode> inside = w.events("X", "cuda_runtime").stream()
                .filter(e -> ns(e.get("ts")) >= ns(opt.get("ts"))
                        && ns(e.get("ts")) + ns(e.get("dur")) <= ns(opt.get("ts")) + ns(opt.get("dur"))).toList();
        assertEquals(1, inside.size());
        assertEquals(opt.get("tid"), inside.get(0).get("tid"));
        Written none = write(BuiltinScenarios.get("seed-1ms"));
        assertEquals(1, none.events("X", "user_annotation").stream()
                .filter(e -> e.get("name").asText().equals("Optimizer.step#SGD.step")).count());
        assertEquals(6, none.events("X", "kernel").size());
    }

    @Test
    void writesGzipWhenTheNameEndsWithGz(@TempDir Path dir) throws IOException {
        Path gz = dir.resolve("seed-1ms.pt.trace.json.gz");
        KinetoScenarioWriter.write(BuiltinScenarios.get("seed-1ms"), gz);
        try (InputStream in = new GZIPInputStream(Files.newInputStream(gz))) {
            JsonNode root = MAPPER.readTree(in);
            assertEquals(gz.toString(), root.get("traceName").asText());
            assertEquals(6, root.get("traceEvents").findValues("cat").stream()
                    .filter(c -> c.asText().equals("kernel")).count());
        }
        Path plain = dir.resolve("seed-1ms.pt.trace.json");
        KinetoScenarioWriter.write(BuiltinScenarios.get("seed-1ms"), plain);
        assertEquals('{', Files.readString(plain).charAt(0));
    }

    @Test
    void outputIsDeterministic() throws IOException {
        Scenario s = BuiltinScenarios.get("training-jitter");
        assertEquals(write(s).text(), write(s).text());
    }

    private static List<JsonNode> sortedByTs(List<JsonNode> events) {
        List<JsonNode> out = new ArrayList<>(events);
        out.sort(Comparator.comparing((JsonNode e) -> e.get("ts").decimalValue())
                .thenComparing(e -> e.path("dur").decimalValue(), Comparator.nullsFirst(Comparator.reverseOrder())));
        return out;
    }
}
