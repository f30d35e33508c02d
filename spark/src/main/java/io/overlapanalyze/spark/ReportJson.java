package io.overlapanalyze.spark;

import io.overlapanalyze.findings.Findings;
import io.overlapanalyze.render.JsonRenderer;
import io.overlapanalyze.render.StreamedReportJson;
import io.overlapanalyze.render.summary.SummaryFile;
import io.overlapanalyze.report.AnalysisReport;
import io.overlapanalyze.report.RankReport;
import org.apache.hadoop.conf.Configuration;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Map;

/**
 * The JSON report (or a {@code summary} baseline) written as the CLI writes it, streaming
 * ({@link StreamedReportJson}, which the CLI's job path uses for its spilled ranks too): a rank
 * whose full report a task wrote to a part file is copied from that file into its place, one at a
 * time, so the driver never holds them all.
 */
final class ReportJson {
    private ReportJson() {
    }

    /**
     * @param report  the report; a rank listed in {@code parts} stands only for its place in the order
     * @param parts   ranks whose full report is in a part file (its location), by identity
     * @param summary true for a {@code summary} baseline ({@code "kind"} first), false for {@code -f json}
     * @param findings how the pipeline judged the ranks it held: each report read from a part file is
     *                revised the same way (the cross-rank split applied, then its findings), and the
     *                job's findings are ranked from every rank's
     */
    static void write(OutputStream out, AnalysisReport report, Map<RankReport, String> parts, Findings findings,
                      boolean summary, Configuration conf) throws IOException {
        StreamedReportJson.write(out, report, parts, findings, summary ? SummaryFile.KIND : null,
                part -> readRank(part, conf));
    }

    /** A rank's full report, read back from the part file a task wrote. */
    static RankReport readRank(String part, Configuration conf) {
        org.apache.hadoop.fs.Path p = new org.apache.hadoop.fs.Path(part);
        try (InputStream in = p.getFileSystem(conf).open(p)) {
            return JsonRenderer.mapper().readValue(in, RankReport.class);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(part + ": cannot read the rank's report back: " + e.getMessage(), e);
        }
    }
}
