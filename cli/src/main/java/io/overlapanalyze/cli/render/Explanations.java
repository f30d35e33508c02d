package io.overlapanalyze.cli.render;

import io.overlapanalyze.report.TailKind;

/** One-sentence meanings shared by the human renderers (metrics.md §6). */
public final class Explanations {
    private Explanations() {
    }

    public static String tail(TailKind kind) {
        return switch (kind) {
            case COMM_BOUND -> "communication issued after the first bucket was ready exceeds the compute left to "
                    + "hide it; overlap cannot remove this tail, only fewer bytes or more bandwidth";
            case LAST_BUCKET -> "the tail is the last bucket's own transfer; a smaller last bucket (or overlapping "
                    + "it with the optimizer) shortens it";
            case LAUNCH_BOUND -> "the host issued a collective after its data was ready (late launch)";
            case UNEXPLAINED -> "a collective started later than anything traced explains (waiting for peers, "
                    + "or an untraced dependency)";
            case NONE -> "no tail: the last reduction ended before the last backward compute";
        };
    }
}
