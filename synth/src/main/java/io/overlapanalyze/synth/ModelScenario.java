package io.overlapanalyze.synth;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A model-level scenario: the layers of a network (backward compute time and gradient bytes), an
 * interconnect (α, β) and a DDP bucket cap. It expands to a plain {@link Scenario} (one backward
 * block per layer, a bucket after the layer that completes it), so the planner and the writer
 * stay unchanged and the same model can be written at any bucket cap.
 *
 * <h2>File format (a scenario file with {@code layers} instead of {@code backward})</h2>
 * <pre>{@code
 * {
 *   "name": "gpt-ish", "description": "...",
 *   "rank": 0, "worldSize": 8, "steps": 3, "firstStep": 1,
 *   "forwardUs": 8000,                          // optional forward compute before backward (one block)
 *   "layers": [                                 // backward order (the last layer of the model first)
 *     {"us": 480, "gradBytes": 9437184},
 *     {"repeat": 12, "layers": [ {"us": 120, "gradBytes": 2359296}, ... ]}   // a repeated group
 *   ],
 *   "bucketCapMB": 25,                          // DDP's bucket_cap_mb (MiB); or "bucketCapBytes"
 *   "alphaUs": 40, "betaGBps": 12.5,            // comm time of a bucket = α + bytes / β (GB/s = bytes/ns)
 *   "optimizerUs": 1500, "stepGapUs": 1000, "jitterPct": 0, "seed": 1
 * }
 * }</pre>
 *
 * <h2>Buckets (DDP's rule)</h2>
 * Layers are taken in backward order and added to the open bucket; the bucket closes as soon as
 * it holds at least the cap ({@code compute_bucket_assignment_by_size}: buckets are "at least"
 * the cap, a layer larger than the cap is one bucket on its own, the last bucket holds the rest).
 * A bucket's gradients are complete when the backward of its last layer with gradients ends, so
 * its all-reduce follows that layer's block. DDP's smaller first bucket
 * ({@code first_bucket_bytes_cap}) is not modelled: every bucket uses the same cap.
 *
 * @param forwardNs      forward compute before backward (0: none)
 * @param layers         layers in backward order, repeats expanded
 * @param bucketCapBytes the cap, bytes
 * @param alphaNs        per-message latency α, ns
 * @param betaBytesPerNs bandwidth β in bytes per ns (numerically equal to decimal GB/s)
 */
public record ModelScenario(String name, String description, int rank, int worldSize, int steps, int firstStep,
                            long forwardNs, List<Layer> layers, long bucketCapBytes, long alphaNs,
                            double betaBytesPerNs, long optimizerNs, long stepGapNs, double jitterPct, long seed) {

    /** One MiB: DDP's {@code bucket_cap_mb} unit. */
    public static final long MIB = 1024L * 1024L;

    public ModelScenario {
        Objects.requireNonNull(name, "name");
        description = description == null ? "" : description;
        layers = List.copyOf(layers);
        if (layers.isEmpty()) {
            throw new IllegalArgumentException("layers: needs at least one layer");
        }
        if (layers.stream().allMatch(l -> l.gradBytes() == 0)) {
            throw new IllegalArgumentException("layers: no layer has gradients (gradBytes all 0)");
        }
        if (forwardNs < 0) {
            throw new IllegalArgumentException("forwardUs must be >= 0, got " + Durations.plainUs(forwardNs));
        }
        if (bucketCapBytes <= 0) {
            throw new IllegalArgumentException("bucket cap must be > 0 bytes, got " + bucketCapBytes);
        }
        if (alphaNs < 0) {
            throw new IllegalArgumentException("alphaUs must be >= 0, got " + Durations.plainUs(alphaNs));
        }
        if (!(betaBytesPerNs > 0) || Double.isInfinite(betaBytesPerNs)) {
            throw new IllegalArgumentException("betaGBps must be > 0, got " + betaBytesPerNs);
        }
    }

    /**
     * One layer's backward.
     *
     * @param ns        backward compute time of the layer (ns, &gt; 0)
     * @param kernels   kernels its compute is split into (default 1)
     * @param gradBytes its gradient bytes (float32: a multiple of 4; 0 for a layer without parameters)
     */
    public record Layer(long ns, int kernels, long gradBytes) {
        public Layer {
            if (ns <= 0) {
                throw new IllegalArgumentException("us must be > 0, got " + Durations.plainUs(ns));
            }
            if (kernels < 1) {
                throw new IllegalArgumentException("kernels must be >= 1, got " + kernels);
            }
            if (gradBytes < 0 || gradBytes % 4 != 0) {
                throw new IllegalArgumentException("gradBytes must be a multiple of 4 (float32) and >= 0, got "
                        + gradBytes);
            }
        }
    }

    /**
     * A bucket of consecutive layers.
     *
     * @param firstLayer index of its first layer (backward order)
     * @param readyLayer index of the layer whose end completes it (its last layer with gradients)
     * @param bytes      total gradient bytes
     */
    public record BucketPlan(int firstLayer, int readyLayer, long bytes) {
    }

    /** Reads a model scenario file; {@link ScenarioException} (one line) when it is not one or is wrong. */
    public static ModelScenario parse(Path file) {
        return ModelScenarioParser.parse(file);
    }

    /** Reads model scenario JSON text; errors name {@code source}. */
    public static ModelScenario parse(String json, String source) {
        return ModelScenarioParser.parse(json, source);
    }

    /** True when the file is a model scenario (has {@code layers}); false for a plain scenario. */
    public static boolean isModelScenario(Path file) {
        return ModelScenarioParser.isModel(file);
    }

    /** The all-reduce time of a bucket: {@code α + bytes/β}, rounded half up to whole ns. */
    public long commNs(long bytes) {
        return alphaNs + Math.round(bytes / betaBytesPerNs);
    }

    /** The same model with another bucket cap (and name). */
    public ModelScenario withBucketCap(long capBytes, String newName) {
        return new ModelScenario(newName, description, rank, worldSize, steps, firstStep, forwardNs, layers,
                capBytes, alphaNs, betaBytesPerNs, optimizerNs, stepGapNs, jitterPct, seed);
    }

    public ModelScenario withSteps(int newSteps) {
        return new ModelScenario(name, description, rank, worldSize, newSteps, firstStep, forwardNs, layers,
                bucketCapBytes, alphaNs, betaBytesPerNs, optimizerNs, stepGapNs, jitterPct, seed);
    }

    public ModelScenario withJitter(double newJitterPct, long newSeed) {
        return new ModelScenario(name, description, rank, worldSize, steps, firstStep, forwardNs, layers,
                bucketCapBytes, alphaNs, betaBytesPerNs, optimizerNs, stepGapNs, newJitterPct, newSeed);
    }

    /** Total gradient bytes of the model. */
    public long totalGradBytes() {
        return layers.stream().mapToLong(Layer::gradBytes).sum();
    }

    /** DDP's bucket assignment (see the class comment), in issue order. */
    public List<BucketPlan> buckets() {
        List<BucketPlan> out = new ArrayList<>();
        int first = 0;
        int lastWithGrads = -1;
        long bytes = 0;
        for (int i = 0; i < layers.size(); i++) {
            long b = layers.get(i).gradBytes();
            if (b == 0) {
                continue;
            }
            bytes += b;
            lastWithGrads = i;
            if (bytes >= bucketCapBytes) {
                out.add(new BucketPlan(first, i, bytes));
                first = i + 1;
                bytes = 0;
                lastWithGrads = -1;
            }
        }
        if (bytes > 0) {
            out.add(new BucketPlan(first, lastWithGrads, bytes));
        }
        return out;
    }

    /** The plain scenario this model writes: one backward block per layer, buckets after their ready layer. */
    public Scenario toScenario() {
        Scenario.Bucket[] after = new Scenario.Bucket[layers.size()];
        for (BucketPlan b : buckets()) {
            after[b.readyLayer()] = new Scenario.Bucket(b.bytes(), commNs(b.bytes()), 0);
        }
        List<Scenario.Block> backward = new ArrayList<>(layers.size());
        for (int i = 0; i < layers.size(); i++) {
            Layer l = layers.get(i);
            backward.add(new Scenario.Block(null, null, l.ns(), l.kernels(), after[i]));
        }
        List<Scenario.Block> forward = forwardNs > 0
                ? List.of(new Scenario.Block(null, null, forwardNs, 1, null)) : List.of();
        return new Scenario(name, description, rank, worldSize, steps, firstStep, forward, backward, optimizerNs,
                stepGapNs, jitterPct, seed);
    }
}
