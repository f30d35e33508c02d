package io.overlapanalyze.render.overview;

/**
 * One rank's line in the job overview: medians over its counted steps (the totals' steps), shares of
 * its step periods. {@code null}: not defined on this rank (no step, communication unknown, no split).
 *
 * @param rank          rank id
 * @param steps         steps counted in its totals
 * @param stepTimeNs    median step time
 * @param periodNs      median step period
 * @param idleShare     idle / step periods (metrics.md §11)
 * @param exposedCommNs median exposed communication
 * @param tailNs        median tail
 * @param tailCause     the most frequent cause among steps with a tail, or {@code null}
 * @param waitingShare  waiting / (waiting + transfer) of exposed communication over steps with a known
 *                      split (metrics.md §12)
 * @param straggler     a STRAGGLER finding names it
 * @param error         a cross-rank ERROR names it (it differs, or lacks the collective)
 */
public record RankRow(int rank, int steps, Long stepTimeNs, Long periodNs, Double idleShare, Long exposedCommNs,
                      Long tailNs, String tailCause, Double waitingShare, boolean straggler, boolean error) {
}
