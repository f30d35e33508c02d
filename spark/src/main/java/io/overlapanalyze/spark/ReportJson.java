package io.overlapanalyze.spark;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.overlapanalyze.findings.Findings;
import io.overlapanalyze.findings.JobFindings;
import io.overlapanalyze.render.JsonRenderer;
import io.overlapanalyze.render.summary.SummaryFile;
import io.overlapanalyze.report.AnalysisReport;
import io.overlapanalyze.report.RankReport;
import org.apache.hadoop.conf.Configuration;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * The JSON report (or a {@code summary} baseline) written as the CLI writes it, streaming: a rank
 * whose full report a task wrote to a part file is copied from that file into its place, one at a
 * time, so the driver never holds them all. Same mapper, same pretty printer, same field order:
 * the bytes are the CLI's.
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
        ObjectMapper mapper = JsonRenderer.mapper();
        ObjectNode top = mapper.valueToTree(new AnalysisReport(report.schemaVersion(), report.tool(), List.of(),
                report.crossRank(), report.findings(), report.hang()));
        try (JsonGenerator g = mapper.getFactory().createGenerator(out)) {
            g.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
            g.setPrettyPrinter(new DefaultPrettyPrinter());
            g.writeStartObject();
            if (summary) {
                g.writeStringField("kind", SummaryFile.KIND);
            }
            List<JobFindings.RankFindingsOf> judged = List.of();
            for (Iterator<Map.Entry<String, JsonNode>> it = top.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> field = it.next();
                g.writeFieldName(field.getKey());
                if (field.getKey().equals("ranks")) {
                    judged = writeRanks(g, mapper, report.ranks(), parts, findings, conf);
                } else if (field.getKey().equals("findings") && !parts.isEmpty()) {
                    // The job's findings come from every rank's, and a rank in a part file is judged
                    // only as it is copied in: they are ranked once the ranks are written.
                    mapper.writeValue(g, findings.job(judged));
                } else {
                    mapper.writeTree(g, field.getValue());
                }
            }
            g.writeEndObject();
        }
        out.write(System.lineSeparator().getBytes(StandardCharsets.US_ASCII));
        out.flush();
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

    /** Writes the ranks, each in a part file judged as it is copied in; returns every rank's findings. */
    private static List<JobFindings.RankFindingsOf> writeRanks(JsonGenerator g, ObjectMapper mapper,
                                                              List<RankReport> ranks, Map<RankReport, String> parts,
                                                              Findings findings, Configuration conf)
            throws IOException {
        List<JobFindings.RankFindingsOf> judged = new ArrayList<>(ranks.size());
        g.writeStartArray();
        for (RankReport r : ranks) {
            String part = parts.get(r);
            RankReport written = part == null ? r : findings.revise(readRank(part, conf));
            mapper.writeValue(g, written);
            judged.add(new JobFindings.RankFindingsOf(written.rank(), written.findings()));
        }
        g.writeEndArray();
        return judged;
    }
}
