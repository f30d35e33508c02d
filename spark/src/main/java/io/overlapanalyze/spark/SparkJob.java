package io.overlapanalyze.spark;

import io.overlapanalyze.crossrank.RankInput;
import io.overlapanalyze.crossrank.digest.SharedValues;
import io.overlapanalyze.findings.JobFindings;
import io.overlapanalyze.findings.RankMedians;
import io.overlapanalyze.formats.JobReader;
import io.overlapanalyze.formats.TraceFormats;
import io.overlapanalyze.formats.input.TraceFormatException;
import io.overlapanalyze.options.UserInputException;
import io.overlapanalyze.pipeline.AnalysisPipeline;
import io.overlapanalyze.pipeline.PipelineInputException;
import io.overlapanalyze.pipeline.PipelineResult;
import io.overlapanalyze.render.html.RemoteTimelines;
import io.overlapanalyze.render.timeline.PrecomputedTimelines;
import io.overlapanalyze.render.timeline.TimelineIndex;
import io.overlapanalyze.report.AnalysisReport;
import io.overlapanalyze.report.InputProblem;
import io.overlapanalyze.report.RankReport;
import org.apache.spark.SparkException;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.util.SerializableConfiguration;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The job on the cluster: one task per input ({@link RankTask}), then, on the driver, the report
 * assembled by the pipeline's own code ({@link AnalysisPipeline#assemble}) over what came back:
 * the cross-rank analysis runs on the digests, which is all it reads.
 */
final class SparkJob {
    private SparkJob() {
    }

    /**
     * What the job found.
     *
     * @param pipeline the report and the inputs, as the CLI's pipeline gives them
     * @param parts    ranks whose full report is in a part file (by identity; JSON output copies them in)
     * @param warnings each rank's warnings, naming its input, in report order
     * @param page      the report the HTML page draws: the pipeline's, with the full report of every
     *                  rank whose report is in a part file read back; {@code null} without a page
     * @param timelines what the page draws, from the tasks, for the ranks of {@code page}; {@code null}
     *                  without a page
     */
    record Result(PipelineResult pipeline, Map<RankReport, String> parts, List<String> warnings,
                  AnalysisReport page, TimelineIndex timelines) {
    }

    static Result run(JavaSparkContext sc, InputLocations.Expanded inputs, JobSettings settings) {
        List<RankFile> files = inputs.files();
        SerializableConfiguration hadoop = new SerializableConfiguration(sc.hadoopConfiguration());
        // A list of its own, whose entries are dropped as they are decoded: the encoded digests
        // must not stay reachable next to the decoded ones (the driver's peak).
        List<RankOutcome> outcomes = new ArrayList<>(collect(sc, files, settings, hadoop));

        List<RankInput> ranks = new ArrayList<>();
        Map<RankReport, String> parts = new IdentityHashMap<>();
        Map<RankReport, List<String>> warnings = new IdentityHashMap<>();
        Map<String, RankReport> byKey = new HashMap<>();
        Map<RankReport, PrecomputedTimelines> timelines = new IdentityHashMap<>();
        List<InputProblem> unreadable = new ArrayList<>();
        List<String> skipped = new ArrayList<>(inputs.skipped());
        List<String> stepNames = new ArrayList<>();
        Map<Integer, RankMedians> medians = new java.util.TreeMap<>();
        SharedValues shared = new SharedValues();
        for (int i = 0; i < outcomes.size(); i++) {
            RankOutcome o = outcomes.set(i, null);
            if (o.unreadable() != null) {
                unreadable.add(AnalysisPipeline.unreadable(o.file().shownAs(), o.unreadable()));
            }
            if (o.skipped() != null) {
                skipped.add(o.skipped());
            }
            stepNames.addAll(o.stepNames());
            for (int k = 0; k < o.ranks().size(); k++) {
                RankOutcome.Rank r = o.ranks().get(k);
                RankInput digest = r.input(shared);
                RankReport shown = r.report() != null ? r.report() : digest.report();
                ranks.add(new RankInput(digest.trace(), shown));
                medians.putIfAbsent(shown.rank(), r.medians());
                if (r.reportPart() != null) {
                    parts.put(shown, r.reportPart());
                }
                warnings.put(shown, r.warnings());
                if (r.timelines() != null) {
                    byKey.put(JobSettings.rankKey(o.file(), k), shown);
                    timelines.put(shown, r.timelines());
                }
            }
        }
        if (ranks.isEmpty()) {
            refuseEmpty(unreadable, skipped);
        }
        if (settings.steps() != null) {
            settings.steps().requireAnyMatch(stepNames);
        }
        PipelineResult result = AnalysisPipeline.assemble(ranks, unreadable, files.size(), true, skipped, medians);
        // The result holds each rank's report as judged across ranks: the maps follow it.
        Map<RankReport, RankReport> judgedOf = new IdentityHashMap<>();
        for (int i = 0; i < ranks.size(); i++) {
            judgedOf.put(ranks.get(i).report(), result.inputs().get(i).report());
        }
        rekey(parts, judgedOf);
        rekey(warnings, judgedOf);
        rekey(timelines, judgedOf);
        byKey.replaceAll((key, r) -> judgedOf.getOrDefault(r, r));
        List<String> ordered = new ArrayList<>();
        for (RankReport r : result.report().ranks()) {
            ordered.addAll(warnings.getOrDefault(r, List.of()));
        }
        TimelineIndex index = null;
        AnalysisReport page = null;
        if (settings.htmlRanks() > 0) {
            // The page shows every step of every rank: the reports in part files come back here.
            AnalysisReport report = result.report();
            List<RankReport> full = new ArrayList<>();
            Map<RankReport, RankReport> fullOf = new IdentityHashMap<>();
            for (RankReport r : report.ranks()) {
                String part = parts.get(r);
                RankReport f = part == null ? r
                        : result.findings().revise(ReportParts.read(part, sc.hadoopConfiguration()));
                fullOf.put(r, f);
                full.add(f);
            }
            page = new AnalysisReport(report.schemaVersion(), report.tool(), full, report.crossRank(),
                    parts.isEmpty() ? report.findings() : result.findings().job(JobFindings.of(full)), report.hang());
            index = new TimelineIndex();
            Map<RankReport, PrecomputedTimelines> onPage = new IdentityHashMap<>();
            timelines.forEach((r, t) -> onPage.put(fullOf.get(r), t));
            onPage.forEach(index::add);
            byKey.replaceAll((key, r) -> fullOf.get(r));
            readMissingTimelines(sc, files, settings, hadoop, page, index, byKey, onPage);
        }
        return new Result(result, parts, ordered, page, index);
    }

    /** The map with each key replaced by the report {@code applied} gives for it (itself when none). */
    private static <V> void rekey(Map<RankReport, V> map, Map<RankReport, RankReport> applied) {
        Map<RankReport, V> copy = new IdentityHashMap<>(map);
        map.clear();
        copy.forEach((r, v) -> map.put(applied.getOrDefault(r, r), v));
    }

    /**
     * The rare page that draws a step the tasks did not send (the byte limit let in a later, smaller
     * step): those ranks are read again, sending exactly the steps the page lacks.
     */
    private static void readMissingTimelines(JavaSparkContext sc, List<RankFile> files, JobSettings settings,
                                             SerializableConfiguration hadoop, AnalysisReport page,
                                             TimelineIndex index, Map<String, RankReport> byKey,
                                             Map<RankReport, PrecomputedTimelines> timelines) {
        Map<RankReport, Set<String>> missing = RemoteTimelines.missing(page, index);
        if (missing.isEmpty()) {
            return;
        }
        Map<String, Set<String>> ask = new HashMap<>();
        byKey.forEach((key, report) -> {
            Set<String> steps = missing.get(report);
            if (steps != null) {
                ask.put(key, steps);
            }
        });
        List<RankFile> again = new ArrayList<>();
        for (RankFile f : files) {
            if (ask.keySet().stream().anyMatch(key -> JobSettings.fileOfKey(key).equals(f.location()))) {
                again.add(f);
            }
        }
        for (RankOutcome o : collect(sc, again, settings.withTimelineSteps(ask), hadoop)) {
            for (int k = 0; k < o.ranks().size(); k++) {
                RankReport report = byKey.get(JobSettings.rankKey(o.file(), k));
                PrecomputedTimelines more = o.ranks().get(k).timelines();
                if (report != null && more != null) {
                    index.add(report, timelines.get(report).withUnions(more.unions()));
                }
            }
        }
    }

    private static List<RankOutcome> collect(JavaSparkContext sc, List<RankFile> files, JobSettings settings,
                                             SerializableConfiguration hadoop) {
        try {
            return sc.parallelize(files, Math.max(1, files.size()))
                    .map(new RankTask(settings, hadoop))
                    .collect();
        } catch (Exception e) { // a SparkException, which Scala throws unchecked
            if (e instanceof SparkException && String.valueOf(e.getMessage()).contains("spark.driver.maxResultSize")) {
                // The digests alone outgrow the driver's limit: a setting to raise, not a fault.
                throw new UserInputException("the ranks' results are bigger than spark.driver.maxResultSize ("
                        + sc.getConf().get("spark.driver.maxResultSize", "1g") + "); raise it, e.g. "
                        + "--conf spark.driver.maxResultSize=4g", e);
            }
            throw e;
        }
    }

    /** Nothing readable: the CLI's error (as the pipeline gives it), the first problem with how many more there were. */
    private static void refuseEmpty(List<InputProblem> unreadable, List<String> skipped) {
        TraceFormatException e;
        if (!unreadable.isEmpty()) {
            e = JobReader.nothingReadable(unreadable.stream().map(u -> new TraceFormatException(u.message())).toList());
        } else if (!skipped.isEmpty()) {
            e = TraceFormats.nothingToRead(skipped);
        } else {
            e = new TraceFormatException("no trace to read");
        }
        throw new PipelineInputException(e.getMessage(), e);
    }
}
