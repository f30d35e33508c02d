package io.overlapanalyze.report;

/**
 * One user annotation name ({@code record_function} label) in one step: how much device time it
 * had, how much of it was communication, and where that communication ran (the micro-batch overlap
 * of expert-parallel training: one micro-batch's dispatch hidden under the other's MLP). All
 * ranges of the name in the step count together, as unions. JSON field names are a contract.
 *
 * @param name          the annotation's name
 * @param deviceNs      union of the name's device work in the step (any kind but SYNC)
 * @param commNs        union of its COMM work
 * @param exposedCommNs the part of {@code commNs} under no compute or fused kernel at all (of any
 *                      annotation or none)
 * @param hiddenUnderNs the part of {@code commNs} that ran under compute or fused work of other
 *                      annotations (work that belongs to a range of another name and to no range
 *                      of this one)
 */
public record AnnotationReport(String name, long deviceNs, long commNs, long exposedCommNs, long hiddenUnderNs)
        implements java.io.Serializable {
}
