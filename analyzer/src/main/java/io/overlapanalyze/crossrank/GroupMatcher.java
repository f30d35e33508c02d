package io.overlapanalyze.crossrank;

import io.overlapanalyze.model.Collective;
import io.overlapanalyze.model.CollectiveType;
import io.overlapanalyze.report.GroupSummary;
import io.overlapanalyze.report.RankRanges;
import io.overlapanalyze.report.Mismatch;
import io.overlapanalyze.report.Mismatch.MismatchKind;
import io.overlapanalyze.report.Mismatch.Severity;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Matches one process group's collectives across its member ranks (metrics.md §8) and reports
 * the first divergence, plus the first missing collective (the likely hang) when that is not it.
 *
 * <ul>
 *   <li>By sequence number when every member's collectives in the group carry one; positions
 *       before the latest common first Seq are dropped (captures start at different times).</li>
 *   <li>Otherwise by issue order ({@link IssueOrder}).</li>
 *   <li>Timing (clock, skew, bandwidth) uses positions every member issued, up to the first
 *       divergence of any kind (metrics.md §8: after it the sequence may be shifted on some rank),
 *       or the first step in which the members issued different numbers of the group's collectives,
 *       whichever comes first ({@link GroupSummary#leftOutFrom()}). In the inferred implicit group
 *       an order difference with no other divergence is often two groups interleaved differently,
 *       so timing re-pairs the whole group by type and order within the type ({@code TYPE_ORDER}):
 *       the k-th all_to_all of every rank, the k-th all_reduce...</li>
 * </ul>
 */
final class GroupMatcher {
    private GroupMatcher() {
    }

    record GroupMatch(GroupSummary summary, List<Mismatch> mismatches, List<Slot> timing, int groupSize) {
    }

    static GroupMatch match(GroupKey key, List<Integer> members, Map<Integer, List<Collective>> lists,
                            Map<Integer, RankView> views, int groupSize, List<String> notes) {
        boolean bySeq = members.stream().allMatch(r -> !lists.get(r).isEmpty())
                && members.stream().allMatch(r -> lists.get(r).stream().allMatch(c -> c.sequence() >= 0));
        List<Slot> slots = bySeq ? bySequence(key, members, lists, notes) : byOrder(key, members, lists);

        List<Mismatch> mismatches = new ArrayList<>();
        int firstAt = -1;
        MismatchRules.Disagreement firstDisagreement = null;
        int missingAt = -1;
        MismatchRules.Disagreement missingDisagreement = null;
        int following = 0;
        int missingFollowing = 0;
        boolean typeDiverged = false;
        boolean otherDiverged = false;
        for (int i = 0; i < slots.size(); i++) {
            MismatchRules.Disagreement v = MismatchRules.check(slots.get(i), members, groupSize);
            if (v == null) {
                continue;
            }
            typeDiverged |= v.kind() == MismatchKind.TYPE;
            otherDiverged |= v.kind() != MismatchKind.TYPE;
            if (firstDisagreement == null) {
                firstDisagreement = v;
                firstAt = i;
            } else {
                following++;
            }
            if (v.kind() == MismatchKind.MISSING) {
                if (missingDisagreement == null) {
                    missingDisagreement = v;
                    missingAt = i;
                } else {
                    missingFollowing++;
                }
            }
        }
        Map<Integer, Integer> counts = new TreeMap<>();
        for (int r : members) {
            counts.put(r, lists.get(r).size());
        }
        if (firstDisagreement != null) {
            mismatches.add(build(key, slots.get(firstAt), firstDisagreement, members, views, counts, following, bySeq));
        }
        if (missingDisagreement != null && missingAt != firstAt) {
            mismatches.add(build(key, slots.get(missingAt), missingDisagreement, members, views, counts,
                    missingFollowing, bySeq));
        }

        // Where pairing stops (metrics.md §8): at the first divergence of any kind, and at the first
        // step in which the members issued different numbers of the group's collectives (a skipped
        // collective shifts everything after it by one on that rank; by order, the positions up to
        // the end of that step may still look alike). Only the inferred group whose only divergence
        // is the type is re-paired by type (two groups interleaved differently, not a shift).
        boolean typeOnly = typeDiverged && !otherDiverged;
        StepShift shift = stepShift(members, lists, views);
        List<Slot> timing;
        String matchedBy = bySeq ? "SEQUENCE" : "ORDER";
        Long leftOutFrom = null;
        boolean shiftFirst = false;
        if (key.inferred() && typeOnly) {
            timing = new ArrayList<>();
            for (Slot s : byTypeOrder(key, members, lists)) {
                if (shift == null || shift.before(s)) {
                    timing.add(s);
                } else if (leftOutFrom == null || s.index() < leftOutFrom) {
                    leftOutFrom = s.index();
                }
            }
            matchedBy = "TYPE_ORDER";
            notes.add("group " + key.display() + ": issue order differs between ranks without group metadata; "
                    + "timing pairs its collectives by type and order within the type");
        } else {
            timing = new ArrayList<>();
            int stop = firstDisagreement != null ? firstAt : slots.size();
            int shiftAt = slots.size();
            for (int i = 0; shift != null && i < slots.size(); i++) {
                if (!shift.before(slots.get(i))) {
                    shiftAt = i;
                    break;
                }
            }
            shiftFirst = shiftAt <= stop;
            stop = Math.min(stop, shiftAt);
            for (int i = 0; i < stop; i++) {
                if (slots.get(i).complete(members)) {
                    timing.add(slots.get(i));
                }
            }
            if (stop < slots.size()) {
                leftOutFrom = slots.get(stop).index();
            }
        }
        if (leftOutFrom != null) {
            String why = shift != null && (key.inferred() && typeOnly || shiftFirst)
                    ? "rank" + (shift.fewer().size() == 1 ? " " : "s ") + join(shift.fewer()) + " issued fewer of the "
                    + "group's collectives than the others in " + shift.step()
                    : "the " + firstDisagreement.kind() + " mismatch there";
            notes.add("group " + key.display() + ": pairing stops at " + (bySeq ? "Seq " : "index ") + leftOutFrom
                    + " (" + why + "): from there on the sequence may be shifted on some rank, so no waits, "
                    + "stragglers or clock offsets come from this group's later collectives");
        }
        if (shift != null) {
            // A rank that stops short is usually one that skipped a collective earlier: say where its
            // count first fell behind, not only where its list ends.
            for (int i = 0; i < mismatches.size(); i++) {
                Mismatch m = mismatches.get(i);
                if (m.kind() == MismatchKind.MISSING && !shift.step().equals(m.step())) {
                    mismatches.set(i, new Mismatch(m.group(), m.index(), m.kind(), m.severity(), m.step(), m.ranks(),
                            m.culprits(), m.following(), m.message() + "; the counts first differ in " + shift.step()
                            + " (rank" + (shift.fewer().size() == 1 ? " " : "s ") + join(shift.fewer())
                            + " issued fewer of the group's collectives there)"));
                }
            }
        }
        GroupSummary summary = new GroupSummary(key.display(), key.inferred(), members, matchedBy, counts,
                timing.size(), leftOutFrom);
        return new GroupMatch(summary, mismatches, timing, groupSize);
    }

    /**
     * The first step in which the members issued different numbers of the group's collectives.
     *
     * @param position the lowest position (0-based, in issue order) at which any rank starts that step
     * @param fewer    the ranks that issued fewer than the most in it
     * @param starts    per rank, the position of its first collective in that step (absent: none there)
     * @param positions per rank, each collective's position (by id) in the rank's issue order
     */
    record StepShift(String step, int position, List<Integer> fewer, Map<Integer, Integer> starts,
                     Map<Integer, Map<Integer, Integer>> positions) {
        /** True when every collective of the slot comes before the shifted step on its own rank. */
        boolean before(Slot slot) {
            for (Map.Entry<Integer, Collective> e : slot.byRank().entrySet()) {
                Integer start = starts.get(e.getKey());
                if (start != null && positions.get(e.getKey()).get(e.getValue().id()) >= start) {
                    return false;
                }
            }
            return true;
        }
    }

    /** The first step whose per-rank counts differ, or {@code null}; collectives outside steps are not compared. */
    static StepShift stepShift(List<Integer> members, Map<Integer, List<Collective>> lists,
                               Map<Integer, RankView> views) {
        Map<Integer, Map<String, Integer>> counts = new HashMap<>();
        Map<Integer, Map<String, Integer>> firstAt = new HashMap<>();
        Map<Integer, Map<Integer, Integer>> positions = new HashMap<>();
        for (int r : members) {
            Map<Integer, Integer> p = new HashMap<>();
            positions.put(r, p);
            Map<String, Integer> c = new HashMap<>();
            Map<String, Integer> f = new HashMap<>();
            List<Collective> list = lists.get(r);
            RankView v = views.get(r);
            for (int i = 0; i < list.size(); i++) {
                String step = v.step(list.get(i));
                p.put(list.get(i).id(), i);
                if (step != null) {
                    c.merge(step, 1, Integer::sum);
                    f.putIfAbsent(step, i);
                }
            }
            counts.put(r, c);
            firstAt.put(r, f);
        }
        Map<String, int[]> agg = new HashMap<>(); // max, min over ranks that have it, first position, ranks
        for (int r : members) {
            for (Map.Entry<String, Integer> e : counts.get(r).entrySet()) {
                int[] a = agg.computeIfAbsent(e.getKey(), k -> new int[] {0, Integer.MAX_VALUE, Integer.MAX_VALUE, 0});
                a[0] = Math.max(a[0], e.getValue());
                a[1] = Math.min(a[1], e.getValue());
                a[2] = Math.min(a[2], firstAt.get(r).get(e.getKey()));
                a[3]++;
            }
        }
        String step = null;
        int position = Integer.MAX_VALUE;
        for (Map.Entry<String, int[]> e : agg.entrySet()) {
            int[] a = e.getValue();
            boolean differs = a[0] != a[1] || a[3] < members.size();
            if (differs && (a[2] < position || a[2] == position && e.getKey().compareTo(step) < 0)) {
                step = e.getKey();
                position = a[2];
            }
        }
        if (step == null) {
            return null;
        }
        int max = agg.get(step)[0];
        List<Integer> fewer = new ArrayList<>();
        Map<Integer, Integer> starts = new HashMap<>();
        for (int m : members) {
            if (counts.get(m).getOrDefault(step, 0) < max) {
                fewer.add(m);
            }
            Integer at = firstAt.get(m).get(step);
            if (at != null) {
                starts.put(m, at);
            }
        }
        return new StepShift(step, position, fewer, starts, positions);
    }

    private static String join(List<Integer> ranks) {
        return String.join(", ", ranks.stream().map(String::valueOf).toList());
    }

    private static List<Slot> byOrder(GroupKey key, List<Integer> members, Map<Integer, List<Collective>> lists) {
        int max = members.stream().mapToInt(r -> lists.get(r).size()).max().orElse(0);
        List<Slot> slots = new ArrayList<>(max);
        for (int i = 0; i < max; i++) {
            Map<Integer, Collective> at = new HashMap<>();
            for (int r : members) {
                if (i < lists.get(r).size()) {
                    at.put(r, lists.get(r).get(i));
                }
            }
            slots.add(new Slot(key, i, at));
        }
        return slots;
    }

    private static List<Slot> bySequence(GroupKey key, List<Integer> members, Map<Integer, List<Collective>> lists,
                                         List<String> notes) {
        long commonFirst = Long.MIN_VALUE;
        long last = Long.MIN_VALUE;
        for (int r : members) {
            long min = lists.get(r).stream().mapToLong(Collective::sequence).min().orElse(0);
            commonFirst = Math.max(commonFirst, min);
            last = Math.max(last, lists.get(r).stream().mapToLong(Collective::sequence).max().orElse(0));
        }
        Map<Long, Map<Integer, Collective>> bySeq = new TreeMap<>();
        int dropped = 0;
        for (int r : members) {
            for (Collective c : lists.get(r)) {
                if (c.sequence() < commonFirst) {
                    dropped++;
                    continue;
                }
                bySeq.computeIfAbsent(c.sequence(), s -> new HashMap<>()).putIfAbsent(r, c);
            }
        }
        if (dropped > 0) {
            notes.add("group " + key.display() + ": " + dropped + " collectives before Seq " + commonFirst
                    + " (the latest first Seq over the ranks) are not matched: not every capture has them");
        }
        List<Slot> slots = new ArrayList<>();
        for (long s = commonFirst; s <= last; s++) {
            Map<Integer, Collective> at = bySeq.get(s);
            if (at != null) {
                slots.add(new Slot(key, s, at));
            } else {
                slots.add(new Slot(key, s, Map.of())); // no rank has it: every member is missing it
            }
        }
        return slots;
    }

    /** The k-th collective of each type on every rank, in the lowest rank's issue order. */
    private static List<Slot> byTypeOrder(GroupKey key, List<Integer> members, Map<Integer, List<Collective>> lists) {
        Map<String, Map<Integer, Collective>> byTypeK = new LinkedHashMap<>();
        Map<String, Long> position = new HashMap<>();
        for (int r : members) {
            Map<CollectiveType, Integer> seen = new HashMap<>();
            List<Collective> list = lists.get(r);
            for (int i = 0; i < list.size(); i++) {
                Collective c = list.get(i);
                int k = seen.merge(c.type(), 1, Integer::sum) - 1;
                String id = c.type() + "#" + k;
                byTypeK.computeIfAbsent(id, x -> new HashMap<>()).put(r, c);
                position.putIfAbsent(id, (long) i);
            }
        }
        List<Slot> out = new ArrayList<>();
        for (Map.Entry<String, Map<Integer, Collective>> e : byTypeK.entrySet()) {
            Slot s = new Slot(key, position.get(e.getKey()), e.getValue());
            if (s.complete(members)) {
                out.add(s);
            }
        }
        out.sort(Comparator.comparingLong(Slot::index));
        return out;
    }

    private static Mismatch build(GroupKey key, Slot slot, MismatchRules.Disagreement v, List<Integer> members,
                                  Map<Integer, RankView> views, Map<Integer, Integer> counts, int following,
                                  boolean bySeq) {
        List<Mismatch.RankValues> values = new ArrayList<>();
        String step = null;
        for (int r : members) {
            Collective c = slot.byRank().get(r);
            RankView view = views.get(r);
            if (c == null) {
                values.add(new Mismatch.RankValues(r, false, null, null, null, null, null, null, counts.get(r)));
                continue;
            }
            if (step == null) {
                step = view.step(c);
            }
            values.add(new Mismatch.RankValues(r, true, c.type().name(),
                    c.inElements() < 0 ? null : c.inElements(), c.outElements() < 0 ? null : c.outElements(),
                    c.dtype(), c.threadId() < 0 ? null : c.threadId(), view.threadLabel(c.threadId()),
                    counts.get(r)));
        }
        Severity severity = key.inferred() ? Severity.WARNING : Severity.ERROR;
        String message = message(key, slot, v, values, step, following, bySeq);
        return new Mismatch(key.display(), slot.index(), v.kind(), severity, step, values, v.culprits(), following,
                message);
    }

    /** Up to this many ranks, a mismatch message lists each rank's values on its own. */
    private static final int RANKS_LISTED_ONE_BY_ONE = 8;

    /** "2nd thread" of "2nd thread (thread 4290 (pt_autograd_0))": the part comparable across ranks. */
    private static String threadRole(String thread) {
        int paren = thread.indexOf(" (");
        return paren < 0 ? thread : thread.substring(0, paren);
    }

    private static String message(GroupKey key, Slot slot, MismatchRules.Disagreement v, List<Mismatch.RankValues> values,
                                  String step, int following, boolean bySeq) {
        StringBuilder sb = new StringBuilder();
        String where = "group " + key.display() + (bySeq ? " Seq " : " index ") + slot.index()
                + (step == null ? "" : " (" + step + ")");
        if (v.kind() == MismatchKind.MISSING) {
            int max = values.stream().mapToInt(Mismatch.RankValues::issued).max().orElse(0);
            List<String> parts = new ArrayList<>();
            for (int r : v.culprits()) {
                int issued = values.stream().filter(x -> x.rank() == r).findFirst().map(Mismatch.RankValues::issued)
                        .orElse(0);
                parts.add(bySeq ? "rank " + r + " never issued Seq " + slot.index()
                        : "rank " + r + " stops after " + issued + " of " + max);
            }
            sb.append(String.join(", ", parts)).append(" on group ").append(key.display())
                    .append(": likely hang (the other ranks would wait in this collective forever)");
            if (step != null) {
                sb.append("; the others issued it in ").append(step);
            }
        } else {
            sb.append(v.kind()).append(" mismatch at ").append(where).append(": ");
            // A few ranks each get their own words (thread names help there); a big group's ranks are
            // grouped by what they issued, so the line stays short at a thousand ranks.
            boolean grouped = values.size() > RANKS_LISTED_ONE_BY_ONE;
            Map<String, List<Integer>> byIssue = new LinkedHashMap<>();
            for (Mismatch.RankValues x : values) {
                StringBuilder p = new StringBuilder(x.type());
                if (v.kind() == MismatchKind.SIZE) {
                    p.append(" in ").append(x.inElements() == null ? "?" : x.inElements()).append(" out ")
                            .append(x.outElements() == null ? "?" : x.outElements());
                }
                if (v.kind() == MismatchKind.DTYPE) {
                    p.append(" ").append(x.dtype() == null ? "?" : x.dtype());
                }
                if (x.thread() != null) {
                    String thread = grouped ? threadRole(x.thread()) : x.thread();
                    p.append(" from ").append(thread);
                }
                byIssue.computeIfAbsent(grouped ? p.toString() : x.rank() + " " + p, k -> new ArrayList<>())
                        .add(x.rank());
            }
            List<String> parts = new ArrayList<>();
            for (Map.Entry<String, List<Integer>> e : byIssue.entrySet()) {
                parts.add(grouped ? (e.getValue().size() == 1 ? "rank " : "ranks ") + RankRanges.text(e.getValue())
                        + " " + e.getKey() : "rank " + e.getKey());
            }
            sb.append(String.join("; ", parts));
            if (key.inferred()) {
                boolean threadsDiffer = values.stream().map(x -> x.thread() == null ? "" : x.thread()
                        .replaceAll(" \\(.*", "")).distinct().count() > 1;
                sb.append(". Inferred (no process-group metadata): ");
                sb.append(threadsDiffer ? "the ranks issued it from different host threads, which usually "
                        + "means different process groups, not a desync"
                        : "collectives of different groups may interleave differently");
            } else {
                sb.append(". The job would hang or compute garbage here");
            }
        }
        if (following > 0) {
            sb.append("; ").append(following).append(following == 1 ? " later position also differs"
                    : " later positions also differ");
        }
        return sb.toString();
    }
}
