package io.overlapanalyze.spark;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.overlapanalyze.render.JsonRenderer;
import io.overlapanalyze.render.summary.SummaryFile;
import io.overlapanalyze.report.AnalysisReport;
import io.overlapanalyze.crossrank.CrossRankSplits;
import io.overlapanalyze.crossrank.StepWaits;
import io.overlapanalyze.report.RankReport;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
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
     * @param waits   the cross-rank transfer/waiting evidence: applied to each report read from a part
     *                file, as the pipeline applied it to the reports it held ({@code CrossRankSplits.apply})
     */
    static void write(OutputStream out, AnalysisReport report, Map<RankReport, String> parts, boolean summary,
                      StepWaits waits, Configuration conf) throws IOException {
        ObjectMapper mapper = JsonRenderer.mapper();
        ObjectNode top = mapper.valueToTree(new AnalysisReport(report.schemaVersion(), report.tool(), List.of(),
                report.crossRank()));
        try (JsonGenerator g = mapper.getFactory().createGenerator(out)) {
            g.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
            g.setPrettyPrinter(new DefaultPrettyPrinter());
            g.writeStartObject();
            if (summary) {
                g.writeStringField("kind", SummaryFile.KIND);
            }
            for (Iterator<Map.Entry<String, JsonNode>> it = top.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> field = it.next();
                g.writeFieldName(field.getKey());
                if (field.getKey().equals("ranks")) {
                    writeRanks(g, mapper, report.ranks(), parts, waits, conf);
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

    private static void writeRanks(JsonGenerator g, ObjectMapper mapper, List<RankReport> ranks,
                                   Map<RankReport, String> parts, StepWaits waits, Configuration conf)
            throws IOException {
        g.writeStartArray();
        for (RankReport r : ranks) {
            String part = parts.get(r);
            if (part == null) {
                mapper.writeValue(g, r);
                continue;
            }
            StepWaits.RankWaits rankWaits = waits == null ? null : waits.rank(r.rank());
            if (rankWaits != null) {
                mapper.writeValue(g, CrossRankSplits.apply(readRank(part, conf), rankWaits));
                continue;
            }
            org.apache.hadoop.fs.Path p = new org.apache.hadoop.fs.Path(part);
            FileSystem fs = p.getFileSystem(conf);
            try (InputStream in = fs.open(p); JsonParser parser = mapper.getFactory().createParser(in)) {
                parser.nextToken();
                g.copyCurrentStructure(parser);
            }
        }
        g.writeEndArray();
    }
}
