package io.overlapanalyze.cli;

/** The documented exit codes. */
public final class ExitCodes {
    /** Analysis done (warnings may have been printed). */
    public static final int OK = 0;
    /** Reserved for gate failures: a regression was found. */
    public static final int REGRESSION = 1;
    /** Bad usage or unreadable input. */
    public static final int BAD_INPUT = 2;
    /** A bug in the tool. */
    public static final int INTERNAL_ERROR = 3;

    private ExitCodes() {
    }
}
