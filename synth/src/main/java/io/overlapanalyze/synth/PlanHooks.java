package io.overlapanalyze.synth;

/**
 * What a job changes in one rank's plan (see {@link JobPlanner}). The default changes nothing,
 * so a single-rank scenario plans exactly as before.
 */
interface PlanHooks {
    PlanHooks NONE = new PlanHooks() {
    };

    /** Extra device (and host) idle before step {@code stepNumber} starts on this rank. */
    default long stepDelayNs(int stepNumber) {
        return 0;
    }

    /**
     * The end of bucket {@code bucket} (1-based) of step {@code stepNumber}, given its device
     * start and the end it would have alone.
     */
    default long commEnd(int stepNumber, int bucket, long start, long nominalEnd) {
        return nominalEnd;
    }
}
