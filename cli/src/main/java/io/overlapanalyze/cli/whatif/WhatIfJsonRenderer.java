package io.overlapanalyze.cli.whatif;

import io.overlapanalyze.reportfile.ReportJson;
import io.overlapanalyze.whatif.WhatIfReport;

import java.io.IOException;
import java.io.StringWriter;
import java.io.Writer;

/**
 * The what-if report as JSON: the records as they are ({@code measured}, {@code model},
 * {@code options[]}, {@code recommended}, ...), with the same mapper as the analysis report.
 */
public final class WhatIfJsonRenderer {
    private WhatIfJsonRenderer() {
    }

    public static void render(WhatIfReport report, Writer out) throws IOException {
        // Write to a string first: Jackson closes its target, and standard output must stay open.
        StringWriter sw = new StringWriter();
        ReportJson.mapper().writerWithDefaultPrettyPrinter().writeValue(sw, report);
        out.write(sw.toString());
        out.write(System.lineSeparator());
        out.flush();
    }
}
