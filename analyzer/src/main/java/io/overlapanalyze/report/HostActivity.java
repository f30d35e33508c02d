package io.overlapanalyze.report;

/**
 * What the issuing host thread was doing while the device waited for it (metrics.md §11): the
 * outermost host range covering those instants, or {@code "(between host ranges)"}.
 *
 * @param name the host range's name as the trace gives it
 * @param ns   host-bound idle time attributed to it
 */
public record HostActivity(String name, long ns) implements java.io.Serializable {
    /** The name used for host-bound idle that no host range covers. */
    public static final String BETWEEN_RANGES = "(between host ranges)";
}
