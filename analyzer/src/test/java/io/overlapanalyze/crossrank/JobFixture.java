package io.overlapanalyze.crossrank;

import io.overlapanalyze.analysis.rank.RankAnalyzer;
import io.overlapanalyze.formats.kineto.KinetoReader;
import io.overlapanalyze.model.RankTrace;
import io.overlapanalyze.report.CrossRankReport;
import io.overlapanalyze.report.Straggler;
import io.overlapanalyze.synth.Job;
import io.overlapanalyze.synth.JobWriter;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Writes a synthetic job, reads every rank back with the Kineto reader and runs the cross-rank analysis. */
final class JobFixture {
    private JobFixture() {
    }

    static List<RankInput> read(Job job, Path dir) throws IOException, io.overlapanalyze.formats.input.TraceFormatException {
        List<RankInput> inputs = new ArrayList<>();
        for (Path f : JobWriter.write(job, dir, false)) {
            RankTrace t = new KinetoReader().read(f).get(0);
            inputs.add(new RankInput(t, RankAnalyzer.analyze(t)));
        }
        return inputs;
    }

    static CrossRankReport analyze(Job job, Path dir) throws Exception {
        return CrossRankAnalyzer.analyze(read(job, dir), List.of());
    }

    static Straggler straggler(CrossRankReport r, int rank) {
        return r.stragglers().stream().filter(s -> s.rank() == rank).findFirst().orElseThrow();
    }
}
