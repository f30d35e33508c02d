package io.overlapanalyze.model;

import java.util.List;

/**
 * What one rank's PyTorch Flight Recorder dump holds beyond the common model: the operations of its
 * ring buffer and its per-group progress. The process groups themselves ({@code pg_config}) are the
 * trace's {@link RankTrace#groups()}.
 *
 * @param version     the dump format version ({@code "2.9"})
 * @param ncclVersion the NCCL version, or {@code null}
 * @param entries     the buffer's operations, in record order
 * @param status      per group progress ({@code pg_status})
 */
public record FlightRecorderDump(String version, String ncclVersion, List<FlightEntry> entries,
                                 List<FlightGroupStatus> status) implements java.io.Serializable {
    public FlightRecorderDump {
        entries = List.copyOf(entries);
        status = List.copyOf(status);
    }
}
