package io.overlapanalyze.model;

/**
 * A rank's progress on one process group as its Flight Recorder dump states it ({@code pg_status}).
 *
 * @param groupName     the group's name, or {@code null} when the dump does not tie its local id to a name
 * @param localGroupId  the rank's local id of the group ({@code pg_status} key)
 * @param lastEnqueued  last sequence number the rank enqueued, or -1
 * @param lastStarted   last sequence number seen started, or -1 (-1 too when timing was off)
 * @param lastCompleted last sequence number seen completed, or -1
 */
public record FlightGroupStatus(String groupName, int localGroupId, long lastEnqueued, long lastStarted,
                                long lastCompleted) implements java.io.Serializable {
}
