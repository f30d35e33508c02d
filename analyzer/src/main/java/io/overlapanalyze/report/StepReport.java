package io.overlapanalyze.report;

import java.util.List;

/**
 * Every number of one rank's step (metrics.md §2–6). Durations in ns; markers absolute.
 * The JSON field names are a contract read by scripts: do not rename.
 *
 * @param name               step name ("ProfilerStep#4", or "all" when the trace has no steps)
 * @param partial            true when the step is cut by the capture or misses device activity
 * @param deviceStartNs      first device start of the step's work
 * @param deviceEndNs        last device end of the step's work
 * @param stepTimeNs         device window length
 * @param commBusyNs         |C|
 * @param computeBusyNs      |K|
 * @param overlappedNs       |C ∩ K|
 * @param exposedCommNs      |C − K|
 * @param exposedGradCommNs  |G − K|
 * @param idleNs             time inside the step's period when the device ran nothing at all (no
 *                           work of any step, pre-capture work included; SYNC is never work)
 * @param serialEstimateNs   computeBusy + commBusy
 * @param overlapSavingNs    serialEstimate − |C ∪ K ∪ M| (the step's own work, in its window)
 * @param overlapRatio       overlapped / commBusy; {@code null} when commBusy is 0
 * @param gradCollectives    |G|
 * @param markers            the four markers
 * @param tailNs             max(0, lastReduceEnd − lastComputeEnd); {@code null} when undefined
 * @param lastBucketTailNs   lastReduceEnd − lastBucketReady; {@code null} when undefined
 * @param startDelayNs       reduceStart − firstBucketReady; {@code null} when undefined
 * @param launchLateNs       max(0, enqueue(g1) − firstBucketReady); {@code null} when undefined
 * @param attribution        tail attribution with its chain
 * @param deviceIntervals    number of device intervals assigned to the step
 * @param commKernels        number of COMM intervals in the step
 * @param approximate        true when a marker used a fallback the contract calls approximate
 * @param notes              short remarks ("looks like inference: no backward pass")
 * @param gradBuckets        the members of G by device start, with bytes and reduction time
 *                           (added after schemaVersion 1 was published; additive fields do not
 *                           bump the version, and a report without it reads as an empty list)
 * @param exposedPrefetchNs  compute-stream idle waiting for all-gathers (FSDP/ZeRO
 *                           prefetch); {@code null} when the step has no all-gather
 * @param prefetches         every all-gather of the step with its consumer and lateness
 * @param pipeline           send/recv overlap and bubbles; {@code null} when the step has no send/recv
 * @param launch             launch diagnostics of the gradient collectives; {@code null} when G is empty
 * @param peakAllocatedBytes highest device allocator total inside the step's host span;
 *                           {@code null} when the trace has no allocator events in it
 * @param stepPeriodNs       the step's period (metrics.md §2): its first device start to the next
 *                           step's first device start (the last step: its own window end); periods
 *                           never overlap; {@code null} without device work (and in old reports)
 * @param windowOverlapNs    how far the step's window runs past its period into later steps'
 *                           (pipelined steps); 0 when it does not; {@code null} as stepPeriodNs
 * @param fusedBusyNs        |F|: FUSED kernels (compute and communication inside one kernel), which
 *                           are in neither C nor K; 0 when the step has none; {@code null} in
 *                           reports written before fused kernels were told apart
 * @param fusedCommNs        the union of the fused operators' own communication records (Ascend MC²:
 *                           the communication op msprof records for each MC² kernel); {@code null}
 *                           when the trace records none (never 0 by default)
 * @param fusedComputeNs     the compute part of the fused kernels; {@code null}: no format read
 *                           carries it apart from the kernel's whole span
 * @param annotations        per user annotation name (record_function label), its device time,
 *                           communication, exposed communication and communication hidden under
 *                           other annotations' compute, by exposed communication; empty when the
 *                           step (or the trace) has no annotations, and in older reports
 * @param breakdown          where the period went (metrics.md §11); {@code null} without device work
 *                           (and in older reports)
 * @param idle               why the device was idle (metrics.md §11); {@code null} as breakdown
 * @param commSplit          the exposed communication split into waiting and transfer (metrics.md
 *                           §12); never {@code null} in a new report: unknown parts are {@code null}
 */
public record StepReport(String name, boolean partial, Long deviceStartNs, Long deviceEndNs, long stepTimeNs,
                         long commBusyNs, long computeBusyNs, long overlappedNs, long exposedCommNs,
                         long exposedGradCommNs, long idleNs, long serialEstimateNs, long overlapSavingNs,
                         Double overlapRatio, int gradCollectives, Markers markers, Long tailNs,
                         Long lastBucketTailNs, Long startDelayNs, Long launchLateNs, Attribution attribution,
                         int deviceIntervals, int commKernels, boolean approximate, List<String> notes,
                         List<BucketReport> gradBuckets, Long exposedPrefetchNs, List<PrefetchReport> prefetches,
                         PipelineReport pipeline, LaunchReport launch, Long peakAllocatedBytes,
                         Long stepPeriodNs, Long windowOverlapNs, Long fusedBusyNs, Long fusedCommNs,
                         Long fusedComputeNs, List<AnnotationReport> annotations, StepBreakdown breakdown,
                         IdleBreakdown idle, CommSplit commSplit) implements java.io.Serializable {
    public StepReport {
        annotations = annotations == null ? List.of() : List.copyOf(annotations);
        commSplit = commSplit == null ? CommSplit.unknown() : commSplit;
        notes = List.copyOf(notes);
        gradBuckets = gradBuckets == null ? List.of() : List.copyOf(gradBuckets);
        prefetches = prefetches == null ? List.of() : List.copyOf(prefetches);
    }

    /** True when the step ran fused compute-communication kernels. */
    public boolean hasFused() {
        return fusedBusyNs != null && fusedBusyNs > 0;
    }

    /** True when the step has user annotations with device work. */
    public boolean hasAnnotations() {
        return !annotations.isEmpty();
    }

    /**
     * A step of that name with no device work: no device window, every duration and count 0, no
     * fused kernels, every figure that needs device work {@code null} (tail, delays, period,
     * memory, prefetch, pipeline, launch), undefined markers and no lists. The base the
     * {@code with…} methods copy from, for a report built by hand.
     */
    public static StepReport empty(String name) {
        return new StepReport(name, false, null, null, 0, 0, 0, 0, 0, 0, 0, 0, 0, null, 0, Markers.undefined(),
                null, null, null, null, new Attribution(TailKind.NONE, List.of()), 0, 0, false, List.of(), List.of(),
                null, List.of(), null, null, null, null, null, 0L, null, null, List.of(), null, null, CommSplit.unknown());
    }

    /**
     * This step with the device window {@code [startNs, endNs)}: its first device start, last
     * device end, and the window's length as its step time; every other component is this step's.
     */
    public StepReport withDeviceWindow(long startNs, long endNs) {
        return new StepReport(name, partial, startNs, endNs, endNs - startNs, commBusyNs, computeBusyNs,
                overlappedNs, exposedCommNs, exposedGradCommNs, idleNs, serialEstimateNs, overlapSavingNs,
                overlapRatio, gradCollectives, markers, tailNs, lastBucketTailNs, startDelayNs, launchLateNs,
                attribution, deviceIntervals, commKernels, approximate, notes, gradBuckets, exposedPrefetchNs,
                prefetches, pipeline, launch, peakAllocatedBytes, stepPeriodNs, windowOverlapNs, fusedBusyNs,
                fusedCommNs, fusedComputeNs, annotations, breakdown, idle, commSplit);
    }

    /** This step with {@code bytes} as its peak allocated memory; every other component is this step's. */
    public StepReport withPeakAllocatedBytes(Long bytes) {
        return new StepReport(name, partial, deviceStartNs, deviceEndNs, stepTimeNs, commBusyNs, computeBusyNs,
                overlappedNs, exposedCommNs, exposedGradCommNs, idleNs, serialEstimateNs, overlapSavingNs,
                overlapRatio, gradCollectives, markers, tailNs, lastBucketTailNs, startDelayNs, launchLateNs,
                attribution, deviceIntervals, commKernels, approximate, notes, gradBuckets, exposedPrefetchNs,
                prefetches, pipeline, launch, bytes, stepPeriodNs, windowOverlapNs, fusedBusyNs, fusedCommNs,
                fusedComputeNs, annotations, breakdown, idle, commSplit);
    }

    /** This step with {@code ns} as its tail ({@code null}: undefined); every other component is this step's. */
    public StepReport withTailNs(Long ns) {
        return new StepReport(name, partial, deviceStartNs, deviceEndNs, stepTimeNs, commBusyNs, computeBusyNs,
                overlappedNs, exposedCommNs, exposedGradCommNs, idleNs, serialEstimateNs, overlapSavingNs,
                overlapRatio, gradCollectives, markers, ns, lastBucketTailNs, startDelayNs, launchLateNs,
                attribution, deviceIntervals, commKernels, approximate, notes, gradBuckets, exposedPrefetchNs,
                prefetches, pipeline, launch, peakAllocatedBytes, stepPeriodNs, windowOverlapNs, fusedBusyNs,
                fusedCommNs, fusedComputeNs, annotations, breakdown, idle, commSplit);
    }

    /** This step with {@code split} as its communication split; every other component is this step's. */
    public StepReport withCommSplit(CommSplit split) {
        return new StepReport(name, partial, deviceStartNs, deviceEndNs, stepTimeNs, commBusyNs, computeBusyNs,
                overlappedNs, exposedCommNs, exposedGradCommNs, idleNs, serialEstimateNs, overlapSavingNs,
                overlapRatio, gradCollectives, markers, tailNs, lastBucketTailNs, startDelayNs, launchLateNs,
                attribution, deviceIntervals, commKernels, approximate, notes, gradBuckets, exposedPrefetchNs,
                prefetches, pipeline, launch, peakAllocatedBytes, stepPeriodNs, windowOverlapNs, fusedBusyNs,
                fusedCommNs, fusedComputeNs, annotations, breakdown, idle, split);
    }

    /** This step with {@code more} added to its notes; every other component is this step's. */
    public StepReport withNotes(java.util.List<String> more) {
        java.util.List<String> all = new java.util.ArrayList<>(notes);
        all.addAll(more);
        return new StepReport(name, partial, deviceStartNs, deviceEndNs, stepTimeNs, commBusyNs, computeBusyNs,
                overlappedNs, exposedCommNs, exposedGradCommNs, idleNs, serialEstimateNs, overlapSavingNs,
                overlapRatio, gradCollectives, markers, tailNs, lastBucketTailNs, startDelayNs, launchLateNs,
                attribution, deviceIntervals, commKernels, approximate, all, gradBuckets, exposedPrefetchNs,
                prefetches, pipeline, launch, peakAllocatedBytes, stepPeriodNs, windowOverlapNs, fusedBusyNs,
                fusedCommNs, fusedComputeNs, annotations, breakdown, idle, commSplit);
    }

    /** Start of the note of a step whose figures cannot be used (issue 29 item 8: the trace's clocks disagree). */
    public static final String NO_USABLE_DATA_NOTE = "not available: no usable data: ";

    /**
     * This step marked as having no usable data, for {@code reason}: partial (so left out of the
     * totals and the findings) with a note that says why; its figures stay as computed, for who
     * wants to look, but nothing is concluded from them.
     */
    public StepReport withNoUsableData(String reason) {
        java.util.List<String> all = new java.util.ArrayList<>(notes);
        all.add(NO_USABLE_DATA_NOTE + reason);
        return new StepReport(name, true, deviceStartNs, deviceEndNs, stepTimeNs, commBusyNs, computeBusyNs,
                overlappedNs, exposedCommNs, exposedGradCommNs, idleNs, serialEstimateNs, overlapSavingNs,
                overlapRatio, gradCollectives, markers, tailNs, lastBucketTailNs, startDelayNs, launchLateNs,
                attribution, deviceIntervals, commKernels, approximate, all, gradBuckets, exposedPrefetchNs,
                prefetches, pipeline, launch, peakAllocatedBytes, stepPeriodNs, windowOverlapNs, fusedBusyNs,
                fusedCommNs, fusedComputeNs, annotations, breakdown, idle, commSplit);
    }

    /** False when the step was marked {@link #withNoUsableData}. */
    public boolean hasUsableData() {
        return notes.stream().noneMatch(n -> n.startsWith(NO_USABLE_DATA_NOTE));
    }

    /** This step with {@code a} as its tail attribution; every other component is this step's. */
    public StepReport withAttribution(Attribution a) {
        return new StepReport(name, partial, deviceStartNs, deviceEndNs, stepTimeNs, commBusyNs, computeBusyNs,
                overlappedNs, exposedCommNs, exposedGradCommNs, idleNs, serialEstimateNs, overlapSavingNs,
                overlapRatio, gradCollectives, markers, tailNs, lastBucketTailNs, startDelayNs, launchLateNs,
                a, deviceIntervals, commKernels, approximate, notes, gradBuckets, exposedPrefetchNs,
                prefetches, pipeline, launch, peakAllocatedBytes, stepPeriodNs, windowOverlapNs, fusedBusyNs,
                fusedCommNs, fusedComputeNs, annotations, breakdown, idle, commSplit);
    }
}
