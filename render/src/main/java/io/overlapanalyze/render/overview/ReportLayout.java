package io.overlapanalyze.render.overview;

/**
 * How much of a job a human report shows: which ranks in detail, and how many rank rows the job
 * overview lists before "… N more ranks". JSON always carries everything.
 *
 * @param detail   the ranks shown in detail
 * @param rankRows the most rank rows in the overview ({@link Integer#MAX_VALUE}: every rank)
 */
public record ReportLayout(DetailSelection detail, int rankRows) {
    /** Enough rows to show every rank of a node pair and the worst of a big job on one screen. */
    public static final int DEFAULT_RANK_ROWS = 16;

    public ReportLayout {
        if (rankRows < 1) {
            throw new IllegalArgumentException("rank rows must be at least 1, got " + rankRows);
        }
    }

    /** The default: the worst rank and the error ranks in detail, {@link #DEFAULT_RANK_ROWS} rows. */
    public static ReportLayout byDefault() {
        return new ReportLayout(DetailSelection.byDefault(), DEFAULT_RANK_ROWS);
    }

    /** Every rank in detail and in the overview, every row of every cross-rank table: the full report. */
    public static ReportLayout full() {
        return new ReportLayout(DetailSelection.all(), Integer.MAX_VALUE);
    }

    /**
     * The layout for {@code --detail} and {@code --rank-rows} as given ({@code null}: not given).
     * {@code --detail all} lists every rank row too unless {@code --rank-rows} says otherwise.
     */
    public static ReportLayout of(String detail, String rankRows) {
        DetailSelection d = detail == null ? DetailSelection.byDefault() : DetailSelection.parse(detail);
        int rows;
        if (rankRows == null) {
            rows = d.mode() == DetailSelection.Mode.ALL ? Integer.MAX_VALUE : DEFAULT_RANK_ROWS;
        } else if ("all".equalsIgnoreCase(rankRows.strip())) {
            rows = Integer.MAX_VALUE;
        } else {
            try {
                rows = Integer.parseInt(rankRows.strip());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("expected a number of rows or 'all', got '" + rankRows + "'");
            }
        }
        return new ReportLayout(d, rows);
    }

    /** Step rows (and lines of each beyond-DDP section) of a rank detailed by the default choice: its
     * longest steps, the rest counted. */
    public static final int DEFAULT_STEP_ROWS = 6;

    /**
     * The most step rows of a detailed rank in a job's report: a few with the default choice (the
     * report's first screens), every step when the user named the ranks ({@code --detail}).
     */
    public int stepRows() {
        return detail.mode() == DetailSelection.Mode.DEFAULT ? DEFAULT_STEP_ROWS : Integer.MAX_VALUE;
    }

    /** True when the cross-rank tables are shown whole (the full report). */
    public boolean fullTables() {
        return detail.mode() == DetailSelection.Mode.ALL;
    }
}
