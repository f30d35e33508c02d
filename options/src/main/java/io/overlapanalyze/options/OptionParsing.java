package io.overlapanalyze.options;

import picocli.CommandLine;

/**
 * How a launcher's command line reads these options, so that a value means the same to every
 * launcher: {@code -f JSON} and {@code -f json} are one format.
 */
public final class OptionParsing {
    private OptionParsing() {
    }

    /**
     * Sets on {@code cl} (and the subcommands it holds now) what the options rely on; returns it. Every
     * {@link java.nio.file.Path} argument goes through {@link PathConverter} (an empty one is bad usage).
     */
    public static CommandLine configure(CommandLine cl) {
        cl.setCaseInsensitiveEnumValuesAllowed(true);
        cl.registerConverter(java.nio.file.Path.class, new PathConverter());
        return cl;
    }
}
