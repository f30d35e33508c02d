package io.overlapanalyze.synth;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Scenarios beyond DDP buckets, written by {@link ParallelScenarioWriter} as Kineto
 * traces with known ground truth. A scenario file says which with {@code "kind"} ({@link ParallelScenarioParser}
 * reads the files):
 *
 * <h2>{@code "kind": "fsdp"}: FSDP / ZeRO-3 parameter prefetch</h2>
 * <pre>{@code
 * {"kind": "fsdp", "name": "fsdp-late-prefetch", "steps": 2,
 *  "inputUs": 500, "headUs": 500, "optimizerUs": 0, "stepGapUs": 1000, "syncEvents": true,
 *  "layers": [ {"fwdUs": 1000, "bwdUs": 2000, "agUs": 400, "bwdAgUs": 400, "rsUs": 600, "paramBytes": 16777216} ]}
 * }</pre>
 * Device semantics per step (three streams: compute 7, all-gather 20, reduce-scatter 24):
 * an input block (no sharded parameters) runs first while layer 1's all-gather runs. Layer k's
 * forward starts at {@code max(compute free, AG(k) end)}; when it starts, FSDP's prefetch of
 * layer k+1 starts on the all-gather stream ({@code max(that instant, all-gather stream free)},
 * lasting {@code agUs} of layer k+1). A prefetch is <b>late</b> when it ends after the layer that
 * hides it: the compute stream then waits exactly {@code AG(k+1) end − layer k end}. Then a head
 * block (loss) runs while the last layer's backward all-gather runs; backward goes from the last
 * layer to the first with the same prefetch rule ({@code bwdAgUs}), and after each layer's
 * backward its gradients are reduce-scattered ({@code rsUs}, starting at
 * {@code max(backward end, reduce-scatter stream free)}). The optimizer kernel, when
 * {@code optimizerUs > 0}, starts after all reduce-scatters. With {@code syncEvents} the compute
 * stream waits on an event recorded after each all-gather ({@code cuda_sync} rows), and each
 * reduce-scatter waits on an event recorded after its layer's backward. Allocator instants:
 * the unsharded parameters ({@code paramBytes}) are allocated at the all-gather's enqueue and freed
 * when the layer's op ends on the host; gradients likewise from the backward op's end to the
 * reduce-scatter's enqueue end, on top of a 2 GiB baseline.
 *
 * <h2>{@code "kind": "pipeline"}: one stage of a GPipe pipeline</h2>
 * <pre>{@code
 * {"kind": "pipeline", "name": "pipeline-4stage", "stage": 1, "stages": 4, "microBatches": 4,
 *  "fwdUs": 1000, "bwdUs": 2000, "p2pUs": 200, "arrivalIntervalUs": 1200, "turnaroundUs": 2500,
 *  "p2pBytes": 8388608, "steps": 2}
 * }</pre>
 * Forward micro-batch m (0-based): unless the stage is the first, its activations are received
 * on the recv stream 23 in {@code [t0 + m·arrivalInterval, +p2p)}; its forward runs at
 * {@code max(compute free, receive end)}; unless the stage is the last, the output is sent on the
 * send stream 22 at {@code max(forward end, send stream free)} for {@code p2pUs}. Backward
 * micro-batch j (0-based, in reverse micro-batch order): unless the stage is the last, its
 * gradient is received in {@code [F + turnaround − p2p + j·arrivalInterval, +p2p)}, F the last
 * forward end; backward runs at {@code max(compute free, receive end)}; unless the stage is the
 * first, the input gradient is sent as above.
 *
 * <h2>{@code "kind": "contention"}: a kernel slower while communication runs</h2>
 * <pre>{@code
 * {"kind": "contention", "name": "contention-20pct", "kernelUs": 100, "kernels": 16,
 *  "slowdownPct": 20, "headUs": 300, "commUs": 500, "jitterPct": 3, "seed": 7, "steps": 4}
 * }</pre>
 * Per step: forward runs {@code kernels} instances of one GEMM back-to-back with nothing else on
 * the device (isolated); backward runs a head kernel, then a gradient all-reduce that lasts
 * exactly as long as the next {@code kernels} instances of the same GEMM, each
 * {@code slowdownPct} % longer ({@code round(d × (100 + slowdownPct) / 100)} of its own jittered
 * base {@code d}), then a second all-reduce of {@code commUs}. Every duration {@code d} is
 * {@code kernelUs} times a factor uniform in {@code [1 − j/100, 1 + j/100]}
 * ({@code SplittableRandom(seed)}), rounded to whole ns.
 *
 * <p>With {@code "fasterPct": f} the same GEMM name also runs a second launch shape: every GEMM
 * above is launched with grid {@code [132, 1, 1]}, block {@code [128, 1, 1]} (shape A), and after
 * each group of shape A comes a group of {@code kernels} instances with grid {@code [264, 1, 1]},
 * block {@code [256, 1, 1]} (shape B), of base duration {@code 2 × d}: alone in forward; under the
 * first all-reduce (which then also covers them) in backward, each {@code f} % shorter
 * ({@code round(2d × (100 − f) / 100)}). Shape A is slower under overlap, shape B faster. Without
 * {@code fasterPct} no kernel carries a shape.
 *
 * <h2>{@code "kind": "moe"}: expert-parallel MoE layer, two micro-batches</h2>
 * <pre>{@code
 * {"kind": "moe", "name": "moe-ep", "layoutUs": 200, "attentionUs": 1500, "mlpUs": 2000,
 *  "notifyUs": 100, "dispatchUs": 1200, "combineUs": 1000, "steps": 2}
 * }</pre>
 * Per step (compute stream 7, expert-parallel stream 30; every op starts when its stream is free
 * and its input is ready): DeepEP's {@code get_dispatch_layout} (compute) runs first; then
 * attention of micro-batch F, then of B, back to back. When a micro-batch's attention ends (and the
 * EP stream is free) its {@code notify_dispatch} and {@code dispatch} run on the EP stream, so
 * F's dispatch hides under B's attention. MLP of F starts at {@code max(compute free, dispatch(F)
 * end)}, then MLP of B at {@code max(compute free, dispatch(B) end)}; each micro-batch's
 * {@code combine} starts at {@code max(EP stream free, its MLP end)}: F's combine hides under B's
 * MLP, B's combine is exposed. Each device op also carries a {@code gpu_user_annotation} range
 * named after the op and micro-batch ({@code attention(F)}, {@code dispatch(F)}, {@code mlp(B)},
 * {@code combine(B)}). Written as Kineto or as an Nsight Systems export.
 *
 * <p>Common fields: {@code name} (required), {@code description}, {@code rank} (0),
 * {@code worldSize} (2), {@code steps} (1), {@code firstStep} (1), {@code stepGapUs} (1000).
 * Unknown fields are errors.
 */
public sealed interface ParallelScenario {
    Common common();

    /** Fields every kind has. */
    record Common(String name, String description, int rank, int worldSize, int steps, int firstStep,
            long stepGapNs) {
        public Common {
            if (name == null || name.isBlank()) {
                throw new IllegalArgumentException("name must not be blank");
            }
            if (worldSize < 1 || rank < 0 || rank >= worldSize) {
                throw new IllegalArgumentException("rank must be in [0, worldSize)");
            }
            if (steps < 1) {
                throw new IllegalArgumentException("steps must be >= 1");
            }
            if (stepGapNs < 0) {
                throw new IllegalArgumentException("stepGapUs must be >= 0");
            }
        }
    }

    /** One FSDP unit: forward/backward time, its all-gathers, its reduce-scatter. */
    record Layer(long fwdNs, long bwdNs, long agNs, long bwdAgNs, long rsNs, long paramBytes) {
        public Layer {
            if (fwdNs <= 0 || bwdNs <= 0 || agNs <= 0 || bwdAgNs <= 0 || rsNs <= 0) {
                throw new IllegalArgumentException("layer times must be > 0");
            }
            if (paramBytes <= 0 || paramBytes % 4 != 0) {
                throw new IllegalArgumentException("paramBytes must be a positive multiple of 4");
            }
        }
    }

    record Fsdp(Common common, List<Layer> layers, long inputNs, long headNs, long optimizerNs, boolean syncEvents)
            implements ParallelScenario {
        public Fsdp {
            layers = List.copyOf(layers);
            if (layers.isEmpty()) {
                throw new IllegalArgumentException("layers must not be empty");
            }
            if (inputNs <= 0 || headNs <= 0 || optimizerNs < 0) {
                throw new IllegalArgumentException("inputUs and headUs must be > 0, optimizerUs >= 0");
            }
        }
    }

    record Pipeline(Common common, int stage, int stages, int microBatches, long fwdNs, long bwdNs, long p2pNs,
            long arrivalIntervalNs, long turnaroundNs, long p2pBytes) implements ParallelScenario {
        public Pipeline {
            if (stages < 2 || stage < 0 || stage >= stages) {
                throw new IllegalArgumentException("stage must be in [0, stages), stages >= 2");
            }
            if (microBatches < 1 || fwdNs <= 0 || bwdNs <= 0 || p2pNs <= 0 || arrivalIntervalNs <= 0) {
                throw new IllegalArgumentException("microBatches, fwdUs, bwdUs, p2pUs, arrivalIntervalUs must be > 0");
            }
            if (turnaroundNs < p2pNs) {
                throw new IllegalArgumentException("turnaroundUs must be >= p2pUs");
            }
            if (p2pBytes <= 0 || p2pBytes % 4 != 0) {
                throw new IllegalArgumentException("p2pBytes must be a positive multiple of 4");
            }
        }
    }

    record Contention(Common common, long kernelNs, int kernels, long slowdownPct, long headNs, long commNs,
            double jitterPct, long seed, long fasterPct) implements ParallelScenario {
        public Contention {
            if (fasterPct != -1 && !(fasterPct >= 0 && fasterPct < 100)) {
                throw new IllegalArgumentException("fasterPct must be in [0, 100)");
            }
            if (kernelNs <= 0 || kernels < 1 || headNs <= 0 || commNs <= 0) {
                throw new IllegalArgumentException("kernelUs, kernels, headUs, commUs must be > 0");
            }
            if (slowdownPct < 0) {
                throw new IllegalArgumentException("slowdownPct must be >= 0");
            }
            if (!(jitterPct >= 0 && jitterPct < 50)) {
                throw new IllegalArgumentException("jitterPct must be in [0, 50)");
            }
        }
    }

    /** One MoE layer per step, two micro-batches; DeepEP dispatch/combine next to the other's compute. */
    record MoeEp(Common common, long layoutNs, long attentionNs, long mlpNs, long notifyNs, long dispatchNs,
            long combineNs) implements ParallelScenario {
        public MoeEp {
            if (layoutNs <= 0 || attentionNs <= 0 || mlpNs <= 0 || notifyNs <= 0 || dispatchNs <= 0 || combineNs <= 0) {
                throw new IllegalArgumentException(
                        "layoutUs, attentionUs, mlpUs, notifyUs, dispatchUs, combineUs must be > 0");
            }
        }
    }

    // ---- built-ins ----

    /** Built-in parallelism scenarios by name. */
    static Map<String, Supplier<ParallelScenario>> builtins() {
        Map<String, Supplier<ParallelScenario>> m = new LinkedHashMap<>();
        m.put("fsdp-late-prefetch", ParallelScenario::fsdpLatePrefetch);
        m.put("pipeline-4stage", ParallelScenario::pipeline4);
        m.put("contention-20pct", ParallelScenario::contention20);
        m.put("moe-ep", ParallelScenario::moeEp);
        return m;
    }

    /** Names of the built-ins. */
    static List<String> builtinNames() {
        return new ArrayList<>(builtins().keySet());
    }

    /** The named built-in, or {@code null}. */
    static ParallelScenario builtin(String name) {
        Supplier<ParallelScenario> s = builtins().get(name);
        return s == null ? null : s.get();
    }

    /**
     * Four FSDP layers; layer 3's forward all-gather takes 1.5 ms while layer 2 (which hides it)
     * computes for 1 ms: the compute stream waits 500 µs before layer 3. Every other prefetch
     * (400 µs under ≥ 500 µs of compute) is on time.
     */
    private static ParallelScenario fsdpLatePrefetch() {
        long mib16 = 16L * 1024 * 1024;
        List<Layer> layers = List.of(
                new Layer(Durations.us(1000), Durations.us(2000), Durations.us(400), Durations.us(400),
                        Durations.us(600), mib16),
                new Layer(Durations.us(1000), Durations.us(2000), Durations.us(400), Durations.us(400),
                        Durations.us(600), mib16),
                new Layer(Durations.us(1000), Durations.us(2000), Durations.us(1500), Durations.us(400),
                        Durations.us(600), mib16),
                new Layer(Durations.us(1000), Durations.us(2000), Durations.us(400), Durations.us(400),
                        Durations.us(600), mib16));
        return new Fsdp(new Common("fsdp-late-prefetch",
                "FSDP, 4 layers, per-layer all-gather prefetch, reduce-scatter in backward; layer 3's prefetch "
                        + "ends 500 us late", 0, 2, 2, 1, Durations.us(1000)),
                layers, Durations.us(500), Durations.us(500), 0, true);
    }

    /** Stage 1 of 4, 4 micro-batches, arrivals every 1.2 ms for 1 ms of forward work: bubbles. */
    private static ParallelScenario pipeline4() {
        return new Pipeline(new Common("pipeline-4stage",
                "pipeline stage 1 of 4 (GPipe), 4 micro-batches, 200 us send/recv, arrivals every 1.2 ms", 1, 4, 2, 1,
                Durations.us(1000)), 1, 4, 4, Durations.us(1000), Durations.us(2000), Durations.us(200),
                Durations.us(1200), Durations.us(2500), 8L * 1024 * 1024);
    }

    /** One GEMM 20 % slower while a gradient all-reduce runs next to it. */
    private static ParallelScenario contention20() {
        return new Contention(new Common("contention-20pct",
                "a GEMM 20% slower while overlapped with an all-reduce; 16 isolated and 16 overlapped per step, "
                        + "3% jitter", 0, 2, 4, 1, Durations.us(1000)),
                Durations.us(100), 16, 20, Durations.us(300), Durations.us(500), 3, 7, -1);
    }

    /**
     * Expert parallelism with DeepEP, two micro-batches: F's dispatch under B's attention, F's
     * combine under B's MLP, B's combine exposed (per step: compute 7.2 ms, comm 4.6 ms, 1 ms exposed).
     */
    private static ParallelScenario moeEp() {
        return new MoeEp(new Common("moe-ep",
                "expert-parallel MoE layer, 2 micro-batches, DeepEP dispatch/combine on their own stream under the "
                        + "other micro-batch's attention/MLP; the last combine exposed", 0, 8, 2, 1, Durations.us(1000)),
                Durations.us(200), Durations.us(1500), Durations.us(2000), Durations.us(100), Durations.us(1200),
                Durations.us(1000));
    }
}
