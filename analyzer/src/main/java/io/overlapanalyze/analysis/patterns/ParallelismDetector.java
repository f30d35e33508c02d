package io.overlapanalyze.analysis.patterns;

import io.overlapanalyze.analysis.PhaseClassifier;
import io.overlapanalyze.formats.kernels.KernelRules;
import io.overlapanalyze.model.Collective;
import io.overlapanalyze.model.CollectiveType;
import io.overlapanalyze.model.RankTrace;
import io.overlapanalyze.report.Parallelism;
import io.overlapanalyze.report.Phase;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Which parallelism a rank's trace shows, from its collectives' types and the phase of their
 * enqueue. Collectives without device work count too: the question is what the
 * program issued.
 *
 * <ul>
 *   <li>{@code FSDP}: all-gathers and reduce-scatters both present (FSDP, ZeRO-3: parameters
 *       gathered before use, gradients reduce-scattered). All-gathers alone are reported as a
 *       doubt, not as FSDP (they could be tensor-parallel activations).</li>
 *   <li>{@code DDP}: all-reduces enqueued during BACKWARD (gradient buckets).</li>
 *   <li>{@code TENSOR_PARALLEL}: all-reduces enqueued during FORWARD (Megatron row-parallel layers
 *       reduce activations in forward; DDP issues none there).</li>
 *   <li>{@code PIPELINE}: send / recv collectives.</li>
 *   <li>{@code EXPERT_PARALLEL}: all-to-all collectives of expert-parallel dispatch / combine
 *       kernels (mixture-of-experts token exchange).</li>
 * </ul>
 * Without host ops the phase of an all-reduce is unknown: DDP and tensor parallel cannot be told
 * apart and the evidence says so instead of guessing.
 */
public final class ParallelismDetector {
    private ParallelismDetector() {
    }

    private static boolean launchedBeforeCapture(RankTrace trace, Collective c) {
        int[] iv = c.deviceIntervals();
        if (iv.length == 0) {
            return false;
        }
        for (int i : iv) {
            if (!trace.device().preCapture(i)) {
                return false;
            }
        }
        return true;
    }

    public static Parallelism detect(RankTrace trace, PhaseClassifier phases, int steps) {
        Map<CollectiveType, Integer> byType = new EnumMap<>(CollectiveType.class);
        Map<Phase, Integer> allReduceByPhase = new EnumMap<>(Phase.class);
        for (Collective c : trace.collectives()) {
            if (launchedBeforeCapture(trace, c)) {
                continue; // in no step (metrics.md §2): not evidence of what the steps do
            }
            byType.merge(c.type(), 1, Integer::sum);
            if (c.type() == CollectiveType.ALL_REDUCE) {
                allReduceByPhase.merge(phases.phaseOfCollective(c, trace.device()), 1, Integer::sum);
            }
        }
        List<String> kinds = new ArrayList<>();
        List<String> evidence = new ArrayList<>();
        if (trace.collectives().isEmpty()) {
            evidence.add("no collectives in the trace: single-device work, no parallelism to recognise");
            return new Parallelism(kinds, evidence);
        }
        String per = steps > 0 ? " over " + steps + (steps == 1 ? " step" : " steps") : "";
        int ag = byType.getOrDefault(CollectiveType.ALL_GATHER, 0);
        int rs = byType.getOrDefault(CollectiveType.REDUCE_SCATTER, 0);
        if (ag > 0 && rs > 0) {
            kinds.add("FSDP");
            evidence.add("FSDP / ZeRO: " + ag + " all-gathers (parameters) and " + rs
                    + " reduce-scatters (gradients)" + per);
        } else if (ag > 0) {
            evidence.add(ag + " all-gathers without reduce-scatter: not counted as FSDP (tensor-parallel or "
                    + "evaluation gathers look the same)");
        } else if (rs > 0) {
            evidence.add(rs + " reduce-scatters without all-gathers: ZeRO-1/2-like sharded gradients, or all-gathers "
                    + "not traced");
        }
        int arBackward = allReduceByPhase.getOrDefault(Phase.BACKWARD, 0);
        int arForward = allReduceByPhase.getOrDefault(Phase.FORWARD, 0);
        int arUnknown = allReduceByPhase.getOrDefault(Phase.UNKNOWN, 0);
        if (arBackward > 0) {
            kinds.add("DDP");
            evidence.add("DDP: " + arBackward + " all-reduces enqueued during backward (gradient buckets)" + per);
        }
        if (arForward > 0) {
            kinds.add("TENSOR_PARALLEL");
            evidence.add("tensor parallel: " + arForward + " all-reduces enqueued during forward" + per);
        }
        if (arUnknown > 0) {
            evidence.add(arUnknown + " all-reduces of unknown phase (no host ops or launch link): data parallel and "
                    + "tensor parallel cannot be told apart");
        }
        int p2p = byType.getOrDefault(CollectiveType.SEND, 0) + byType.getOrDefault(CollectiveType.RECV, 0);
        if (p2p > 0) {
            kinds.add("PIPELINE");
            evidence.add("pipeline: " + byType.getOrDefault(CollectiveType.SEND, 0) + " sends and "
                    + byType.getOrDefault(CollectiveType.RECV, 0) + " receives" + per);
        }
        int dispatch = 0;
        int combine = 0;
        for (Collective c : trace.collectives()) {
            if (c.type() == CollectiveType.ALL_TO_ALL && KernelRules.isExpertParallelKernel(c.name())) {
                if (c.name().toLowerCase(Locale.ROOT).contains("combine")) {
                    combine++;
                } else {
                    dispatch++;
                }
            }
        }
        if (dispatch + combine > 0) {
            kinds.add("EXPERT_PARALLEL");
            evidence.add("expert parallel: " + dispatch + " dispatch and " + combine + " combine all-to-all kernels "
                    + "(DeepEP / MORI / pplx-style token exchange between experts)" + per);
        }
        if (kinds.isEmpty() && evidence.isEmpty()) {
            evidence.add("collectives present but none of the recognised patterns (types: " + byType.keySet() + ")");
        }
        // Order as documented in Parallelism: DDP, FSDP, TENSOR_PARALLEL, PIPELINE, EXPERT_PARALLEL.
        List<String> order = List.of("DDP", "FSDP", "TENSOR_PARALLEL", "PIPELINE", "EXPERT_PARALLEL");
        kinds.sort((a, b) -> Integer.compare(order.indexOf(a), order.indexOf(b)));
        return new Parallelism(kinds, evidence);
    }
}
