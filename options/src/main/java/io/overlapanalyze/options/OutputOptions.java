package io.overlapanalyze.options;

import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Collection;

/**
 * {@code -o} (a picocli mixin), and the one place that writes a report to the file or, without
 * {@code -o} (or with {@code -o -}), to standard output. {@link FormatOption} is {@code -f}. The
 * value is kept as typed: to the CLI a path, to the Spark launcher also a URI.
 */
public final class OutputOptions {
    @Option(names = {"-o", "--output"}, paramLabel = "FILE", converter = PathConverter.AsTyped.class,
            description = "Write to FILE instead of standard output (never over an input).")
    String output;

    /** {@code -o} as typed (a path or, on Spark, a URI), or {@code null} when not given. */
    public String location() {
        return output;
    }

    /** The file to write, or {@code null} for standard output ({@code -o -} is standard output). */
    public Path file() {
        return output == null ? null : SafeOutput.fileOrNull(Path.of(output));
    }

    /** Writes text to {@link #file()} (never over one of {@code inputs}) or to {@code stdout}. */
    public void write(PrintWriter stdout, Collection<Path> inputs, SafeOutput.TextContent content) {
        Path file = file();
        if (file != null) {
            SafeOutput.write(file, inputs, content);
            return;
        }
        try {
            content.writeTo(stdout);
        } catch (IOException e) {
            throw new UserInputException("cannot write to standard output: " + e.getMessage(), e);
        }
        stdout.flush();
    }
}
