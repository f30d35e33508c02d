package io.overlapanalyze.render;

import io.overlapanalyze.report.HangReport;
import io.overlapanalyze.report.HangReport.HangDivergence;
import io.overlapanalyze.report.HangReport.HangRank;
import io.overlapanalyze.report.HangReport.RankProgress;

import java.util.List;
import java.util.function.UnaryOperator;

/**
 * The {@code hang} section (Flight Recorder dumps) in text and markdown: the verdict line first,
 * then per group its first divergence with every member's progress, then the ranks missing
 * somewhere. Every string from a dump goes through the renderer's escaping.
 */
public final class HangSection {
    private HangSection() {
    }

    /**
     * The section's body as plain text, without the verdict (for a page that shows the verdict as its
     * own heading); dump strings pass the terminal escaper, the caller escapes for its output.
     */
    public static String plainBody(HangReport hang) {
        StringBuilder sb = new StringBuilder();
        body(hang, sb, TerminalText::safe, "  ", "");
        return sb.toString();
    }

    static void text(HangReport hang, StringBuilder sb) {
        sb.append('\n').append(TerminalText.safe(hang.verdict())).append('\n');
        body(hang, sb, TerminalText::safe, "  ", "");
    }

    static void markdown(HangReport hang, StringBuilder sb) {
        sb.append("\n## Hang (Flight Recorder)\n\n**").append(MarkdownRenderer.escape(hang.verdict())).append("**\n");
        body(hang, sb, MarkdownRenderer::escape, "- ", "\n");
    }

    private static void body(HangReport hang, StringBuilder sb, UnaryOperator<String> safe, String item, String gap) {
        if (!hang.divergences().isEmpty()) {
            sb.append(gap).append("divergences (first per group; most ranks held first):\n").append(gap);
        }
        for (HangDivergence d : hang.divergences()) {
            sb.append(item).append("group ").append(safe.apply(d.group()));
            if (d.description() != null) {
                sb.append(' ').append(safe.apply(d.description()));
            }
            sb.append(" (ranks ").append(ranges(d.members())).append("): ")
                    .append(d.operation() != null ? safe.apply(d.operation()) : "?")
                    .append(d.p2p() ? " p2p#" : " #").append(d.sequence());
            if (d.shape() != null) {
                sb.append(' ').append(safe.apply(d.shape()));
            }
            if (d.dtype() != null) {
                sb.append(' ').append(safe.apply(d.dtype()));
            }
            sb.append(": ").append(d.kind().toLowerCase(java.util.Locale.ROOT));
            if (!d.missing().isEmpty()) {
                sb.append(", never enqueued by ").append(ranges(d.missing()));
            }
            if (!d.mismatched().isEmpty()) {
                sb.append(", different on ").append(ranges(d.mismatched()));
            }
            if (!d.waiting().isEmpty()) {
                sb.append("; waiting: ").append(ranges(d.waiting()));
            }
            if (d.blocking() > 0) {
                sb.append("; oldest pending operation of ").append(d.blocking()).append(d.blocking() == 1 ? " rank" : " ranks");
            }
            sb.append('\n');
            for (RankProgress p : d.progress()) {
                sb.append(gap.isEmpty() ? "      " : "    - ").append("rank ").append(p.rank()).append(": ");
                if (!p.hasDump()) {
                    sb.append("no dump\n");
                    continue;
                }
                sb.append("last enqueued ").append(num(p.lastEnqueued())).append(", started ").append(num(p.lastStarted()))
                        .append(", completed ").append(num(p.lastCompleted()));
                if (p.atSequence() != null) {
                    sb.append("; here: ").append(safe.apply(p.atSequence()));
                }
                sb.append('\n');
            }
        }
        if (!hang.ranks().isEmpty()) {
            sb.append(gap).append("ranks missing somewhere:\n").append(gap);
        }
        for (HangRank r : hang.ranks()) {
            sb.append(item).append("rank ").append(r.rank()).append(": ").append(switch (r.verdict()) {
                case "NO_DUMP" -> "no dump given";
                case "MISSING_EVERYWHERE" -> "missing in every divergent group it belongs to, waiting in none "
                        + "(likely crashed or stuck before these operations)";
                default -> "missing in some groups but waiting in others (held up by another rank)";
            });
            sb.append("; missing in ").append(safe.apply(String.join(", ", r.missingIn())));
            if (!r.waitingIn().isEmpty()) {
                sb.append("; waiting in ").append(safe.apply(String.join(", ", r.waitingIn())));
            }
            if (r.lastOperation() != null) {
                sb.append("; newest buffered: ").append(safe.apply(r.lastOperation()));
            } else if (!"NO_DUMP".equals(r.verdict())) {
                sb.append("; its buffer holds no operation");
            }
            sb.append('\n');
        }
        for (String note : hang.notes()) {
            sb.append(item).append("note: ").append(safe.apply(note)).append('\n');
        }
    }

    private static String num(Long v) {
        return v == null ? "?" : Long.toString(v);
    }

    private static String ranges(List<Integer> ranks) {
        return io.overlapanalyze.crossrank.HangAnalysis.ranges(ranks);
    }
}
