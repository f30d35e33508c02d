package io.overlapanalyze.render.timeline;

import io.overlapanalyze.render.escape.TerminalEscape;
import io.overlapanalyze.analysis.IntervalSet;
import io.overlapanalyze.render.units.Units;
import io.overlapanalyze.report.AnalysisReport;
import io.overlapanalyze.report.RankReport;
import io.overlapanalyze.report.StepReport;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A few lines of characters per step for the text report:
 * <pre>
 *   compute |█████████████████████                                       |
 *   comm    |       ████████████████████████████████████████████████████|
 *   exposed |                     ▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀|
 *   markers |       F             C══════════════════════════════════════E|
 *            F,R +2.000 first bucket ready, reduce start · C +6.000 last compute end · ...
 * </pre>
 * Each column is an equal slice of the step's device window; a lane cell is full when the lane
 * is busy for at least half of it, light when busy for less. ANSI colours only when asked
 * ({@link #colourWanted()}); the characters alone carry the picture.
 */
public final class TerminalTimeline {
    /** Columns when the terminal's width is unknown. */
    public static final int DEFAULT_COLUMNS = 100;
    /**
     * Unless told ({@code --timeline}, {@code --no-timeline}), timelines are drawn when no rank has
     * more steps than this: a reader scrolls through one rank at a time, so what makes the report
     * long is the steps per rank, not how many ranks there are.
     */
    public static final int AUTO_STEPS_PER_RANK = 10;
    private static final int LABEL = 8;
    private static final String INDENT = "  ";
    private static final String RESET = "\u001b[0m";
    private static final String BLUE = "\u001b[34m";
    private static final String GREEN = "\u001b[32m";
    private static final String RED = "\u001b[31m";
    private static final String YELLOW = "\u001b[33m";
    private static final String BOLD = "\u001b[1m";

    private final TimelineIndex index;
    private final int columns;
    private final boolean colour;

    public TerminalTimeline(TimelineIndex index, int columns, boolean colour) {
        this.index = index;
        this.columns = columns;
        this.colour = colour;
    }

    /**
     * Whether the text report draws timelines when not told: no rank has more than
     * {@link #AUTO_STEPS_PER_RANK} steps, however many ranks the job has.
     */
    public static boolean drawnByDefault(AnalysisReport report) {
        return drawnByDefault(report, r -> r.steps().size());
    }

    /**
     * As {@link #drawnByDefault(AnalysisReport)}, each rank's number of steps from {@code steps} (of a
     * rank record that may stand in for a full report kept elsewhere).
     */
    public static boolean drawnByDefault(AnalysisReport report, java.util.function.ToIntFunction<RankReport> steps) {
        return report.ranks().stream().allMatch(r -> steps.applyAsInt(r) <= AUTO_STEPS_PER_RANK);
    }

    /**
     * Terminal width from {@code COLUMNS} (shells export it to children only sometimes), else
     * {@link #DEFAULT_COLUMNS}; clamped to [40, 400].
     */
    public static int columnsFrom(Map<String, String> env) {
        String v = env.get("COLUMNS");
        int cols = DEFAULT_COLUMNS;
        if (v != null) {
            try {
                cols = Integer.parseInt(v.trim());
            } catch (NumberFormatException ignored) {
                // Not a number: keep the default.
            }
        }
        return Math.max(40, Math.min(400, cols));
    }

    /**
     * Colours only on a terminal, never with {@code NO_COLOR} set (no-color.org: any value, even
     * empty) and never on {@code TERM=dumb} (a terminal that says it understands no escapes).
     */
    public static boolean colourWanted(boolean stdoutIsTerminal, Map<String, String> env) {
        return stdoutIsTerminal && !env.containsKey("NO_COLOR") && !"dumb".equals(env.get("TERM"));
    }

    /** The lines for one step (ending in a newline), or "" when the step has no device work. */
    public String render(RankReport rank, StepReport step) {
        StepTimeline t = index.of(rank, step);
        if (t == null) {
            return "";
        }
        int width = columns - INDENT.length() - LABEL - 2;
        StringBuilder sb = new StringBuilder();
        sb.append(INDENT).append(TerminalEscape.text(step.name())).append(" timeline: 0 to ").append(Units.ms(t.spanNs()))
                .append(" ms, one column = ").append(Units.ms(t.spanNs() / width)).append(" ms\n");
        lane(sb, "compute", t.compute(), t, width, '█', BLUE);
        lane(sb, "comm", t.comm(), t, width, '█', GREEN);
        if (!t.fused().isEmpty()) {
            lane(sb, "fused", t.fused(), t, width, '█', "");
        }
        if (!t.memory().isEmpty()) {
            lane(sb, "memcpy", t.memory(), t, width, '█', "");
        }
        if (!t.exposed().isEmpty()) {
            lane(sb, "exposed", t.exposed(), t, width, '▀', RED);
        }
        List<MarkerPoints.Point> points = MarkerPoints.of(step.markers());
        if (!points.isEmpty()) {
            markers(sb, t, points, width);
        }
        return sb.toString();
    }

    private void lane(StringBuilder sb, String label, IntervalSet set, StepTimeline t, int width, char full,
                      String ansi) {
        double[] cover = PixelRuns.coverage(set, t.startNs(), t.spanNs(), width);
        StringBuilder cells = new StringBuilder(width);
        for (double c : cover) {
            cells.append(c >= 0.5 ? full : c > 0 ? '░' : ' ');
        }
        row(sb, label, paint(cells.toString(), ansi));
    }

    /** The marker row: letters at the marker columns, the tail drawn as '═' between C and E. */
    private void markers(StringBuilder sb, StepTimeline t, List<MarkerPoints.Point> points, int width) {
        char[] row = new char[width];
        java.util.Arrays.fill(row, ' ');
        StepReport s = t.step();
        Long c = s.markers().lastComputeEndNs();
        Long e = s.markers().lastReduceEndNs();
        int tailFrom = -1;
        int tailTo = -1;
        if (s.tailNs() != null && s.tailNs() > 0 && c != null && e != null) {
            tailFrom = column(c, t, width);
            tailTo = column(e, t, width);
            for (int i = tailFrom; i <= tailTo; i++) {
                row[i] = '═';
            }
        }
        // Markers in the same column share it; the legend names each with its exact time.
        List<List<MarkerPoints.Point>> groups = new ArrayList<>();
        List<Integer> groupColumns = new ArrayList<>();
        for (MarkerPoints.Point p : points) {
            int col = column(p.ns(), t, width);
            int g = groupColumns.indexOf(col);
            if (g < 0) {
                groupColumns.add(col);
                groups.add(new ArrayList<>(List.of(p)));
                row[col] = p.letter();
            } else {
                groups.get(g).add(p);
            }
        }
        StringBuilder painted = new StringBuilder();
        for (int i = 0; i < width; i++) {
            char ch = row[i];
            if (ch == '═') {
                painted.append(paint("═", YELLOW));
            } else if (ch != ' ') {
                painted.append(paint(String.valueOf(ch), BOLD));
            } else {
                painted.append(ch);
            }
        }
        row(sb, "markers", painted.toString());
        List<String> legend = legend(groups, t.startNs());
        if (tailFrom >= 0) {
            legend.add("═ tail " + Units.ms(s.tailNs()) + " ms (" + s.attribution().kind() + ")");
        }
        wrap(sb, legend);
    }

    /**
     * The legend of the marker row, one entry per printed time: markers of one column whose times
     * print alike share an entry ("F,R +2.000 first bucket ready, reduce start"); a marker of the
     * same column with another time gets its own entry with its own time, and says whose letter
     * stands for it ("E +185.684 last reduce end (in C's column)"). {@code groups}: markers by
     * column, the first of each group the one drawn.
     */
    static List<String> legend(List<List<MarkerPoints.Point>> groups, long startNs) {
        List<String> legend = new ArrayList<>();
        for (List<MarkerPoints.Point> g : groups) {
            char drawn = g.get(0).letter();
            java.util.Map<String, List<MarkerPoints.Point>> byTime = new java.util.LinkedHashMap<>();
            for (MarkerPoints.Point p : g) {
                byTime.computeIfAbsent(Units.rel(p.ns(), startNs), k -> new ArrayList<>()).add(p);
            }
            for (java.util.Map.Entry<String, List<MarkerPoints.Point>> e : byTime.entrySet()) {
                StringBuilder letters = new StringBuilder();
                StringBuilder labels = new StringBuilder();
                for (MarkerPoints.Point p : e.getValue()) {
                    letters.append(letters.length() > 0 ? "," : "").append(p.letter());
                    labels.append(labels.length() > 0 ? ", " : "").append(p.label());
                }
                boolean hidden = e.getValue().get(0).letter() != drawn;
                legend.add(letters + " " + e.getKey() + " " + labels + (hidden ? " (in " + drawn + "'s column)" : ""));
            }
        }
        return legend;
    }

    /** Legend entries joined by " · ", wrapped to the terminal width under the bars. */
    private void wrap(StringBuilder sb, List<String> items) {
        String pad = INDENT + " ".repeat(LABEL + 1);
        StringBuilder line = new StringBuilder(pad);
        for (String item : items) {
            if (line.length() > pad.length() && line.length() + 3 + item.length() > columns) {
                sb.append(line).append('\n');
                line = new StringBuilder(pad);
            }
            line.append(line.length() > pad.length() ? " · " : "").append(item);
        }
        sb.append(line).append('\n');
    }

    private static int column(long ns, StepTimeline t, int width) {
        long rel = Math.max(0, Math.min(t.spanNs(), ns - t.startNs()));
        return (int) Math.min(width - 1, rel * width / t.spanNs());
    }

    private void row(StringBuilder sb, String label, String cells) {
        sb.append(INDENT).append(String.format("%-" + LABEL + "s", label)).append('|').append(cells).append("|\n");
    }

    private String paint(String text, String ansi) {
        return colour && !ansi.isEmpty() && !text.isBlank() ? ansi + text + RESET : text;
    }
}
