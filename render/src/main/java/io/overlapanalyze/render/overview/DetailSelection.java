package io.overlapanalyze.render.overview;

import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

/**
 * Which ranks a report shows in detail (per-step tables, timelines, beyond-DDP sections): the
 * {@code --detail} value. A single-rank report always shows its rank.
 *
 * @param mode  {@link Mode#DEFAULT}: the worst rank and every rank a cross-rank error names;
 *              {@link Mode#WORST}: the worst rank only; {@link Mode#ALL}, {@link Mode#NONE}; or
 *              {@link Mode#RANKS}: the ranks listed
 * @param ranks the listed ranks for {@link Mode#RANKS}, else empty
 */
public record DetailSelection(Mode mode, Set<Integer> ranks) {
    /** How the ranks to detail are chosen. */
    public enum Mode { DEFAULT, WORST, ALL, NONE, RANKS }

    public DetailSelection {
        ranks = Set.copyOf(ranks);
    }

    /** The worst rank and any rank with a cross-rank error. */
    public static DetailSelection byDefault() {
        return new DetailSelection(Mode.DEFAULT, Set.of());
    }

    /** Every rank, as a full report. */
    public static DetailSelection all() {
        return new DetailSelection(Mode.ALL, Set.of());
    }

    /**
     * Parses {@code worst}, {@code all}, {@code none} (any case) or a rank list such as
     * {@code 0,3,8-11}.
     *
     * @throws IllegalArgumentException with a message for the user when the value is none of these
     */
    public static DetailSelection parse(String value) {
        String v = value.strip().toLowerCase(Locale.ROOT);
        switch (v) {
            case "worst" -> {
                return new DetailSelection(Mode.WORST, Set.of());
            }
            case "all" -> {
                return all();
            }
            case "none" -> {
                return new DetailSelection(Mode.NONE, Set.of());
            }
            default -> {
                return new DetailSelection(Mode.RANKS, rankList(value));
            }
        }
    }

    private static Set<Integer> rankList(String value) {
        Set<Integer> ranks = new TreeSet<>();
        for (String part : value.split(",", -1)) {
            String p = part.strip();
            int dash = p.indexOf('-', 1);
            try {
                if (dash < 0) {
                    ranks.add(rank(p));
                } else {
                    int from = rank(p.substring(0, dash).strip());
                    int to = rank(p.substring(dash + 1).strip());
                    if (to < from || (long) to - from >= 1_000_000) {
                        throw new IllegalArgumentException("bad rank range '" + p + "'");
                    }
                    for (int r = from; r <= to; r++) {
                        ranks.add(r);
                    }
                }
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("expected worst, all, none or a rank list such as 0,3,8-11; got '"
                        + value + "'");
            }
        }
        return ranks;
    }

    private static int rank(String s) {
        int r = Integer.parseInt(s);
        if (r < 0) {
            throw new NumberFormatException(s);
        }
        return r;
    }

    /** The ranks to detail, in the order given by {@code worstFirst}; {@code errorRanks} as named. */
    public List<Integer> choose(List<Integer> worstFirst, Integer worst, Set<Integer> errorRanks) {
        if (worstFirst.size() == 1) {
            return worstFirst;
        }
        return switch (mode) {
            case ALL -> worstFirst.stream().sorted().toList();
            case NONE -> List.of();
            case WORST -> worst == null ? List.of() : List.of(worst);
            case RANKS -> worstFirst.stream().filter(ranks::contains).sorted().toList();
            case DEFAULT -> {
                List<Integer> chosen = new java.util.ArrayList<>();
                if (worst != null) {
                    chosen.add(worst);
                }
                worstFirst.stream().filter(r -> errorRanks.contains(r) && !r.equals(worst)).forEach(chosen::add);
                yield chosen;
            }
        };
    }
}
