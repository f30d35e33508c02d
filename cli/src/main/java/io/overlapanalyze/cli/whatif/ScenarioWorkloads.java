package io.overlapanalyze.cli.whatif;

import io.overlapanalyze.model.CollectiveType;
import io.overlapanalyze.synth.ModelScenario;
import io.overlapanalyze.synth.Scenario;
import io.overlapanalyze.whatif.CostModel;
import io.overlapanalyze.whatif.GradUnit;
import io.overlapanalyze.whatif.Rebucketing;
import io.overlapanalyze.whatif.ReplayBucket;
import io.overlapanalyze.whatif.Span;
import io.overlapanalyze.whatif.Workload;

import java.util.ArrayList;
import java.util.List;

/**
 * Workloads straight from a scenario, with the generator's device semantics (compute blocks
 * back-to-back from 0; each bucket reduced after its block; the optimizer after the last
 * reduction) but without its host model: the ideal timeline has no launch overheads. Jitter is
 * not applied (a scenario describes the nominal step). Here, not in the analyzer, because the
 * analyzer does not know the generator's scenario types.
 */
public final class ScenarioWorkloads {
    private ScenarioWorkloads() {
    }

    /**
     * A block scenario. The buckets carry the scenario's own comm times; a late launch
     * ({@code launchDelayUs}) delays its bucket's start as in the generator. Units: each bucket's
     * bytes spread over the backward blocks since the previous bucket, in proportion to their time.
     */
    public static Workload of(Scenario s) {
        List<Span> compute = new ArrayList<>();
        List<Span> backward = new ArrayList<>();
        List<GradUnit> units = new ArrayList<>();
        List<ReplayBucket> buckets = new ArrayList<>();
        long t = 0;
        for (Scenario.Block b : s.forward()) {
            compute.add(new Span(t, t + b.ns()));
            t += b.ns();
        }
        List<Span> sinceLastBucket = new ArrayList<>();
        for (Scenario.Block b : s.backward()) {
            Span span = new Span(t, t + b.ns());
            t += b.ns();
            compute.add(span);
            backward.add(span);
            sinceLastBucket.add(span);
            Scenario.Bucket k = b.bucket();
            if (k != null) {
                units.addAll(Rebucketing.spread(sinceLastBucket, k.bytes(), span.endNs(), true));
                sinceLastBucket.clear();
                // A late-launched bucket cannot start before it is issued: its effective ready time.
                buckets.add(new ReplayBucket(span.endNs() + k.launchDelayNs(), k.bytes(), k.commNs()));
            }
        }
        List<Span> after = s.optimizerNs() > 0 ? List.of(new Span(0, s.optimizerNs())) : List.of();
        return new Workload("scenario", compute, backward, units, buckets, after);
    }

    /** A model scenario: units are its layers (exact), buckets its DDP buckets with {@code α + bytes/β}. */
    public static Workload of(ModelScenario m) {
        List<Span> compute = new ArrayList<>();
        List<Span> backward = new ArrayList<>();
        List<GradUnit> units = new ArrayList<>();
        long t = 0;
        if (m.forwardNs() > 0) {
            compute.add(new Span(0, m.forwardNs()));
            t = m.forwardNs();
        }
        List<Span> layerSpans = new ArrayList<>();
        for (ModelScenario.Layer l : m.layers()) {
            Span span = new Span(t, t + l.ns());
            t += l.ns();
            compute.add(span);
            backward.add(span);
            layerSpans.add(span);
            if (l.gradBytes() > 0) {
                units.add(new GradUnit(span.startNs(), span.endNs(), l.gradBytes(), false));
            }
        }
        List<ReplayBucket> buckets = new ArrayList<>();
        for (ModelScenario.BucketPlan b : m.buckets()) {
            buckets.add(new ReplayBucket(layerSpans.get(b.readyLayer()).endNs(), b.bytes(), m.commNs(b.bytes())));
        }
        List<Span> after = m.optimizerNs() > 0 ? List.of(new Span(0, m.optimizerNs())) : List.of();
        return new Workload("scenario", compute, backward, units, buckets, after);
    }

    /** The model's own interconnect as an exact cost model (what the generator used). */
    public static CostModel exactModel(ModelScenario m) {
        // Given, not fitted: valid at every size, so the range is unbounded (no extrapolation warning).
        return new CostModel(CollectiveType.ALL_REDUCE, m.worldSize(), m.alphaNs(),
                m.betaBytesPerNs(), 1.0, 0, 0, 0, m.buckets().size(), 0, Long.MAX_VALUE, CostModel.Quality.GOOD,
                "given by the model scenario (alphaUs, betaGBps), not fitted");
    }
}
