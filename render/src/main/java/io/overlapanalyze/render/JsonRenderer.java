package io.overlapanalyze.render;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.overlapanalyze.report.AnalysisReport;
import io.overlapanalyze.reportfile.ReportJson;

import java.io.IOException;
import java.io.OutputStream;
import java.io.Writer;

/**
 * The machine-readable report ({@code -f json}): the report's JSON form, written by its codec
 * ({@link ReportJson}), which says what the contract of its fields is.
 */
public final class JsonRenderer implements ReportRenderer {
    /** The codec's mapper ({@link ReportJson#mapper()}), which tests read reports back with. */
    public static ObjectMapper mapper() {
        return ReportJson.mapper();
    }

    @Override
    public void render(AnalysisReport report, Writer out) throws IOException {
        ReportJson.write(report, out);
    }

    @Override
    public void render(AnalysisReport report, OutputStream out) throws IOException {
        ReportJson.write(report, out);
    }
}
