package io.overlapanalyze.cli;

import picocli.CommandLine.Option;

/** {@code --debug} (a picocli mixin on every command): stack traces for errors ({@link Main.ErrorHandler}). */
public final class DebugOption {
    @Option(names = "--debug", description = "Print stack traces for errors.")
    boolean debug;
}
