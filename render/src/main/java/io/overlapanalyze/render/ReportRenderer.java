package io.overlapanalyze.render;

import io.overlapanalyze.report.AnalysisReport;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;

/** Turns a report into one output format. Renderers know the report, nothing of traces. */
public interface ReportRenderer {
    void render(AnalysisReport report, Writer out) throws IOException;

    /**
     * The same output as UTF-8 bytes; {@code out} is flushed, not closed. A renderer that can write
     * bytes directly overrides this (the JSON of a big trace is tens of MB: encoding it from chars
     * costs as much as generating it).
     */
    default void render(AnalysisReport report, OutputStream out) throws IOException {
        Writer w = new BufferedWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8), 1 << 16);
        render(report, w);
        w.flush();
    }
}
