package io.overlapanalyze.synth;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * A small description of one rank's training steps, from which {@link KinetoScenarioWriter}
 * writes a realistic PyTorch-profiler (Kineto) trace with known ground truth.
 *
 * <h2>File format (JSON; {@code //} comments allowed; unknown fields are errors)</h2>
 * <pre>{@code
 * {
 *   "name": "seed-1ms",                      // required; also the default traceName
 *   "description": "three 2 ms backward blocks, 1 ms all-reduce per bucket",
 *   "rank": 0, "worldSize": 2,               // default 0 / 2; rank < worldSize
 *   "steps": 1, "firstStep": 1,              // ProfilerStep#firstStep .. #firstStep+steps-1
 *   "forward":  [ {"name": "aten::mm", "us": 500, "kernels": 2} ],   // optional, main thread
 *   "backward": [                            // execution order (last layer first), autograd thread
 *     {"us": 2000, "bucket": {"bytes": 26214400, "commUs": 1000}},
 *     {"us": 2000, "bucket": {"bytes": 26214400, "commUs": 1000, "launchDelayUs": 300}}
 *   ],
 *   "optimizerUs": 0,                        // 0: Optimizer.step annotated on the host, no kernel
 *   "stepGapUs": 1000,                       // minimum device idle between steps
 *   "jitterPct": 0, "seed": 1,               // optional deterministic jitter of durations
 *   "syncEvents": false                      // true: explicit stream-wait dependencies (below)
 * }
 * }</pre>
 * Durations are microseconds, integers or with up to 3 decimals; they are read from the
 * number's text into exact nanoseconds. Block fields: {@code us} (required, &gt; 0),
 * {@code kernels} (default 1: the block's time split into that many back-to-back kernels,
 * exact ns sum), {@code name} (the host op: forward default {@code aten::mm}, backward default
 * {@code MmBackward0}), {@code kernel} (device kernel name, a cuBLAS/CUTLASS-like default),
 * {@code bucket} (backward only: after this block, all-reduce {@code bytes} of float gradients,
 * lasting {@code commUs} on the comm stream; {@code launchDelayUs} &gt; 0 makes the host issue
 * it that long after its data is ready on the device: a late launch), {@code deviceWaitUs} (the
 * block's first kernel, launched as usual, starts this long after the compute stream became free:
 * a stream or event dependency; the device idles with the work already issued).
 *
 * <p>{@code "dataLoaderUs"} (default 30) is how long the main thread spends in the data loader
 * ({@code enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__}) at the start of each step,
 * before anything else; a long one leaves the device idle, waiting for the host, until the step's
 * first launch.
 *
 * <h2>Device semantics</h2>
 * Each step starts at its device origin t0. Forward kernels then backward kernels run
 * back-to-back on the compute stream; after each block with a bucket, its all-reduce runs on the
 * comm stream from {@code max(block end + launchDelay, comm stream free)} for {@code commUs};
 * the optimizer kernel (when {@code optimizerUs > 0}) starts at
 * {@code max(last backward compute end, last all-reduce end)}. The next step's t0 is at least
 * {@code stepGapUs} after the step's last device end. With {@code jitterPct} j &gt; 0, every
 * compute block, all-reduce and optimizer duration is multiplied by a factor drawn uniformly in
 * [1−j/100, 1+j/100] ({@code SplittableRandom(seed)}), rounded to whole ns. The exact timeline
 * is {@link KinetoScenarioWriter#plan(Scenario)}.
 *
 * <h2>Sync events</h2>
 * With {@code syncEvents} true the trace also carries the explicit dependency of each all-reduce
 * on its data, as a profile with {@code enable_cuda_sync_events=True} does (kineto.md §3.1): on
 * the autograd thread, a {@code cudaEventRecord} on the compute stream right after the last
 * kernel launch of the bucket's block (the gradient hook records "this bucket's gradients are
 * done"), and a {@code cudaStreamWaitEvent} inside the {@code c10d::allreduce_} before the NCCL
 * launch; on the device, a {@code cuda_sync} "Stream Wait Event" on the comm stream, 1 µs long
 * and ending where the NCCL kernel starts, whose {@code wait_on_cuda_event_record_corr_id} names
 * the record. The record marks exactly the block's end as the bucket's data-ready time, even for
 * a late bucket whose enqueue comes after later blocks were launched. Device timeline and plan
 * are the same with or without them.
 *
 * @param optimizerNs optimizer kernel length (ns), 0 for none
 * @param stepGapNs   minimum device idle between steps (ns)
 * @param jitterPct   jitter in percent, 0 ≤ j &lt; 100
 * @param syncEvents  also write the explicit stream-wait dependencies (cuda_sync events)
 * @param dataLoaderNs host time of the data loader range at the start of each step (ns, &gt; 0)
 */
public record Scenario(
        String name,
        String description,
        int rank,
        int worldSize,
        int steps,
        int firstStep,
        List<Block> forward,
        List<Block> backward,
        long optimizerNs,
        long stepGapNs,
        double jitterPct,
        long seed,
        boolean syncEvents,
        long dataLoaderNs) {

    public Scenario {
        Objects.requireNonNull(name, "name");
        if (name.isBlank()) {
            throw new IllegalArgumentException("name must not be blank");
        }
        description = description == null ? "" : description;
        if (worldSize < 1) {
            throw new IllegalArgumentException("worldSize must be >= 1, got " + worldSize);
        }
        if (rank < 0 || rank >= worldSize) {
            throw new IllegalArgumentException("rank must be in [0, worldSize=" + worldSize + "), got " + rank);
        }
        if (steps < 1) {
            throw new IllegalArgumentException("steps must be >= 1, got " + steps);
        }
        if (firstStep < 0) {
            throw new IllegalArgumentException("firstStep must be >= 0, got " + firstStep);
        }
        forward = List.copyOf(forward == null ? List.of() : forward);
        backward = List.copyOf(backward == null ? List.of() : backward);
        if (forward.isEmpty() && backward.isEmpty()) {
            throw new IllegalArgumentException("needs at least one forward or backward block");
        }
        for (int i = 0; i < forward.size(); i++) {
            if (forward.get(i).bucket() != null) {
                throw new IllegalArgumentException("forward[" + i + "]: a bucket is only allowed on backward blocks");
            }
        }
        if (optimizerNs < 0) {
            throw new IllegalArgumentException("optimizerUs must be >= 0, got " + Durations.plainUs(optimizerNs));
        }
        if (stepGapNs < 0) {
            throw new IllegalArgumentException("stepGapUs must be >= 0, got " + Durations.plainUs(stepGapNs));
        }
        if (dataLoaderNs <= 0) {
            throw new IllegalArgumentException("dataLoaderUs must be > 0, got " + Durations.plainUs(dataLoaderNs));
        }
        if (!(jitterPct >= 0 && jitterPct < 100)) {
            throw new IllegalArgumentException("jitterPct must be in [0, 100), got " + jitterPct);
        }
    }

    /** The data loader's host time when a scenario does not say: 30 µs. */
    public static final long DEFAULT_DATA_LOADER_NS = 30_000L;

    /** A scenario with the default data loader time. */
    public Scenario(String name, String description, int rank, int worldSize, int steps, int firstStep,
            List<Block> forward, List<Block> backward, long optimizerNs, long stepGapNs, double jitterPct,
            long seed, boolean syncEvents) {
        this(name, description, rank, worldSize, steps, firstStep, forward, backward, optimizerNs, stepGapNs,
                jitterPct, seed, syncEvents, DEFAULT_DATA_LOADER_NS);
    }

    /** A scenario without sync events. */
    public Scenario(String name, String description, int rank, int worldSize, int steps, int firstStep,
            List<Block> forward, List<Block> backward, long optimizerNs, long stepGapNs, double jitterPct,
            long seed) {
        this(name, description, rank, worldSize, steps, firstStep, forward, backward, optimizerNs, stepGapNs,
                jitterPct, seed, false);
    }

    /** A scenario with the defaults of the file format (rank 0 of 2, one step #1, no jitter). */
    public static Scenario of(String name, String description, List<Block> forward, List<Block> backward,
            long optimizerNs) {
        return new Scenario(name, description, 0, 2, 1, 1, forward, backward, optimizerNs,
                Durations.ms(1), 0, 1);
    }

    public Scenario withSteps(int newSteps) {
        return new Scenario(name, description, rank, worldSize, newSteps, firstStep, forward, backward,
                optimizerNs, stepGapNs, jitterPct, seed, syncEvents, dataLoaderNs);
    }

    public Scenario withRank(int newRank, int newWorldSize) {
        return new Scenario(name, description, newRank, newWorldSize, steps, firstStep, forward, backward,
                optimizerNs, stepGapNs, jitterPct, seed, syncEvents, dataLoaderNs);
    }

    public Scenario withJitter(double newJitterPct, long newSeed) {
        return new Scenario(name, description, rank, worldSize, steps, firstStep, forward, backward,
                optimizerNs, stepGapNs, newJitterPct, newSeed, syncEvents, dataLoaderNs);
    }

    public Scenario withSyncEvents(boolean newSyncEvents) {
        return new Scenario(name, description, rank, worldSize, steps, firstStep, forward, backward,
                optimizerNs, stepGapNs, jitterPct, seed, newSyncEvents, dataLoaderNs);
    }

    /** Number of buckets (gradient all-reduces) per step. */
    public int bucketCount() {
        return (int) backward.stream().filter(b -> b.bucket() != null).count();
    }

    /** Reads a scenario file; errors are one-line {@link ScenarioException}s naming the file and field. */
    public static Scenario parse(Path file) {
        return ScenarioParser.parse(file);
    }

    /** Reads scenario JSON text (not a path); errors name {@code <string>} as the source. */
    public static Scenario parse(String json) {
        return ScenarioParser.parse(json, "<string>");
    }

    /** Reads scenario JSON text; errors name {@code source}. */
    public static Scenario parse(String json, String source) {
        return ScenarioParser.parse(json, source);
    }

    /**
     * One compute block: {@code ns} of device time split into {@code kernels} back-to-back
     * kernels, optionally followed by a gradient bucket all-reduce (backward only).
     *
     * @param name   host op name ({@code null}: {@code aten::mm} forward, {@code MmBackward0} backward)
     * @param kernel device kernel name ({@code null}: a GEMM kernel name)
     * @param bucket the all-reduce issued after this block, or {@code null}
     */
    public record Block(String name, String kernel, long ns, int kernels, Bucket bucket, long deviceWaitNs) {
        public Block {
            if (deviceWaitNs < 0) {
                throw new IllegalArgumentException("deviceWaitUs must be >= 0, got " + Durations.plainUs(deviceWaitNs));
            }
            if (ns <= 0) {
                throw new IllegalArgumentException("us must be > 0, got " + Durations.plainUs(ns));
            }
            if (kernels < 1) {
                throw new IllegalArgumentException("kernels must be >= 1, got " + kernels);
            }
            if (kernels > ns) {
                throw new IllegalArgumentException("kernels (" + kernels + ") must not exceed the block's ns ("
                        + ns + ")");
            }
        }

        /** A block whose first kernel starts as soon as the stream and its launch allow. */
        public Block(String name, String kernel, long ns, int kernels, Bucket bucket) {
            this(name, kernel, ns, kernels, bucket, 0);
        }

        /** A one-kernel block of {@code us} microseconds with default names. */
        public static Block us(long us, Bucket bucket) {
            return new Block(null, null, Durations.us(us), 1, bucket);
        }

        public static Block us(long us) {
            return us(us, null);
        }
    }

    /**
     * A gradient bucket all-reduced after its block.
     *
     * @param bytes         bucket size in bytes (float32: {@code bytes/4} elements)
     * @param commNs        all-reduce kernel length
     * @param launchDelayNs host enqueue this long after the data is ready on the device (0: on time)
     */
    public record Bucket(long bytes, long commNs, long launchDelayNs) {
        public Bucket {
            if (bytes <= 0 || bytes % 4 != 0) {
                throw new IllegalArgumentException("bytes must be a positive multiple of 4 (float32), got " + bytes);
            }
            if (commNs <= 0) {
                throw new IllegalArgumentException("commUs must be > 0, got " + Durations.plainUs(commNs));
            }
            if (launchDelayNs < 0) {
                throw new IllegalArgumentException("launchDelayUs must be >= 0, got "
                        + Durations.plainUs(launchDelayNs));
            }
        }

        /** An on-time bucket. */
        public static Bucket of(long bytes, long commUs) {
            return new Bucket(bytes, Durations.us(commUs), 0);
        }

        public long elements() {
            return bytes / 4;
        }
    }
}
