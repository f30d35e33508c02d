package io.overlapanalyze.options;

import picocli.CommandLine.Option;

/** {@code --debug} (a picocli mixin on every command): stack traces for errors (the launcher's error handler). */
public final class DebugOption {
    @Option(names = "--debug", description = "Print stack traces for errors.")
    boolean debug;

    /** Whether {@code --debug} was given. */
    public boolean debug() {
        return debug;
    }
}
