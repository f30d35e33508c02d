package io.overlapanalyze.options;

import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;

/**
 * {@code --debug} (a picocli mixin on a launcher's root command): stack traces for errors (the
 * launcher's error handler). Declared once: every subcommand inherits it.
 */
public final class DebugOption {
    @Option(names = "--debug", scope = ScopeType.INHERIT, description = "Print stack traces for errors.")
    boolean debug;

    /** Whether {@code --debug} was given. */
    public boolean debug() {
        return debug;
    }
}
