package io.overlapanalyze.options;

import io.overlapanalyze.render.overview.DetailSelection;
import io.overlapanalyze.render.overview.ReportLayout;
import picocli.CommandLine.Option;

/**
 * {@code --detail} and {@code --rank-rows} (a picocli mixin on every command that renders a job's
 * report): a job opens with its overview; these say which ranks follow in detail and how many rank
 * rows the overview lists. JSON carries every rank whatever they say.
 */
public final class LayoutOptions {
    @Option(names = "--detail", paramLabel = "WHICH",
            description = "Ranks of a job shown step by step after the overview: worst, all (the full report), "
                    + "none, or a rank list such as 0,3,8-11. Default: the worst rank and any rank a "
                    + "cross-rank error names (a single rank is always shown).")
    String detail;

    @Option(names = "--rank-rows", paramLabel = "N|all",
            description = "Rank rows in a job's overview, worst first (default: "
                    + ReportLayout.DEFAULT_RANK_ROWS + "; all with --detail all).")
    String rankRows;

    /**
     * The layout asked for.
     *
     * @throws UserInputException when a value is not one the options accept
     */
    public ReportLayout layout() {
        if (detail != null) {
            try {
                DetailSelection.parse(detail);
            } catch (IllegalArgumentException e) {
                throw new UserInputException("--detail: " + e.getMessage(), e);
            }
        }
        try {
            return ReportLayout.of(detail, rankRows);
        } catch (IllegalArgumentException e) {
            throw new UserInputException("--rank-rows: " + e.getMessage(), e);
        }
    }
}
