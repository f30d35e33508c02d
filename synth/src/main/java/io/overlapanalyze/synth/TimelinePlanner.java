package io.overlapanalyze.synth;

import io.overlapanalyze.synth.SyntheticTimeline.KernelOp;
import io.overlapanalyze.synth.SyntheticTimeline.PlannedAnnotation;
import io.overlapanalyze.synth.SyntheticTimeline.PlannedKernel;
import io.overlapanalyze.synth.SyntheticTimeline.PlannedPhase;
import io.overlapanalyze.synth.SyntheticTimeline.PlannedReduction;
import io.overlapanalyze.synth.SyntheticTimeline.PlannedStep;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Scenario → {@link SyntheticTimeline}: places every device interval (the ground truth) and every
 * host op (so that a reader following metrics.md derives the right phases and markers).
 *
 * <p>Host model. The host runs ahead of the device, as real PyTorch does: the step's first
 * launch happens {@link #HOST_LEAD} before the device origin t0, and the following launches
 * take a few µs each while device blocks take ms. The main thread loads data, zeroes grads,
 * launches the forward; the autograd thread then launches block 1, enqueues bucket 1, launches
 * block 2, ... (DDP issues buckets in order); the main thread then runs {@code Optimizer.step}.
 *
 * <p>Late launches. A bucket with {@code launchDelay} is enqueued on the host exactly at
 * {@code dataReady + launchDelay} (device time, same clock), so the trace's
 * {@code launchLate} equals the scenario's delay. Its kernel starts at that same instant (the
 * comm start formula of {@link Scenario}), so its {@code cudaLaunchKernel}, a few µs into the
 * {@code c10d::allreduce_}, lies after the kernel start: a deliberate simplification that keeps
 * the enqueue time exact and within the attribution's ε of the kernel start. While waiting,
 * the autograd thread keeps launching later blocks when waiting first would let the device run
 * dry (the hook "fired late" while the engine went on), so compute stays back-to-back as the
 * scenario says; later buckets queue behind the late one, as in DDP.
 *
 * <p>Causality guard. No kernel starts before {@code launch + LAUNCH_LATENCY} (nor an
 * all-reduce before its enqueue). With realistic block lengths (≥ ~50 µs) this never binds;
 * for tiny blocks the device waits on the host, as it would for real.
 */
final class TimelinePlanner {
    private static final long US = 1_000L;

    /** Header base (2024-04-01, a quarter boundary as Kineto floors it) and the relative origin. */
    static final long BASE_TIME_NS = 1_711_964_646_000_000_000L;
    /** Relative ts of the first host event: 4458677000000.000 µs, like a real trace (~51 days). */
    static final long TRACE_ORIGIN_NS = 4_458_677_000_000L * US;

    static final long HOST_LEAD = 100 * US;
    static final long LAUNCH_LATENCY = 5 * US;
    static final long HOST_STEP_GAP = 20 * US;
    static final long GAP = 2 * US;
    /** Nesting inset of a child op inside its parent. */
    static final long NEST = 1 * US;
    /** Kernel ops: launches start after 3 nesting levels, every {@link #LAUNCH_SLOT}. */
    static final long OP_PRE = 3 * US;
    static final long OP_POST = 3 * US;
    static final long LAUNCH_SLOT = 7 * US;
    static final long LAUNCH_DUR = 5 * US;
    /** c10d::allreduce_ [E, E+30] ⊃ record_param_comms [E+2, E+28] ⊃ nccl:all_reduce [E+4, E+24] ⊃ launch. */
    static final long COLL_DUR = 30 * US;
    static final long COLL_LAUNCH_OFFSET = 10 * US;
    static final long COLL_LAUNCH_DUR = 8 * US;

    static final String DATALOADER = "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__";
    static final String ZERO_GRAD = "Optimizer.zero_grad#SGD.zero_grad";
    static final String FORWARD = "## forward ##";
    static final String OPTIMIZER = "Optimizer.step#SGD.step";
    static final String OPTIMIZER_OP = "aten::_foreach_add_";
    static final String FWD_OP = "aten::mm";
    static final String BWD_FN = "MmBackward0";
    static final String FWD_KERNEL = "void cutlass::Kernel2<cutlass_80_tensorop_s1688gemm_128x128_32x3_nn_align4>"
            + "(cutlass_80_tensorop_s1688gemm_128x128_32x3_nn_align4::Params)";
    static final String BWD_KERNEL = "void cutlass::Kernel2<cutlass_80_tensorop_s1688gemm_128x128_32x3_tn_align4>"
            + "(cutlass_80_tensorop_s1688gemm_128x128_32x3_tn_align4::Params)";
    static final String OPT_KERNEL = "void at::native::(anonymous namespace)::multi_tensor_apply_kernel"
            + "<at::native::(anonymous namespace)::TensorListMetadata<2>, "
            + "at::native::(anonymous namespace)::BinaryOpListAlphaFunctor<float, 2, 2, 0>, std::plus<float>, float>"
            + "(at::native::(anonymous namespace)::TensorListMetadata<2>, "
            + "at::native::(anonymous namespace)::BinaryOpListAlphaFunctor<float, 2, 2, 0>, std::plus<float>, float)";

    private final Scenario s;
    private final SplittableRandom random;
    private final PlanHooks hooks;

    private TimelinePlanner(Scenario s, PlanHooks hooks) {
        this.s = s;
        this.random = new SplittableRandom(s.seed());
        this.hooks = hooks;
    }

    static SyntheticTimeline plan(Scenario s) {
        return new TimelinePlanner(s, PlanHooks.NONE).planAll();
    }

    /** One rank of a job: {@link JobPlanner} delays its steps and synchronises its collectives' ends. */
    static SyntheticTimeline plan(Scenario s, PlanHooks hooks) {
        return new TimelinePlanner(s, hooks).planAll();
    }

    private SyntheticTimeline planAll() {
        long firstLaunch = firstLaunchOffset();
        long hostStart = TRACE_ORIGIN_NS;
        long t0 = hostStart + firstLaunch + HOST_LEAD;
        List<PlannedStep> steps = new ArrayList<>(s.steps());
        for (int i = 0; i < s.steps(); i++) {
            long delay = hooks.stepDelayNs(s.firstStep() + i); // a slow rank starts its step late (0: single rank)
            PlannedStep step = new StepPlanner(s.firstStep() + i, hostStart + delay, t0 + delay).plan();
            steps.add(step);
            // Next step: device origin after the gap; the host must also have finished this step.
            t0 = step.deviceEnd() + s.stepGapNs();
            hostStart = t0 - firstLaunch - HOST_LEAD;
            if (hostStart < step.hostEnd() + HOST_STEP_GAP) {
                hostStart = step.hostEnd() + HOST_STEP_GAP;
                t0 = hostStart + firstLaunch + HOST_LEAD;
            }
        }
        return new SyntheticTimeline(s, BASE_TIME_NS, steps);
    }

    /** Host time from ProfilerStep start to the step's first cudaLaunchKernel (see StepPlanner). */
    private long firstLaunchOffset() {
        long m = s.dataLoaderNs() + 40 * US;
        return s.forward().isEmpty() ? m + 5 * US + OP_PRE : m + GAP + OP_PRE;
    }

    private long jitter(long ns) {
        if (s.jitterPct() == 0) {
            return ns;
        }
        double factor = 1 + s.jitterPct() / 100 * (2 * random.nextDouble() - 1);
        return Math.max(1, Math.round(ns * factor));
    }

    /** Plans one step; mutable cursors for the two streams. */
    private final class StepPlanner {
        private final int number;
        private final long hostStart;
        private final long t0;
        private long computeFree;
        private long commFree = Long.MIN_VALUE;
        private final List<PlannedKernel> compute = new ArrayList<>();
        private final List<PlannedReduction> reductions = new ArrayList<>();
        private final List<PlannedAnnotation> annotations = new ArrayList<>();
        private final List<KernelOp> mainOps = new ArrayList<>();
        private final List<KernelOp> autogradOps = new ArrayList<>();

        StepPlanner(int number, long hostStart, long t0) {
            this.number = number;
            this.hostStart = hostStart;
            this.t0 = t0;
            this.computeFree = t0;
        }

        PlannedStep plan() {
            long h = hostStart;
            long loaded = h + 2 * US + s.dataLoaderNs();
            annotations.add(new PlannedAnnotation(DATALOADER, h + 2 * US, loaded));
            annotations.add(new PlannedAnnotation(ZERO_GRAD, loaded + 8 * US, loaded + 28 * US));
            long m = loaded + 38 * US; // must match firstLaunchOffset()

            if (!s.forward().isEmpty()) {
                long fwdStart = m;
                m += GAP;
                for (int i = 0; i < s.forward().size(); i++) {
                    Scenario.Block b = s.forward().get(i);
                    KernelOp op = launchOp(PlannedPhase.FORWARD, i, orDefault(b.name(), FWD_OP),
                            orDefault(b.kernel(), FWD_KERNEL), m, jitter(b.ns()), b.kernels(), b.deviceWaitNs());
                    mainOps.add(op);
                    m = op.end() + GAP;
                }
                annotations.add(new PlannedAnnotation(FORWARD, fwdStart, m));
                m += GAP;
            }

            long a = backward(m + 5 * US);

            // The main thread steps the optimizer once backward() has returned on the host.
            long o = Math.max(m, a) + 5 * US;
            long optEnd;
            if (s.optimizerNs() > 0) {
                long lastReduceEnd = commFree;
                computeFree = Math.max(computeFree, lastReduceEnd); // DDP: optimizer waits for all buckets
                KernelOp op = launchOp(PlannedPhase.OPTIMIZER, 0, OPTIMIZER_OP, OPT_KERNEL, o + 2 * US,
                        jitter(s.optimizerNs()), 1, 0);
                mainOps.add(op);
                optEnd = op.end() + 2 * US;
            } else {
                optEnd = o + 15 * US;
            }
            annotations.add(new PlannedAnnotation(OPTIMIZER, o, optEnd));
            long hostEnd = optEnd + 3 * US;

            long deviceStart = Long.MAX_VALUE;
            long deviceEnd = Long.MIN_VALUE;
            for (PlannedKernel k : compute) {
                deviceStart = Math.min(deviceStart, k.start());
                deviceEnd = Math.max(deviceEnd, k.end());
            }
            for (PlannedReduction r : reductions) {
                deviceStart = Math.min(deviceStart, r.start());
                deviceEnd = Math.max(deviceEnd, r.end());
            }
            return new PlannedStep(number, hostStart, hostEnd, deviceStart, deviceEnd, compute, reductions,
                    annotations, mainOps, autogradOps);
        }

        /** The autograd thread from host time {@code a}; returns the thread's host end. */
        private long backward(long a) {
            List<Scenario.Block> blocks = s.backward();
            Deque<Pending> pending = new ArrayDeque<>();
            int bucketNo = 0;
            for (int i = 0; i < blocks.size(); i++) {
                Scenario.Block b = blocks.get(i);
                KernelOp op = launchOp(PlannedPhase.BACKWARD, i, orDefault(b.name(), BWD_FN),
                        orDefault(b.kernel(), BWD_KERNEL), a, jitter(b.ns()), b.kernels(), b.deviceWaitNs());
                autogradOps.add(op);
                a = op.end() + GAP;
                if (b.bucket() != null) {
                    Scenario.Bucket k = b.bucket();
                    pending.add(new Pending(++bucketNo, i, k.bytes(), computeFree, k.launchDelayNs(),
                            jitter(k.commNs())));
                }
                a = flush(pending, a, i + 1 < blocks.size());
            }
            return flush(pending, a, false);
        }

        /**
         * Enqueues pending buckets in order. A late bucket waits on the host for its moment, unless
         * a later block still has to be launched and waiting would starve the compute stream.
         */
        private long flush(Deque<Pending> pending, long a, boolean moreBlocks) {
            while (!pending.isEmpty()) {
                Pending g = pending.peek();
                long enqueue = g.delay > 0 ? Math.max(a, g.ready + g.delay) : a;
                if (moreBlocks && g.delay > 0
                        && enqueue + COLL_DUR + GAP + OP_PRE + LAUNCH_LATENCY > computeFree) {
                    break; // launch the next block first; this bucket's hook fires later
                }
                pending.poll();
                long start = Math.max(Math.max(g.ready + g.delay, commFree), enqueue);
                // In a job a collective cannot end before its last peer arrived (JobPlanner); alone: start + comm.
                long end = hooks.commEnd(number, g.bucket, start, start + g.commNs);
                commFree = end;
                reductions.add(new PlannedReduction(g.bucket, g.block, g.bytes, g.ready, g.delay, enqueue,
                        enqueue + COLL_DUR, enqueue + COLL_LAUNCH_OFFSET, start, end));
                a = enqueue + COLL_DUR + GAP;
            }
            return a;
        }

        /**
         * A host op at {@code start} launching {@code k} kernels that share {@code ns} exactly; the
         * first waits {@code deviceWait} after the stream is free (a stream dependency).
         */
        private KernelOp launchOp(PlannedPhase phase, int block, String opName, String kernelName, long start, long ns,
                int k, long deviceWait) {
            k = (int) Math.min(k, ns);
            long base = ns / k;
            long extra = ns % k; // the first `extra` kernels get one more ns: exact sum
            List<PlannedKernel> kernels = new ArrayList<>(k);
            for (int j = 0; j < k; j++) {
                long launch = start + OP_PRE + j * LAUNCH_SLOT;
                long ks = Math.max(computeFree + (j == 0 ? deviceWait : 0), launch + LAUNCH_LATENCY);
                long ke = ks + base + (j < extra ? 1 : 0);
                computeFree = ke;
                PlannedKernel kernel = new PlannedKernel(phase, block, kernelName, launch, ks, ke);
                kernels.add(kernel);
                compute.add(kernel);
            }
            long end = start + OP_PRE + k * LAUNCH_SLOT + OP_POST;
            return new KernelOp(phase, opName, start, end, kernels);
        }
    }

    private record Pending(int bucket, int block, long bytes, long ready, long delay, long commNs) {
    }

    private static String orDefault(String v, String dflt) {
        return v == null ? dflt : v;
    }
}
