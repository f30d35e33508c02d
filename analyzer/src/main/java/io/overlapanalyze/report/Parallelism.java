package io.overlapanalyze.report;

import java.util.List;

/**
 * What kind of parallelism the trace's collectives and host ops show: {@code DDP}
 * (all-reduces enqueued during backward: gradient buckets), {@code FSDP} (all-gathers of
 * parameters with reduce-scatters of gradients: FSDP / ZeRO-3), {@code TENSOR_PARALLEL}
 * (all-reduces enqueued inside forward), {@code PIPELINE} (point-to-point send/recv),
 * {@code EXPERT_PARALLEL} (expert-parallel dispatch/combine all-to-all kernels). Several can hold
 * at once (FSDP + tensor parallel + pipeline in one job).
 *
 * @param kinds    recognised kinds, in the order above; empty when none was recognised
 * @param evidence one line per kind (and per doubt) saying which collectives showed it
 */
public record Parallelism(List<String> kinds, List<String> evidence) implements java.io.Serializable {
    public Parallelism {
        kinds = kinds == null ? List.of() : List.copyOf(kinds);
        evidence = evidence == null ? List.of() : List.copyOf(evidence);
    }
}
