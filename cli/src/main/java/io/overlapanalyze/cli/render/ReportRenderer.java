package io.overlapanalyze.cli.render;

import io.overlapanalyze.report.AnalysisReport;

import java.io.IOException;
import java.io.Writer;

/** Turns a report into one output format. Renderers know the report, nothing of traces. */
public interface ReportRenderer {
    void render(AnalysisReport report, Writer out) throws IOException;
}
