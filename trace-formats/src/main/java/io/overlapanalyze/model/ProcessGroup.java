package io.overlapanalyze.model;

import java.util.List;

/**
 * A communicator / process group, as far as the trace describes it.
 *
 * @param name        group name ("0"), or {@code null} when unknown
 * @param description group description ("default_pg"), or {@code null}
 * @param ranks       member ranks, empty when unknown
 */
public record ProcessGroup(String name, String description, List<Integer> ranks) implements java.io.Serializable {
    public ProcessGroup {
        ranks = ranks == null ? List.of() : List.copyOf(ranks);
    }
}
