package io.overlapanalyze.reportfile;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.overlapanalyze.findings.Findings;
import io.overlapanalyze.findings.JobFindings;
import io.overlapanalyze.formats.ToolFile;
import io.overlapanalyze.render.escape.JsonEscapes;
import io.overlapanalyze.report.AnalysisReport;
import io.overlapanalyze.report.RankReport;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The report's JSON form, the one codec every launcher and reader of saved results uses: the mapper
 * (field names are a contract, CI scripts read them; {@code schemaVersion} changes on any incompatible
 * change; undefined values are written as {@code null}, never as NaN; names from a trace pass through
 * {@link JsonEscapes}), the report written whole ({@code -f json}), a rank's report as a compact part
 * and read back, and the report written streaming with ranks held in part files, byte for byte as it
 * is written whole. Summaries ({@link SummaryFile}) are this form with their {@code kind} first.
 */
public final class ReportJson {
    private static final ObjectMapper MAPPER = new ObjectMapper()
            .enable(SerializationFeature.INDENT_OUTPUT)
            .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS)
            .setSerializationInclusion(JsonInclude.Include.ALWAYS);

    static {
        // Names from a trace: no raw control or bidirectional character in the file (JSON escapes).
        MAPPER.getFactory().setCharacterEscapes(new JsonEscapes());
    }

    private static final ObjectWriter COMPACT = MAPPER.writer().without(SerializationFeature.INDENT_OUTPUT);

    private ReportJson() {
    }

    /** The shared mapper: what every JSON output of the tool is written with, and tests read reports back with. */
    public static ObjectMapper mapper() {
        return MAPPER;
    }

    /** The report, pretty-printed, then a line separator; {@code out} stays open. */
    public static void write(AnalysisReport report, Writer out) throws IOException {
        MAPPER.writerWithDefaultPrettyPrinter().writeValue(new NonClosingWriter(out), report);
        out.write(System.lineSeparator());
        out.flush();
    }

    /** As {@link #write(AnalysisReport, Writer)}, in UTF-8 bytes; {@code out} stays open. */
    public static void write(AnalysisReport report, OutputStream out) throws IOException {
        // Jackson's UTF-8 generator writes bytes straight away (no char buffer to encode).
        try (JsonGenerator g = MAPPER.getFactory().createGenerator(out)) {
            g.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
            MAPPER.writerWithDefaultPrettyPrinter().writeValue(g, report);
        }
        out.write(System.lineSeparator().getBytes(StandardCharsets.US_ASCII));
        out.flush();
    }

    /** A rank's report as one compact JSON document (a part file a task writes for its driver). */
    public static byte[] rankPart(RankReport rank) throws IOException {
        return COMPACT.writeValueAsBytes(rank);
    }

    /** A rank's report read back from what {@link #rankPart} wrote. */
    public static RankReport readRankPart(InputStream in) throws IOException {
        return MAPPER.readValue(in, RankReport.class);
    }

    /**
     * The JSON report (or a {@code summary} baseline) written streaming: a rank whose full report is
     * elsewhere (a Spark task's part file, a file the CLI's job path spilled it to) is copied from that file into its place, one at a time, so the writer never holds
     * them all. Same mapper, same pretty printer, same field order: the bytes are {@link #write}'s (with
     * {@code summary}, {@link SummaryFile#write}'s).
     *
     * @param report   the report; a rank listed in {@code parts} stands only for its place in the order
     * @param parts    ranks whose full report is in a part file (its location), by identity
     * @param findings how the pipeline judged the ranks it held: each report read from a part file is
     *                 revised the same way (the cross-rank split applied, then its findings), and the
     *                 job's findings are ranked from every rank's
     * @param summary  true for a {@code summary} baseline ({@code "kind"} first), false for {@code -f json}
     * @param readPart reads a part file's rank report ({@link #readRankPart} over wherever parts are kept)
     */
    public static <P> void write(OutputStream out, AnalysisReport report, Map<RankReport, P> parts, Findings findings,
                                 boolean summary, Function<P, RankReport> readPart) throws IOException {
        try (JsonGenerator g = MAPPER.getFactory().createGenerator(out)) {
            writeStreamed(g, report, parts, findings, summary, readPart);
        }
        out.write(System.lineSeparator().getBytes(StandardCharsets.US_ASCII));
        out.flush();
    }

    /** As {@link #write(OutputStream, AnalysisReport, Map, Findings, boolean, Function)}, to characters. */
    public static <P> void write(Writer out, AnalysisReport report, Map<RankReport, P> parts, Findings findings,
                                 boolean summary, Function<P, RankReport> readPart) throws IOException {
        try (JsonGenerator g = MAPPER.getFactory().createGenerator(out)) {
            writeStreamed(g, report, parts, findings, summary, readPart);
        }
        out.write(System.lineSeparator());
        out.flush();
    }

    private static <P> void writeStreamed(JsonGenerator g, AnalysisReport report, Map<RankReport, P> parts,
                                          Findings findings, boolean summary, Function<P, RankReport> readPart)
            throws IOException {
        ObjectNode top = MAPPER.valueToTree(new AnalysisReport(report.schemaVersion(), report.tool(), List.of(),
                report.crossRank(), report.findings(), report.hang()));
        g.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
        g.setPrettyPrinter(new DefaultPrettyPrinter());
        g.writeStartObject();
        if (summary) {
            g.writeStringField("kind", ToolFile.SUMMARY.kind());
        }
        List<JobFindings.RankFindingsOf> judged = List.of();
        for (Iterator<Map.Entry<String, JsonNode>> it = top.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> field = it.next();
            g.writeFieldName(field.getKey());
            if (field.getKey().equals("ranks")) {
                judged = writeRanks(g, report.ranks(), parts, findings, readPart);
            } else if (field.getKey().equals("findings") && !parts.isEmpty()) {
                // The job's findings come from every rank's, and a rank read back is judged
                // only as it is copied in: they are ranked once the ranks are written.
                MAPPER.writeValue(g, findings.job(judged));
            } else {
                MAPPER.writeTree(g, field.getValue());
            }
        }
        g.writeEndObject();
    }

    /** Writes the ranks, each in a part file judged as it is copied in; returns every rank's findings. */
    private static <P> List<JobFindings.RankFindingsOf> writeRanks(JsonGenerator g, List<RankReport> ranks,
                                                                  Map<RankReport, P> parts, Findings findings,
                                                                  Function<P, RankReport> readPart)
            throws IOException {
        List<JobFindings.RankFindingsOf> judged = new ArrayList<>(ranks.size());
        g.writeStartArray();
        for (RankReport r : ranks) {
            P part = parts.get(r);
            RankReport written = part == null ? r : findings.revise(readPart.apply(part));
            MAPPER.writeValue(g, written);
            judged.add(new JobFindings.RankFindingsOf(written.rank(), written.findings()));
        }
        g.writeEndArray();
        return judged;
    }

    /** Jackson closes the target when done; standard output must stay open. */
    private static final class NonClosingWriter extends java.io.FilterWriter {
        NonClosingWriter(Writer w) {
            super(w);
        }

        @Override
        public void close() throws IOException {
            flush();
        }
    }
}
