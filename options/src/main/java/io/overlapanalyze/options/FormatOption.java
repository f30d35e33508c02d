package io.overlapanalyze.options;

import picocli.CommandLine.Option;

/**
 * {@code -f} (a picocli mixin on every command that renders a report): text for people, JSON for
 * scripts, markdown for CI summaries. A command that cannot render one of them says so.
 */
public final class FormatOption {
    @Option(names = {"-f", "--format"}, paramLabel = "FORMAT", defaultValue = "text",
            description = "Output format: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).")
    OutputFormat format;

    /** The format asked for. */
    public OutputFormat format() {
        return format;
    }
}
