package io.overlapanalyze.render.html;

import io.overlapanalyze.render.Explanations;
import io.overlapanalyze.report.TailKind;

import java.util.ArrayList;
import java.util.List;

/** The metric definitions (metrics.md, in the README's words) at the end of the page. */
final class Glossary {
    private Glossary() {
    }

    /** Term and definition, in reading order. */
    static List<String[]> entries() {
        List<String[]> e = new ArrayList<>(List.of(
                new String[] {"step", "a ProfilerStep#N host annotation; device work belongs to the step in which the "
                        + "host launched it. No step annotations: the whole trace is one step \"all\"."},
                new String[] {"step time", "from the step's first device start to its last device end; the timelines "
                        + "span this window and mark times in ms after its start."},
                new String[] {"compute / comm lanes", "the union over all streams of compute kernels and of "
                        + "communication (NCCL/RCCL/HCCL) kernels; memcpy and memset form their own lane, "
                        + "synchronisation is never drawn as work."},
                new String[] {"comm busy, compute busy", "the length of those unions."},
                new String[] {"overlapped", "communication time with compute running at the same time."},
                new String[] {"exposed comm", "communication time with no compute running (red in the timelines): "
                        + "the part of communication that makes the step longer."},
                new String[] {"overlap %", "overlapped / comm busy."},
                new String[] {"exposed gradient comm", "exposed time of the gradient reductions alone."},
                new String[] {"idle", "time inside the step's period (its first device start to the next step's) "
                        + "when the device runs no compute, communication or memory copy of any step."},
                new String[] {"step period, window overlap", "the period runs from the step's first device start to "
                        + "the next step's; periods never overlap. Pipelined steps' windows do: the overlap is how "
                        + "far a window runs past its period."},
                new String[] {"before the capture", "device work still running from launches made before the "
                        + "profiler started; it belongs to no step."},
                new String[] {"serial estimate", "compute busy + comm busy: the step with no overlap at all."},
                new String[] {"first bucket ready", "when the first gradient reduction's input was complete: the "
                        + "latest end of compute launched before it was issued."},
                new String[] {"reduce start", "device start of the first gradient reduction."},
                new String[] {"last compute end", "end of the backward compute that started before the last "
                        + "reduction ended."},
                new String[] {"last reduce end", "device end of the gradient reduction that ends last."},
                new String[] {"tail", "max(0, last reduce end − last compute end): communication still running after "
                        + "the last gradient; the optimizer waits for it (shaded yellow in the timelines)."},
                new String[] {"start delay, launch late", "reduce start − first bucket ready, and the part of it "
                        + "caused by the host issuing the collective after its data was ready."},
                new String[] {"chain", "walking back from the last reduction, what each collective waited for: DATA "
                        + "(its input), LAUNCH (the host issuing it), QUEUE (the previous collective on its stream; the "
                        + "chain continues with that one), UNEXPLAINED (nothing traced explains its start)."},
                new String[] {"partial", "the step is cut by the end of the capture or misses device work; excluded "
                        + "from totals unless --include-partial."}));
        e.addAll(crossRank());
        e.addAll(beyond());
        for (TailKind k : TailKind.values()) {
            e.add(new String[] {"cause " + k.name(), Explanations.tail(k) + "."});
        }
        return e;
    }

    /** The "Beyond DDP" terms (metrics.md §9 and the analyses beyond DDP buckets). */
    static List<String[]> beyond() {
        return List.of(
                new String[] {"late prefetch", "an all-gather (FSDP / ZeRO parameter prefetch) that ended after the "
                        + "stream running its consumer had finished its previous work: \"late by\" is all-gather end − "
                        + "that moment, \"wait\" the part of it before the consumer started."},
                new String[] {"exposed prefetch", "per step, the union of those waits: compute-stream idle spent "
                        + "waiting for parameters to arrive."},
                new String[] {"bubble", "pipeline parallelism: time in the step's window with no compute running "
                        + "(waiting on a receive, ramp-up and drain of the pipeline); \"bubbles\" counts the separate "
                        + "runs of it."},
                new String[] {"summed start delay; late launch, busy comm stream", "launch diagnostics: every "
                        + "gradient collective's start delay (device start − data ready) added up over the step (not "
                        + "the step's start delay, which is the first bucket's alone), split into the host issuing "
                        + "it after its data was ready, the comm stream still running the previous collective, and "
                        + "the rest."},
                new String[] {"slowdown under overlap", "for one kernel name, (median duration of instances that ran "
                        + "at least half their time under communication − median of instances that never did) / the "
                        + "latter: compute slowed by sharing the device with communication; \"extra ms/step\" is what "
                        + "it costs a step."},
                new String[] {"peak allocated", "the highest total the device allocator reported (Kineto [memory] "
                        + "events, torch_npu memory records of its PTA allocator) during the step's host span: live "
                        + "tensors, not the allocator's cache; needs profile_memory=True."});
    }

    /** The cross-rank terms (metrics.md §8, §9). */
    private static List<String[]> crossRank() {
        return List.of(
                new String[] {"clock offset", "a rank's clock minus the mean clock of the ranks, the median over "
                        + "collectives every rank joined of (its end − the mean end): matched collectives end together. "
                        + "Arrivals and waits use the clocks corrected by it; the residual is how far ends still differ."},
                new String[] {"arrival", "a rank's aligned device start of a matched collective: when it got there."},
                new String[] {"arrival skew", "latest − earliest arrival at one collective."},
                new String[] {"wait", "for one rank at one collective, the latest arrival − its arrival: the time it "
                        + "sat in the collective waiting for the last peer (0 for the last one)."},
                new String[] {"straggler", "the rank arriving strictly after every other at a collective; \"waited "
                        + "for\" sums, over those collectives, its arrival − the next-latest arrival: the time the job "
                        + "waited on it alone. The straggler table ranks by it."},
                new String[] {"transfer", "the shortest duration of a collective over ranks: its time without waiting."},
                new String[] {"algbw / busbw", "algorithm bandwidth = message bytes / transfer; bus bandwidth = algbw × "
                        + "the type's bus factor (nccl-tests: all-reduce 2(n−1)/n, all-gather and reduce-scatter "
                        + "(n−1)/n, broadcast and reduce 1), comparable with the link speed; decimal GB/s."},
                new String[] {"mismatch TYPE, SIZE, DTYPE", "at one position of a process group's issue order, the "
                        + "ranks issued collectives of different types, sizes or dtypes: the job computes something "
                        + "wrong or hangs there. Only the first divergence of a group is listed."},
                new String[] {"mismatch MISSING", "some ranks never issued a collective the others did: likely hang "
                        + "(the others wait forever) or a capture cut at different points."},
                new String[] {"severity ERROR / WARNING", "ERROR when the traces name the process group, so the "
                        + "divergence is real; WARNING when the group is inferred (one implicit group matched by "
                        + "issue order), so it may come from collectives that belong to different groups."});
    }

    static void write(StringBuilder sb) {
        sb.append("<dl class=\"glossary\">");
        for (String[] entry : entries()) {
            sb.append("<dt>").append(Html.esc(entry[0])).append("</dt><dd>").append(Html.esc(entry[1])).append("</dd>");
        }
        sb.append("</dl>");
    }
}
