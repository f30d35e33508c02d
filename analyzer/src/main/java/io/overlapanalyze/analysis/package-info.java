/**
 * The format-blind single-rank analysis of metrics.md §2–6. Entry point:
 * {@link io.overlapanalyze.analysis.rank.RankAnalyzer#analyze(io.overlapanalyze.model.RankTrace, AnalysisOptions)}.
 *
 * <p>One analysis per class: {@link io.overlapanalyze.analysis.StepAssigner} (§2 steps, partial),
 * {@link io.overlapanalyze.analysis.PhaseClassifier} (§2 phases),
 * {@link io.overlapanalyze.analysis.GradientSet} (§3), {@link io.overlapanalyze.analysis.DataReady} and
 * {@link io.overlapanalyze.analysis.MarkerAnalysis} (§4), {@link io.overlapanalyze.analysis.ExposureAnalysis}
 * (§5), {@link io.overlapanalyze.analysis.TailAttribution} (§6), {@link io.overlapanalyze.analysis.TotalsCalculator}
 * (§5 totals), over {@link io.overlapanalyze.analysis.IntervalSet} unions.
 *
 * <h2>Choices where metrics.md is silent</h2>
 * <ul>
 *   <li><b>Enqueue stand-in</b>: a collective without a host enqueue time uses the host launch of
 *       its first kernel (issued from inside the same CPU op) for its phase, data-ready, LAUNCH
 *       candidate and {@code launchLate}.</li>
 *   <li><b>Data-ready</b> ({@link io.overlapanalyze.analysis.DataReady}): compute kernels of the
 *       same step. With stream waits in the trace (Kineto {@code cuda_sync}), a collective's waits
 *       are those submitted to its comm lane between the previous COMM launch there and its own
 *       kernel's launch (host submission order); data-ready = latest end of compute on each
 *       recorded lane launched strictly before the {@code cudaEventRecord} (step note). Else
 *       launch strictly before the enqueue. Fallback (no enqueue, or no compute with launch data
 *       in the step): latest compute end at or before the collective's device start, step
 *       flagged {@code approximate}.</li>
 *   <li><b>Phase-unknown kernels</b> count for {@code lastComputeEnd} (BACKWARD ∪ UNKNOWN): the
 *       "no phase information" rule applied kernel by kernel. Phase-unknown reductions in a
 *       trace with phase information are not in G (§3: the fallback is only for traces without
 *       host information); a step note counts them.</li>
 *   <li><b>Inference</b> is decided for the whole trace: host ops present, but no BACKWARD span,
 *       no OPTIMIZER span and no autograd thread anywhere.</li>
 *   <li><b>g1/gL ties</b>: g1 = earliest start, then earliest end, then lowest id; gL = latest
 *       end, then latest start, then highest id.</li>
 *   <li><b>Attribution</b>: ε = {@link io.overlapanalyze.analysis.AnalysisOptions#epsilonFor(long)}
 *       of g's in-step duration; "within ε" is {@code |candidate − s| ≤ ε}; the latest such
 *       candidate wins; exact ties DATA &gt; QUEUE &gt; LAUNCH. QUEUE is the end of the COMM
 *       interval on g's lane with the latest start strictly before s (same step only). A chain
 *       ending on LAUNCH is LAUNCH_BOUND even after QUEUE links; otherwise any QUEUE makes it
 *       COMM_BOUND. tail 0 or undefined: NONE with an empty chain.</li>
 *   <li><b>startDelay</b> is signed (never clamped); {@code launchLate} is clamped at 0 as §4 says.</li>
 *   <li><b>G_intervals</b> are the COMM intervals of G's collectives, so exposedGradComm ≤ exposedComm.</li>
 *   <li><b>Totals</b> skip steps without any device work (they have no window); {@code tailNs}
 *       adds the defined tails; medians of an even count average the middle pair (ns rounded down).</li>
 *   <li><b>Steps</b>: STEP spans are assumed not to overlap; work launched between step spans is
 *       in no step and counted in a rank note. The synthetic "all" step is partial when the trace
 *       has any unmatched launch or is truncated. Work the reader marked as launched before the
 *       capture is in no step (rank {@code preCapture}; a note on each step whose window it
 *       overlaps). SYNC rows never set a window.</li>
 *   <li><b>Periods and idle</b> ({@code StepPeriods}): fixed from the whole trace before any step
 *       is analysed; a period never starts before the previous one ended; idle is the period
 *       minus the union of every COMPUTE/COMM/MEMCPY/MEMSET interval of the rank; windowOverlap
 *       is how far the window ends past the period's end.</li>
 *   <li><b>No device activity</b>: zero steps, zero totals, the note
 *       {@value io.overlapanalyze.analysis.rank.RankAnalyzer#NOTE_NO_DEVICE}.</li>
 * </ul>
 */
package io.overlapanalyze.analysis;
