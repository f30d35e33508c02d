package io.overlapanalyze.report;

/**
 * Our overlap numbers of one step next to the profiler's own (Ascend Overlap Analysis lane /
 * {@code analysis.db} StepTraceTime). Mapping: Computing ↔ computeBusy, Communication ↔ commBusy,
 * Communication(Not Overlapped) ↔ exposedComm, Free ↔ idle. See docs/ascend-cross-check.md for
 * where the definitions differ.
 *
 * @param step                  step name
 * @param origin                where the profiler's values came from
 * @param computing             computeBusy vs Computing
 * @param communication         commBusy vs Communication
 * @param exposedCommunication  exposedComm vs Communication(Not Overlapped)
 * @param free                  idle vs Free
 * @param oursCounted           {@code null} when our side is computeBusy, commBusy and exposedComm as
 *                              they are; on a step with fused kernels it says how they were counted
 *                              instead (as the profiler counts MC²: kernel as Computing, its
 *                              communication op as Communication)
 */
public record CrossCheckStep(String step, String origin, CrossCheckValue computing, CrossCheckValue communication,
                             CrossCheckValue exposedCommunication, CrossCheckValue free, String oursCounted)
                                     implements java.io.Serializable {
}
