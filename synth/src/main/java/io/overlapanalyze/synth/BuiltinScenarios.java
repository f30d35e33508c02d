package io.overlapanalyze.synth;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Scenarios shipped with the tool: the seed's worked examples (metrics.md §7) and a few
 * variants whose answers are known. {@code samples/seed-1ms.scenario.json} and
 * {@code samples/seed-4ms.scenario.json} are the first two as files.
 */
public final class BuiltinScenarios {
    /** 25 MiB of float32 gradients, DDP's default bucket size. */
    public static final long BUCKET_BYTES = 26_214_400L;
    /** Length of the optimizer kernel in the {@code -optimizer} variants. */
    public static final long OPTIMIZER_US = 500;

    private static final Map<String, Supplier<Scenario>> ALL = new LinkedHashMap<>();

    static {
        ALL.put("seed-1ms", () -> seed("seed-1ms", 1000, 0));
        ALL.put("seed-4ms", () -> seed("seed-4ms", 4000, 0));
        ALL.put("seed-1ms-optimizer", () -> seed("seed-1ms-optimizer", 1000, OPTIMIZER_US));
        ALL.put("seed-4ms-optimizer", () -> seed("seed-4ms-optimizer", 4000, OPTIMIZER_US));
        ALL.put("late-last-bucket", BuiltinScenarios::lateLastBucket);
        ALL.put("training-jitter", BuiltinScenarios::trainingJitter);
        ALL.put("late-middle-bucket-sync", BuiltinScenarios::lateMiddleBucketSync);
    }

    private BuiltinScenarios() {
    }

    /** Names in a stable order. */
    public static List<String> names() {
        return new ArrayList<>(ALL.keySet());
    }

    /** The named scenario; {@link ScenarioException} naming the known ones otherwise. */
    public static Scenario get(String name) {
        Supplier<Scenario> s = ALL.get(name);
        if (s == null) {
            throw new ScenarioException("unknown built-in scenario '" + name + "' (known: "
                    + String.join(", ", ALL.keySet()) + ")");
        }
        return s.get();
    }

    /**
     * Three 2 ms backward blocks, one bucket all-reduced after each (issued on time), no forward;
     * {@code optimizerUs} 0 means Optimizer.step is annotated on the host but launches nothing.
     */
    private static Scenario seed(String name, long commUs, long optimizerUs) {
        String desc = "three 2 ms backward blocks, " + commUs / 1000 + " ms all-reduce per bucket"
                + (optimizerUs > 0 ? ", " + optimizerUs + " us optimizer kernel after the last reduction" : "");
        List<Scenario.Block> backward = List.of(
                Scenario.Block.us(2000, Scenario.Bucket.of(BUCKET_BYTES, commUs)),
                Scenario.Block.us(2000, Scenario.Bucket.of(BUCKET_BYTES, commUs)),
                Scenario.Block.us(2000, Scenario.Bucket.of(BUCKET_BYTES, commUs)));
        return Scenario.of(name, desc, List.of(), backward, Durations.us(optimizerUs));
    }

    /**
     * seed-1ms with the last bucket issued 300 µs after its data was ready: tail 1.3 ms, bound
     * by LAUNCH (launchLate of g3 = 300 µs).
     */
    private static Scenario lateLastBucket() {
        List<Scenario.Block> backward = List.of(
                Scenario.Block.us(2000, Scenario.Bucket.of(BUCKET_BYTES, 1000)),
                Scenario.Block.us(2000, Scenario.Bucket.of(BUCKET_BYTES, 1000)),
                Scenario.Block.us(2000, new Scenario.Bucket(BUCKET_BYTES, Durations.us(1000), Durations.us(300))));
        return Scenario.of("late-last-bucket", "seed-1ms, last all-reduce launched 300 us late", List.of(),
                backward, 0);
    }

    /**
     * seed-1ms with the middle bucket issued 2 ms (one block) late, written with sync events
     * ({@code cuda_sync} stream waits, {@link Scenario#syncEvents()}). g2's data is ready at 4 ms
     * but it is enqueued at 6 ms, just as block 3 ends, after block 3 was launched; g3 (ready at 6)
     * queues behind it. Tail 2 ms: g3 bound by QUEUE, g2 by LAUNCH: LAUNCH_BOUND. An analyzer
     * using the launch-order fallback instead of the stream waits takes g2's data-ready as block
     * 3's end (6 ms, launched before g2's enqueue), finds it binding g2 and calls the tail
     * COMM_BOUND.
     */
    private static Scenario lateMiddleBucketSync() {
        List<Scenario.Block> backward = List.of(
                Scenario.Block.us(2000, Scenario.Bucket.of(BUCKET_BYTES, 1000)),
                Scenario.Block.us(2000, new Scenario.Bucket(BUCKET_BYTES, Durations.us(1000), Durations.us(2000))),
                Scenario.Block.us(2000, Scenario.Bucket.of(BUCKET_BYTES, 1000)));
        return Scenario.of("late-middle-bucket-sync",
                "seed-1ms, middle all-reduce launched 2 ms late, with cuda_sync stream-wait events", List.of(),
                backward, 0).withSyncEvents(true);
    }

    /** A fuller step: forward, multi-kernel backward blocks, optimizer, 5 steps with 5 % jitter. */
    private static Scenario trainingJitter() {
        List<Scenario.Block> forward = List.of(
                new Scenario.Block("aten::mm", null, Durations.us(1500), 3, null),
                new Scenario.Block("aten::mm", null, Durations.us(1500), 3, null));
        List<Scenario.Block> backward = List.of(
                new Scenario.Block(null, null, Durations.us(1200), 4, Scenario.Bucket.of(BUCKET_BYTES, 900)),
                new Scenario.Block(null, null, Durations.us(1800), 6, Scenario.Bucket.of(BUCKET_BYTES, 900)),
                new Scenario.Block(null, null, Durations.us(1800), 6, Scenario.Bucket.of(BUCKET_BYTES / 2, 500)));
        return new Scenario("training-jitter", "forward, 3 backward blocks with buckets, optimizer; 5 steps, 5% jitter",
                0, 2, 5, 10, forward, backward, Durations.us(400), Durations.us(800), 5, 42);
    }
}
