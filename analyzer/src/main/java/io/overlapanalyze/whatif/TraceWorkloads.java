package io.overlapanalyze.whatif;

import io.overlapanalyze.analysis.AnalysisOptions;
import io.overlapanalyze.analysis.DataReady;
import io.overlapanalyze.analysis.GradientSet;
import io.overlapanalyze.analysis.PhaseClassifier;
import io.overlapanalyze.analysis.StepAssigner;
import io.overlapanalyze.analysis.StepContext;
import io.overlapanalyze.analysis.StepContext.CollectiveSpan;
import io.overlapanalyze.analysis.TotalsCalculator;
import io.overlapanalyze.analysis.rank.RankAnalyzer;
import io.overlapanalyze.model.Collective;
import io.overlapanalyze.model.DeviceIntervals;
import io.overlapanalyze.model.RankTrace;
import io.overlapanalyze.model.Time;
import io.overlapanalyze.report.Phase;
import io.overlapanalyze.report.RankReport;
import io.overlapanalyze.report.StepReport;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * A measured trace → per step, the {@link Workload} the replay needs, plus every collective as a
 * sample for the cost-model fit.
 *
 * <ul>
 *   <li>Buckets: the step's gradient set G (metrics.md §3) in issue order (host enqueue, else
 *       device start), each with its data-ready time ({@link DataReady}, §4), bytes and measured
 *       duration.</li>
 *   <li>Units: the backward compute kernels that ended after the previous bucket was ready and by
 *       this bucket's ready time carry this bucket's bytes, in proportion to their duration.</li>
 *   <li>Compute that waits for the reductions: OPTIMIZER work, and compute that starts after the
 *       last reduction ended and was launched after the last bucket was issued (DDP's copy-back;
 *       without launch data: anything starting after the last reduction). Everything else stays
 *       where it ran.</li>
 *   <li>Not replayed: memory copies, and collectives outside G (they are noted).</li>
 * </ul>
 * Steps that are partial (unless included), or have no gradient reductions, or a reduction
 * without a data-ready time, are skipped with a note.
 */
public final class TraceWorkloads {

    /** One analysed step: the workload and the analyzer's own numbers for it. */
    public record StepInput(Workload workload, StepReport measured) {
    }

    /**
     * @param report  the rank's analysis (as {@code overlap-analyze} prints it)
     * @param steps   the steps usable for the replay
     * @param samples collectives of those steps, for the fit
     * @param gradType      type of the gradient reductions (of the first replayed step), or {@code null}
     * @param gradGroupSize their process-group size ({@code -1} unknown)
     * @param notes   what was skipped or not replayed
     */
    public record Extracted(RankReport report, List<StepInput> steps, List<CommSample> samples,
                            io.overlapanalyze.model.CollectiveType gradType, int gradGroupSize, List<String> notes) {
        public Extracted {
            steps = List.copyOf(steps);
            samples = List.copyOf(samples);
            notes = List.copyOf(notes);
        }

        /** The same extraction with only {@code s} replayed (the samples, all collectives, stay for the fit). */
        public Extracted withSteps(List<StepInput> s) {
            return new Extracted(report, s, samples, gradType, gradGroupSize, notes);
        }
    }

    private TraceWorkloads() {
    }

    public static Extracted extract(RankTrace trace, AnalysisOptions options) {
        RankReport report = RankAnalyzer.analyze(trace, options);
        List<StepInput> steps = new ArrayList<>();
        List<CommSample> samples = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        if (!trace.hasDeviceActivity()) {
            notes.add("no device activity");
            return new Extracted(report, steps, samples, null, -1, notes);
        }
        PhaseClassifier phases = new PhaseClassifier(trace);
        List<StepAssigner.Step> assigned = StepAssigner.assign(trace).steps();
        int skippedPartial = 0;
        int skippedNoGrad = 0;
        int skippedNoReady = 0;
        int otherComm = 0;
        io.overlapanalyze.model.CollectiveType gradType = null;
        int gradGroupSize = -1;
        for (int i = 0; i < assigned.size(); i++) {
            StepReport sr = report.steps().get(i);
            if (!TotalsCalculator.aggregated(sr, options)) {
                skippedPartial++;
                continue;
            }
            StepContext ctx = new StepContext(trace, assigned.get(i), phases);
            List<CollectiveSpan> g = GradientSet.select(ctx, phases).members();
            if (g.isEmpty()) {
                skippedNoGrad++;
                continue;
            }
            Workload w = workload(ctx, g, new DataReady(ctx), sr);
            if (w == null) {
                skippedNoReady++;
                continue;
            }
            steps.add(new StepInput(w, sr));
            if (gradType == null) {
                gradType = g.get(0).collective().type();
                gradGroupSize = groupSize(g.get(0).collective(), trace);
            }
            for (CollectiveSpan c : ctx.collectives()) {
                if (c.collective().bytes() > 0) {
                    samples.add(new CommSample(c.collective().type(), groupSize(c.collective(), trace),
                            c.collective().bytes(), c.durationNs()));
                }
            }
            otherComm = Math.max(otherComm, ctx.collectives().size() - g.size());
        }
        if (skippedPartial > 0) {
            notes.add(skippedPartial + " partial step(s) or steps without device work skipped");
        }
        if (skippedNoGrad > 0) {
            notes.add(skippedNoGrad + " step(s) without gradient reductions skipped");
        }
        if (skippedNoReady > 0) {
            notes.add(skippedNoReady + " step(s) skipped: a gradient reduction has no data-ready time or unknown bytes");
        }
        if (otherComm > 0) {
            notes.add("up to " + otherComm + " collective(s) per step are not gradient reductions: they are fitted "
                    + "but not replayed");
        }
        return new Extracted(report, steps, samples, gradType, gradGroupSize, notes);
    }

    static int groupSize(Collective c, RankTrace trace) {
        if (c.group() != null && !c.group().ranks().isEmpty()) {
            return c.group().ranks().size();
        }
        return trace.worldSize() > 0 ? trace.worldSize() : -1;
    }

    private record Issued(CollectiveSpan span, long readyNs) {
    }

    private static Workload workload(StepContext ctx, List<CollectiveSpan> g, DataReady dataReady, StepReport sr) {
        long origin = sr.deviceStartNs();
        List<Issued> issued = new ArrayList<>(g.size());
        long lastEnqueue = Long.MIN_VALUE;
        long lastReduceEnd = Long.MIN_VALUE;
        for (CollectiveSpan c : g) {
            DataReady.Ready r = dataReady.readyFor(c);
            if (!r.known() || c.collective().bytes() <= 0) {
                return null;
            }
            issued.add(new Issued(c, r.readyNs()));
            if (Time.isKnown(c.enqueueNs())) {
                lastEnqueue = Math.max(lastEnqueue, c.enqueueNs());
            }
            lastReduceEnd = Math.max(lastReduceEnd, c.endNs());
        }
        issued.sort(Comparator.comparingLong((Issued x) -> issueTime(x.span)).thenComparingLong(x -> x.span.startNs()));

        DeviceIntervals dev = ctx.device();
        int[] compute = ctx.compute();
        List<Span> fixed = new ArrayList<>();
        List<Span> backward = new ArrayList<>();
        List<Span> waiting = new ArrayList<>();
        for (int k = 0; k < compute.length; k++) {
            int i = compute[k];
            Phase phase = ctx.computePhase(k);
            Span s = new Span(dev.start(i) - origin, dev.end(i) - origin);
            long launch = dev.launchNs(i);
            boolean afterAll = dev.start(i) >= lastReduceEnd
                    && (!Time.isKnown(launch) || lastEnqueue == Long.MIN_VALUE || launch > lastEnqueue);
            if (phase == Phase.OPTIMIZER || afterAll) {
                waiting.add(s);
            } else {
                fixed.add(s);
                if (phase == Phase.BACKWARD || phase == Phase.UNKNOWN) {
                    backward.add(s);
                }
            }
        }
        long fixedEnd = 0;
        for (Span s : fixed) {
            fixedEnd = Math.max(fixedEnd, s.endNs());
        }
        long anchor = Math.max(fixedEnd, lastReduceEnd - origin);
        List<Span> after = waiting.stream().map(s -> s.shift(-anchor)).toList();

        // Units: bucket by bucket in ready order, the backward kernels that ended in (previous ready, ready].
        List<Span> byEnd = new ArrayList<>(backward);
        byEnd.sort(Comparator.comparingLong(Span::endNs).thenComparingLong(Span::startNs));
        List<Issued> byReady = new ArrayList<>(issued);
        byReady.sort(Comparator.comparingLong(Issued::readyNs));
        List<GradUnit> units = new ArrayList<>();
        int next = 0;
        for (Issued b : byReady) {
            long ready = b.readyNs - origin;
            List<Span> pieces = new ArrayList<>();
            while (next < byEnd.size() && byEnd.get(next).endNs() <= ready) {
                pieces.add(byEnd.get(next++));
            }
            units.addAll(Rebucketing.spread(pieces, b.span.collective().bytes(), ready, false));
        }
        List<ReplayBucket> buckets = new ArrayList<>(issued.size());
        for (Issued b : issued) {
            buckets.add(new ReplayBucket(b.readyNs - origin, Math.max(0, b.span.collective().bytes()),
                    b.span.durationNs()));
        }
        return new Workload(sr.name(), fixed, backward, units, buckets, after);
    }

    private static long issueTime(CollectiveSpan c) {
        return Time.isKnown(c.enqueueNs()) ? c.enqueueNs() : c.startNs();
    }
}
