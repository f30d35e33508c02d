package io.overlapanalyze.render;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.overlapanalyze.findings.Findings;
import io.overlapanalyze.findings.JobFindings;
import io.overlapanalyze.report.AnalysisReport;
import io.overlapanalyze.report.RankReport;

import java.io.IOException;
import java.io.OutputStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The JSON report (or a {@code summary} baseline) of a job whose ranks' full reports are not all
 * held in memory, written as {@link JsonRenderer} writes it, streaming: a rank whose full report
 * is elsewhere (a file the job path spilled it to, a Spark task's part file) is read back and
 * copied into its place one at a time. Same mapper, same pretty printer, same field order: the
 * bytes are {@link JsonRenderer}'s for the same report.
 */
public final class StreamedReportJson {
    private StreamedReportJson() {
    }

    /**
     * @param report   the report; a rank listed in {@code parts} stands only for its place in the order
     * @param parts    ranks whose full report is elsewhere (where), by identity
     * @param findings how the pipeline judged the ranks it held: each report read back is revised the
     *                 same way (the cross-rank split applied, then its findings), and the job's
     *                 findings are ranked from every rank's
     * @param kind     the {@code "kind"} field written first (a {@code summary} baseline's), or {@code null}
     *                 for {@code -f json}
     * @param read     a rank's full report from where {@code parts} says it is
     */
    public static <P> void write(OutputStream out, AnalysisReport report, Map<RankReport, P> parts,
                                 Findings findings, String kind, Function<P, RankReport> read) throws IOException {
        try (JsonGenerator g = JsonRenderer.mapper().getFactory().createGenerator(out)) {
            write(g, report, parts, findings, kind, read);
        }
        out.write(System.lineSeparator().getBytes(StandardCharsets.US_ASCII));
        out.flush();
    }

    /**
     * The JSON report as a renderer ({@code -f json}) over {@code parts}, as {@link #write} writes it,
     * to bytes or to characters.
     */
    public static <P> ReportRenderer renderer(Map<RankReport, P> parts, Findings findings,
                                              Function<P, RankReport> read) {
        return new ReportRenderer() {
            @Override
            public void render(AnalysisReport report, Writer out) throws IOException {
                try (JsonGenerator g = JsonRenderer.mapper().getFactory().createGenerator(out)) {
                    write(g, report, parts, findings, null, read);
                }
                out.write(System.lineSeparator());
                out.flush();
            }

            @Override
            public void render(AnalysisReport report, OutputStream out) throws IOException {
                write(out, report, parts, findings, null, read);
            }
        };
    }

    private static <P> void write(JsonGenerator g, AnalysisReport report, Map<RankReport, P> parts,
                                  Findings findings, String kind, Function<P, RankReport> read) throws IOException {
        ObjectMapper mapper = JsonRenderer.mapper();
        ObjectNode top = mapper.valueToTree(new AnalysisReport(report.schemaVersion(), report.tool(), List.of(),
                report.crossRank(), report.findings(), report.hang()));
        g.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
        g.setPrettyPrinter(new DefaultPrettyPrinter());
        g.writeStartObject();
        if (kind != null) {
            g.writeStringField("kind", kind);
        }
        List<JobFindings.RankFindingsOf> judged = List.of();
        for (Iterator<Map.Entry<String, JsonNode>> it = top.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> field = it.next();
            g.writeFieldName(field.getKey());
            if (field.getKey().equals("ranks")) {
                judged = writeRanks(g, mapper, report.ranks(), parts, findings, read);
            } else if (field.getKey().equals("findings") && !parts.isEmpty()) {
                // The job's findings come from every rank's, and a rank read back is judged
                // only as it is copied in: they are ranked once the ranks are written.
                mapper.writeValue(g, findings.job(judged));
            } else {
                mapper.writeTree(g, field.getValue());
            }
        }
        g.writeEndObject();
    }

    /** Writes the ranks, each read back judged as it is copied in; returns every rank's findings. */
    private static <P> List<JobFindings.RankFindingsOf> writeRanks(JsonGenerator g, ObjectMapper mapper,
                                                                  List<RankReport> ranks, Map<RankReport, P> parts,
                                                                  Findings findings, Function<P, RankReport> read)
            throws IOException {
        List<JobFindings.RankFindingsOf> judged = new ArrayList<>(ranks.size());
        g.writeStartArray();
        for (RankReport r : ranks) {
            P part = parts.get(r);
            RankReport written = part == null ? r : findings.revise(read.apply(part));
            mapper.writeValue(g, written);
            judged.add(new JobFindings.RankFindingsOf(written.rank(), written.findings()));
        }
        g.writeEndArray();
        return judged;
    }
}
