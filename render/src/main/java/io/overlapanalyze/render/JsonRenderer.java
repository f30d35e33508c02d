package io.overlapanalyze.render;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.overlapanalyze.render.escape.JsonEscapes;
import io.overlapanalyze.report.AnalysisReport;

import com.fasterxml.jackson.core.JsonGenerator;

import java.io.IOException;
import java.io.OutputStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;

/**
 * The machine-readable report: the report records serialised as they are. Field names are a
 * contract (CI scripts read them); {@code schemaVersion} changes on any incompatible change.
 * Undefined values are written as {@code null}, never as NaN.
 */
public final class JsonRenderer implements ReportRenderer {
    private static final ObjectMapper MAPPER = new ObjectMapper()
            .enable(SerializationFeature.INDENT_OUTPUT)
            .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS)
            .setSerializationInclusion(JsonInclude.Include.ALWAYS);

    static {
        // Names from a trace: no raw control or bidirectional character in the file (JSON escapes).
        MAPPER.getFactory().setCharacterEscapes(new JsonEscapes());
    }

    /** The shared mapper, also used by tests to read reports back. */
    public static ObjectMapper mapper() {
        return MAPPER;
    }

    @Override
    public void render(AnalysisReport report, Writer out) throws IOException {
        MAPPER.writerWithDefaultPrettyPrinter().writeValue(new NonClosingWriter(out), report);
        out.write(System.lineSeparator());
        out.flush();
    }

    @Override
    public void render(AnalysisReport report, OutputStream out) throws IOException {
        // Jackson's UTF-8 generator writes bytes straight away (no char buffer to encode).
        try (JsonGenerator g = MAPPER.getFactory().createGenerator(out)) {
            g.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
            MAPPER.writerWithDefaultPrettyPrinter().writeValue(g, report);
        }
        out.write(System.lineSeparator().getBytes(StandardCharsets.US_ASCII));
        out.flush();
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
