package io.overlapanalyze.reportfile;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.overlapanalyze.formats.ToolFile;
import io.overlapanalyze.formats.TraceFormats;
import io.overlapanalyze.formats.input.FormatDetector;
import io.overlapanalyze.formats.input.InputLimits;
import io.overlapanalyze.formats.input.InputStreams;
import io.overlapanalyze.formats.input.Messages;
import io.overlapanalyze.formats.input.SniffedInput;
import io.overlapanalyze.pipeline.PipelineInputException;
import io.overlapanalyze.report.AnalysisReport;

import java.io.IOException;
import java.io.InputStream;
import java.io.Writer;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.Map;

/**
 * A saved summary: the analysis report JSON ({@code --format json}) with {@code "kind":
 * "overlap-analyze summary"} first. It stands in for traces on either side of diff and gate, so
 * a baseline can live in a repository where traces (megabytes to gigabytes) cannot.
 *
 * <p>Recognised by content: a JSON object with {@code schemaVersion} and {@code ranks} at the top
 * and no {@code traceEvents}; read only when its {@code kind} is exactly {@link #KIND} (the plain
 * {@code --format json} report, without it, is refused with one line saying how to write a summary:
 * a baseline must say what it is). Its values are then checked for sense ({@link SummarySense}).
 * Compatibility: fields are only ever added within a {@code schemaVersion}; unknown
 * fields (from a newer tool of the same version) are ignored and missing optional ones (from an
 * older tool) read as empty, while a higher {@code schemaVersion} is refused with one line. A
 * missing required number or a value of the wrong type is a damaged summary ({@link SummaryShape}),
 * refused with one line naming the field: never read as 0.
 */
public final class SummaryFile {
    /** The {@code kind} a summary carries ({@link ToolFile#SUMMARY}). */
    private static final String KIND = ToolFile.SUMMARY.kind();

    private static final ObjectMapper READER = ReportJson.mapper().copy()
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
    private static final JsonFactory JSON = new JsonFactory();

    private SummaryFile() {
    }

    /** What a file is, for diff and gate. */
    public enum Content {
        SUMMARY,
        /** A JSON document of this tool that is not a summary (a diff or gate result). */
        OTHER_RESULT,
        /** Anything else: left to the trace readers, which name the problem. */
        NOT_SUMMARY
    }

    /** Writes {@code report} as a summary. */
    public static void write(AnalysisReport report, Writer out) throws IOException {
        ObjectNode node = READER.createObjectNode();
        node.put("kind", KIND);
        node.setAll((ObjectNode) READER.valueToTree(report));
        READER.writerWithDefaultPrettyPrinter().writeValue(new NonClosing(out), node);
        out.write(System.lineSeparator());
        out.flush();
    }

    /**
     * Classifies a file by its top-level keys, streaming: stops at {@code traceEvents}, so a trace
     * costs a few bytes of reading, and at a first key {@code kind} naming this tool's file. Unreadable or malformed content is {@code NOT_SUMMARY} unless
     * the keys seen before the damage already said summary (then reading it reports the damage).
     */
    public static Content classify(Path file) {
        return readOn(file, TraceFormats.standard());
    }

    /** {@link #classify(Path)}, the file opened through {@code formats} (whose seam counts the opens). */
    private static Content readOn(Path file, TraceFormats formats) {
        if (!java.nio.file.Files.isRegularFile(file)) {
            // Never opened: a FIFO would block, a dangling link cannot be; the trace readers name the problem.
            return Content.NOT_SUMMARY;
        }
        try (InputStream in = formats.readOn(file, InputLimits.DEFAULT); JsonParser p = JSON.createParser(in)) {
            return new Keys().verdict(p, true);
        } catch (IOException | RuntimeException e) {
            // Opening failed: nothing seen, so not a summary (the readers name the problem).
            return Content.NOT_SUMMARY;
        }
    }

    /**
     * Classifies a file from what the front door sniffed of it ({@code null}: it could not be sniffed),
     * as {@link #classify(Path)} would, opening it again only when the head cannot tell. The head
     * decides when it can: SQLite and JSON arrays by their first byte, a trace by {@code traceEvents}
     * (a Kineto trace names it within a few KB), this tool's files by their first key {@code kind}
     * (every writer puts it first; a top-level {@code traceEvents} after it is not looked for), a small
     * file by all of it. Only a JSON object whose head ends before any of these (a plain {@code -f json}
     * report whose {@code ranks} start past the head, a file of another tool) is read on, from the start,
     * through {@code formats} (the front door that sniffed it).
     */
    public static Content classify(Path file, SniffedInput sniffed, TraceFormats formats) {
        if (sniffed == null || !sniffed.path().equals(file) || !java.nio.file.Files.isRegularFile(file)) {
            return readOn(file, formats);
        }
        if (sniffed.content() == FormatDetector.Content.SQLITE || sniffed.content() == FormatDetector.Content.JSON_ARRAY) {
            // No JSON parser starts an object there (the SQLite magic is no JSON; '[' is an array).
            return Content.NOT_SUMMARY;
        }
        try (JsonParser p = JSON.createParser(sniffed.head())) {
            Content c = new Keys().verdict(p, sniffed.whole());
            if (c != null) {
                return c;
            }
        } catch (IOException | RuntimeException e) {
            if (sniffed.whole()) {
                return Content.NOT_SUMMARY; // the whole file was malformed before any key said summary
            }
            // Else the cut of the head may have made it so (a literal or a character split): the file decides.
        }
        return readOn(file, formats);
    }

    /** The top-level keys that say what a JSON document is, as a parser meets them. */
    private static final class Keys {
        private boolean schema;
        private boolean ranks;
        private String kind;

        /**
         * What {@code p} holds, or {@code null} when it holds the first bytes only ({@code whole} false)
         * and they ended before the verdict. A parse error thrown from here, on a whole document, means
         * {@link #decide} on the keys seen before it.
         */
        Content verdict(JsonParser p, boolean whole) throws IOException {
            try {
                JsonToken first = p.nextToken();
                if (first == null && !whole) {
                    return null;
                }
                if (first != JsonToken.START_OBJECT) {
                    return Content.NOT_SUMMARY;
                }
                boolean firstKey = true;
                JsonToken t;
                for (t = p.nextToken(); t == JsonToken.FIELD_NAME; t = p.nextToken()) {
                    String name = p.currentName();
                    JsonToken value = p.nextToken();
                    switch (name) {
                        case "traceEvents" -> {
                            return Content.NOT_SUMMARY;
                        }
                        case "schemaVersion" -> schema = true;
                        case "ranks" -> ranks = true;
                        case "kind" -> kind = value == JsonToken.VALUE_STRING ? p.getText() : null;
                        default -> {
                        }
                    }
                    if (firstKey && ToolFile.isToolKind(kind)) {
                        return decide(); // this tool's file: its writer put the kind first
                    }
                    firstKey = false;
                    p.skipChildren();
                }
                if (t != null) {
                    return decide(); // the object ended (what may follow it is not looked at)
                }
            } catch (IOException | RuntimeException e) {
                if (!whole) {
                    throw e;
                }
                // Damaged: decide on what was seen.
            }
            return whole ? decide() : null;
        }

        private Content decide() {
            if (ToolFile.isToolKind(kind) && !kind.equals(KIND)) {
                return Content.OTHER_RESULT;
            }
            return (schema && ranks) || KIND.equals(kind) ? Content.SUMMARY : Content.NOT_SUMMARY;
        }
    }

    /** Reads a summary; every problem is one {@link PipelineInputException} line naming the file. */
    public static AnalysisReport read(Path file) {
        JsonNode root;
        try (InputStream in = InputStreams.open(file)) {
            root = READER.readTree(in);
        } catch (IOException e) {
            throw new PipelineInputException(Messages.quote(file) + ": not a readable overlap-analyze summary: "
                    + parseProblem(e), e);
        }
        return fromTree(String.valueOf(file), root);
    }

    /**
     * Reads a summary held elsewhere than in a file (a run history's row), with exactly the checks of
     * {@link #read(Path)}; every problem is one {@link PipelineInputException} line naming {@code source}.
     *
     * @param source what to call it in messages ("runs.db, run 17")
     * @param json   the summary as {@link #write} wrote it
     */
    public static AnalysisReport read(String source, String json) {
        JsonNode root;
        try {
            root = READER.readTree(json);
        } catch (IOException e) {
            throw new PipelineInputException(Messages.quote(source) + ": not a readable overlap-analyze summary: "
                    + parseProblem(e), e);
        }
        return fromTree(source, root);
    }

    private static AnalysisReport fromTree(String file, JsonNode root) {
        if (root == null || !root.isObject()) {
            throw new PipelineInputException(file + ": not a readable overlap-analyze summary: not a JSON object");
        }
        JsonNode kind = root.get("kind");
        if (kind == null) {
            throw new PipelineInputException(file + ": not a summary: \"kind\" is missing (a baseline must say what it "
                    + "is: write it with 'overlap-analyze summary')");
        }
        if (!kind.isTextual() || !KIND.equals(kind.textValue())) {
            throw new PipelineInputException(file + ": not a summary: \"kind\" is " + abbreviate(kind.toString())
                    + ", not \"" + KIND + "\"");
        }
        JsonNode version = root.get("schemaVersion");
        if (version == null || !version.canConvertToInt() || !version.isIntegralNumber()) {
            throw new PipelineInputException(file + ": summary has no integer schemaVersion"
                    + (version == null ? "" : " (it is " + abbreviate(version.toString()) + ")"));
        }
        int v = version.intValue();
        if (v > AnalysisReport.SCHEMA_VERSION) {
            throw new PipelineInputException(file + ": summary schemaVersion " + v + " is newer than this "
                    + "overlap-analyze reads (" + AnalysisReport.SCHEMA_VERSION + "); use a newer overlap-analyze "
                    + "or write the summary again with this one");
        }
        if (v < 1) {
            throw new PipelineInputException(file + ": summary schemaVersion " + v + " is not valid (versions start at 1)");
        }
        if (root.get("ranks") == null || !root.get("ranks").isArray()) {
            throw new PipelineInputException(file + ": summary has no \"ranks\" array");
        }
        ObjectNode tree = withoutKind(root);
        try {
            SummaryShape.check(tree);
        } catch (SummaryShape.Problem e) {
            throw new PipelineInputException(Messages.quote(file) + ": damaged summary: " + e.getMessage(), e);
        }
        AnalysisReport report;
        try {
            report = READER.treeToValue(tree, AnalysisReport.class);
        } catch (JsonMappingException e) {
            throw new PipelineInputException(Messages.quote(file) + ": damaged summary: " + jsonPath(e)
                    + ": missing or inconsistent values", e);
        } catch (IOException | RuntimeException e) {
            throw new PipelineInputException(Messages.quote(file) + ": damaged summary: a value this version cannot read",
                    e);
        }
        try {
            SummarySense.check(report);
        } catch (SummaryShape.Problem e) {
            throw new PipelineInputException(Messages.quote(file) + ": impossible value in summary: " + e.getMessage(), e);
        }
        return report;
    }

    private static String abbreviate(String s) {
        return Messages.printable(s.length() > 40 ? s.substring(0, 40) + "..." : s);
    }

    /** Where a binding problem is, as a JSON path ({@code ranks[0].steps}), never as Java types. */
    private static String jsonPath(JsonMappingException e) {
        StringBuilder b = new StringBuilder();
        for (JsonMappingException.Reference r : e.getPath()) {
            if (r.getFieldName() != null) {
                b.append(b.length() == 0 ? "" : ".").append(r.getFieldName());
            } else if (r.getIndex() >= 0) {
                b.append('[').append(r.getIndex()).append(']');
            }
        }
        return b.length() == 0 ? "the top level" : b.toString();
    }

    private static ObjectNode withoutKind(JsonNode root) {
        ObjectNode copy = READER.createObjectNode();
        for (Iterator<Map.Entry<String, JsonNode>> it = root.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            if (!e.getKey().equals("kind")) {
                copy.set(e.getKey(), e.getValue());
            }
        }
        return copy;
    }

    /**
     * A parse error without Jackson's source description (which names Java stream classes): what
     * is wrong, and the line and column.
     */
    private static String parseProblem(IOException e) {
        if (e instanceof com.fasterxml.jackson.core.JsonProcessingException j) {
            String first = io.overlapanalyze.formats.input.JsonProblem.describe(j);
            var loc = j.getLocation();
            return first + (loc != null && loc.getLineNr() > 0 ? " (line " + loc.getLineNr() + ", column "
                    + loc.getColumnNr() + ")" : "");
        }
        return Messages.firstLine(e);
    }

    private static final class NonClosing extends java.io.FilterWriter {
        NonClosing(Writer w) {
            super(w);
        }

        @Override
        public void close() throws IOException {
            flush();
        }
    }
}
