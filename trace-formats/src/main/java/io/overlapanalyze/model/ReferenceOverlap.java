package io.overlapanalyze.model;

/**
 * What the profiler itself computed for one step (Ascend: the {@code Overlap Analysis} lane of the
 * timeline, or {@code analysis.db} {@code StepTraceTime}). It is not an input to any metric: the
 * analyzer only puts it next to its own numbers (cross-check), so a difference is visible.
 *
 * @param step                 the step's name as the analyzer names it ("ProfilerStep#50", or "all")
 * @param computingNs          the profiler's Computing
 * @param communicationNs      the profiler's Communication
 * @param commNotOverlappedNs  the profiler's Communication(Not Overlapped)
 * @param freeNs               the profiler's Free
 * @param origin               where the values came from, for the report ("trace_view.json Overlap Analysis lane")
 */
public record ReferenceOverlap(String step, long computingNs, long communicationNs, long commNotOverlappedNs,
                               long freeNs, String origin) {
}
