package io.overlapanalyze.cli.whatif;

import io.overlapanalyze.model.CollectiveType;
import io.overlapanalyze.synth.ModelScenario;
import io.overlapanalyze.synth.Scenario;
import io.overlapanalyze.whatif.CommSample;
import io.overlapanalyze.whatif.CostModel;
import io.overlapanalyze.whatif.CostModelFitter;
import io.overlapanalyze.whatif.WhatIf;
import io.overlapanalyze.whatif.WhatIfOptions;
import io.overlapanalyze.whatif.WhatIfReport;
import io.overlapanalyze.whatif.Workload;

import java.util.ArrayList;
import java.util.List;

/** {@code whatif --scenario}: a scenario's nominal step as a workload, replayed by {@link WhatIf}. */
public final class ScenarioWhatIf {
    private ScenarioWhatIf() {
    }

    /** A block scenario: the cost model is fitted from its buckets (bytes, commUs). */
    public static WhatIfReport fromScenario(Scenario s, String source, WhatIfOptions options, String tool) {
        Workload w = ScenarioWorkloads.of(s);
        if (w.buckets().isEmpty()) {
            throw new IllegalArgumentException("scenario " + source + ": has no gradient buckets to replay");
        }
        List<CommSample> samples = w.buckets().stream()
                .map(b -> new CommSample(CollectiveType.ALL_REDUCE, s.worldSize(), b.bytes(),
                        b.commNs())).toList();
        CostModel model = CostModelFitter.fit(samples);
        List<String> assumptions = new ArrayList<>(List.of(
                "the scenario's compute blocks run back to back from 0; each bucket's gradients are spread over "
                        + "the backward blocks since the previous bucket in proportion to their time, and become "
                        + "ready evenly within a block when a smaller cap splits it",
                "cost model fitted from the scenario's buckets (bytes, commUs)"));
        if (s.jitterPct() > 0) {
            assumptions.add("jitter is not applied: the nominal step is replayed");
        }
        return WhatIf.fromScenarioWorkload(w, source, model, options, assumptions, tool);
    }

    /** A model scenario: its layers are the units and its own α, β the cost model (exact). */
    public static WhatIfReport fromModelScenario(ModelScenario m, String source, WhatIfOptions options,
                                                 String tool) {
        List<String> assumptions = new ArrayList<>(List.of(
                "the model's layers run back to back after forwardUs; a bucket is ready when its last layer's "
                        + "backward ends (DDP's rule: a bucket closes once it holds at least the cap)",
                "cost model: the scenario's own alphaUs and betaGBps"));
        if (m.jitterPct() > 0) {
            assumptions.add("jitter is not applied: the nominal step is replayed");
        }
        return WhatIf.fromScenarioWorkload(ScenarioWorkloads.of(m), source, ScenarioWorkloads.exactModel(m), options,
                assumptions, tool);
    }
}
