package io.overlapanalyze.spark;

import io.overlapanalyze.crossrank.RankInput;
import io.overlapanalyze.crossrank.digest.RankDigest;
import io.overlapanalyze.findings.RankMedians;
import io.overlapanalyze.formats.JobReader;
import io.overlapanalyze.formats.TraceFormats;
import io.overlapanalyze.formats.input.Messages;
import io.overlapanalyze.formats.input.SniffedInput;
import io.overlapanalyze.formats.input.ThreadBudget;
import io.overlapanalyze.formats.input.TraceFormatException;
import io.overlapanalyze.pipeline.AnalysisPipeline;
import io.overlapanalyze.render.html.JobPictures;
import io.overlapanalyze.render.html.RemoteTimelines;
import io.overlapanalyze.render.timeline.PrecomputedTimelines;
import io.overlapanalyze.report.RankReport;
import io.overlapanalyze.reportfile.ReportJson;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.function.Function;
import org.apache.spark.util.SerializableConfiguration;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ForkJoinPool;

/**
 * One task: one input read and each of its ranks analysed alone, with the single-machine code
 * ({@link JobReader#readOne}, {@link AnalysisPipeline#analyseRank}); what goes back to the driver
 * is the rank's report and its cross-rank digest. The task uses {@code spark.task.cpus} threads:
 * the readers' scan pools ({@link ThreadBudget}) and the analysis' parallel steps (a pool of that
 * size) never take more of an executor than the task was given.
 */
final class RankTask implements Function<RankFile, RankOutcome> {
    private static final long serialVersionUID = 1L;

    private final JobSettings settings;
    private final SerializableConfiguration hadoop;

    RankTask(JobSettings settings, SerializableConfiguration hadoop) {
        this.settings = settings;
        this.hadoop = hadoop;
    }

    @Override
    public RankOutcome call(RankFile file) throws Exception {
        TaskContext task = TaskContext.get();
        int cpus = task == null ? 1 : Math.max(1, task.cpus());
        int partition = task == null ? 0 : task.partitionId();
        ForkJoinPool pool = new ForkJoinPool(cpus);
        try {
            return pool.submit(() -> ThreadBudget.within(cpus, () -> analyse(file, partition))).get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof Exception cause) {
                throw cause;
            }
            throw e;
        } finally {
            pool.shutdownNow();
        }
    }

    RankOutcome analyse(RankFile file, int partition) throws IOException {
        Configuration conf = hadoop.value();
        TraceFormats formats = TraceFormats.standard();
        List<String> stepNames = Collections.synchronizedList(new ArrayList<>());
        try (LocalCopy copy = LocalCopy.of(file, conf)) {
            // A walked file is sniffed once, for the not-a-trace check, and the read takes that sniff.
            SniffedInput sniffed = null;
            if (file.walked()) {
                TraceFormats.Walked check = formats.checkWalked(copy.path(), settings.limits());
                if (check.notATrace() != null) {
                    return RankOutcome.skipped(file, Messages.quote(file.shownAs()) + ": "
                            + copy.relabel(check.notATrace()) + ", skipped");
                }
                sniffed = check.sniffed();
            }
            List<RankInput> inputs;
            try {
                inputs = JobReader.readOne(formats, copy.path(), sniffed, copy.namedAs(), settings.readOptions(),
                        settings.naming(), t -> AnalysisPipeline.analyseRank(copy.relabel(t), settings.steps(),
                                settings.options(), stepNames));
            } catch (TraceFormatException e) {
                return RankOutcome.unreadable(file, copy.relabel(e.getMessage()));
            }
            List<RankOutcome.Rank> ranks = new ArrayList<>();
            for (int k = 0; k < inputs.size(); k++) {
                RankInput in = inputs.get(k);
                if (settings.timelineSteps() != null) {
                    // A second read for the page: the driver has the rest already (and its part files
                    // must not be written again).
                    ranks.add(new RankOutcome.Rank(null, null, null, List.of(),
                            timelines(in, JobSettings.rankKey(file, k)), null, null));
                    continue;
                }
                RankReport report = in.report();
                String part = null;
                if (settings.reportParts() != null) {
                    byte[] json = ReportJson.rankPart(report);
                    if (json.length > settings.inlineBytes()) {
                        part = writePart(conf, settings.reportParts() + "/rank-input-" + partition + "-" + k + ".json", json);
                        report = null;
                    }
                }
                ranks.add(new RankOutcome.Rank(RankDigest.of(in), report, part, in.report().namedWarnings(),
                        timelines(in, JobSettings.rankKey(file, k)), RankMedians.of(in.report()),
                        RankOutcome.FlightRecorder.of(in.trace())));
            }
            return new RankOutcome(file, ranks, null, null, settings.steps() == null ? List.of() : stepNames);
        }
    }

    /**
     * What the page needs of this rank's trace: on the first read the steps it is likely to draw,
     * on a second read the steps the driver asked for; {@code null} without a page.
     */
    private PrecomputedTimelines timelines(RankInput in, String key) {
        if (settings.htmlRanks() <= 0) {
            return null;
        }
        if (settings.timelineSteps() != null) {
            return RemoteTimelines.of(in.trace(), in.report(), settings.timelineSteps().getOrDefault(key, Set.of()));
        }
        // What the CLI's job path keeps of a rank for its page: the same code.
        return new JobPictures(settings.htmlRanks(), Boolean.FALSE).keep(in);
    }

    private static String writePart(Configuration conf, String location, byte[] json) {
        org.apache.hadoop.fs.Path p = new org.apache.hadoop.fs.Path(location);
        try {
            FileSystem fs = p.getFileSystem(conf);
            try (FSDataOutputStream out = fs.create(p, true)) {
                out.write(json);
            }
        } catch (IOException e) {
            // Where the executor cannot write (a driver-local path on a cluster): the user's setting, named.
            throw new io.overlapanalyze.options.UserInputException(location + ": cannot write the rank's report: "
                    + Messages.oneLine(e), e);
        }
        return location;
    }
}
