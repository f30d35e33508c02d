package io.overlapanalyze.cli;

import java.io.PrintWriter;
import java.io.StringWriter;

/** Runs the CLI in-process and captures what it printed. */
public record CliRun(int exitCode, String out, String err) {
    public static CliRun of(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new CliRun(code, out.toString(), err.toString());
    }

    /** The non-empty lines of stderr. */
    public java.util.List<String> errLines() {
        return err.lines().filter(l -> !l.isBlank()).toList();
    }
}
