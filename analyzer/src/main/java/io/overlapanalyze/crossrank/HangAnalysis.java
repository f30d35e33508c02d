package io.overlapanalyze.crossrank;

import io.overlapanalyze.model.FlightEntry;
import io.overlapanalyze.model.ProcessGroup;
import io.overlapanalyze.model.RankTrace;
import io.overlapanalyze.report.HangReport;
import io.overlapanalyze.report.HangReport.HangDivergence;
import io.overlapanalyze.report.HangReport.HangRank;
import io.overlapanalyze.report.HangReport.RankProgress;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Where a hung job's ranks diverge, from their Flight Recorder dumps (metrics.md §8 on the dumps'
 * sequence numbers). Per process group: the collectives by {@code collective_seq_id} — the first
 * sequence number some member never enqueued (its last enqueued is below it: MISSING), unless an
 * earlier one that every member still holds differs in type, size or dtype ({@link MismatchRules});
 * and the point-to-point operations by pair ({@code send a->b} on a against {@code recv b<-a} on b,
 * by {@code p2p_seq_id}): an operation whose partner never got that far. Across groups: which
 * divergence holds the most ranks (each waiting rank counts for the divergence of its oldest pending
 * operation), and per rank missing anywhere whether it is missing everywhere it takes part.
 *
 * <p>A rank's last enqueued number in a group is the newest its buffer holds there (a p2p entry
 * carries the group's collective count too); for a group where its buffer holds nothing, the dump's
 * {@code pg_status} (the reader ties it to the group's name).
 */
public final class HangAnalysis {
    private HangAnalysis() {
    }

    /** The hang section for these ranks, or {@code null} when none of them is a Flight Recorder dump. */
    public static HangReport analyze(List<RankTrace> traces) {
        Map<Integer, RankTrace> dumps = new TreeMap<>();
        for (RankTrace t : traces) {
            if (t != null && t.flightRecorder() != null) {
                dumps.putIfAbsent(t.rank(), t);
            }
        }
        if (dumps.isEmpty()) {
            return null;
        }
        if (dumps.size() == 1) {
            int only = dumps.keySet().iterator().next();
            return new HangReport("hang: one dump only (rank " + only + "): where ranks diverge needs the dumps of "
                    + "every rank of a group", List.of(), List.of(), List.of());
        }
        Map<String, ProcessGroup> groups = new TreeMap<>(HangAnalysis::byNumber);
        for (RankTrace t : dumps.values()) {
            for (ProcessGroup g : t.groups()) {
                ProcessGroup known = groups.get(g.name());
                if (known == null || known.ranks().isEmpty()) {
                    groups.put(g.name(), g);
                }
            }
        }
        List<String> notes = new ArrayList<>();
        List<Found> found = new ArrayList<>();
        for (ProcessGroup g : groups.values()) {
            if (g.ranks().size() < 2) {
                continue;
            }
            GroupDumps view = new GroupDumps(g, dumps);
            Found c = view.collectiveDivergence();
            if (c != null) {
                found.add(c);
            }
            Found p = view.p2pDivergence();
            if (p != null) {
                found.add(p);
            }
        }
        countBlocking(found);
        found.sort(Comparator.comparingInt((Found f) -> -f.blocking).thenComparingLong(f -> f.oldestWaitNs)
                .thenComparing(f -> f.group.name(), HangAnalysis::byNumber));
        List<HangDivergence> divergences = new ArrayList<>();
        for (Found f : found) {
            divergences.add(f.toReport());
        }
        List<HangRank> ranks = ranks(found, dumps);
        String verdict = found.isEmpty() ? "hang: no divergence: every group's ranks enqueued the same operations"
                : verdict(found.get(0));
        if (dumps.values().stream().anyMatch(t -> t.flightRecorder().entries().isEmpty())) {
            notes.add("some dumps hold no operation at all: their progress comes from pg_status alone");
        }
        return new HangReport(verdict, divergences, ranks, notes);
    }

    /** The one-line verdict: {@code hang: group 72 EXPERT_MODEL_PARALLEL_GROUP nccl:all_to_all #44791: ...}. */
    static String verdict(Found f) {
        StringBuilder b = new StringBuilder("hang: group ").append(f.group.name());
        if (f.group.description() != null) {
            b.append(' ').append(f.group.description());
        }
        b.append(' ').append(f.operation != null ? f.operation : (f.p2p ? "p2p" : "collective"))
                .append(f.p2p ? " p2p#" : " #").append(f.sequence).append(": ");
        switch (f.kind) {
            case "MISSING" -> b.append(f.missing.size() == 1 ? "rank " : "ranks ").append(ranges(f.missing))
                    .append(" never enqueued it");
            default -> b.append(f.mismatched.size() == 1 ? "rank " : "ranks ").append(ranges(f.mismatched))
                    .append(" enqueued a different ").append(f.kind.toLowerCase(java.util.Locale.ROOT)).append(" there");
        }
        if (!f.waiting.isEmpty()) {
            b.append("; ").append(f.waiting.size() == 1 ? "rank " : "ranks ").append(ranges(f.waiting))
                    .append(f.waiting.size() == 1 ? " waits" : " wait");
        }
        return b.toString();
    }

    /** {@code 0–11, 13–15}: runs of consecutive ranks joined by an en dash. */
    public static String ranges(List<Integer> ranks) {
        List<Integer> sorted = new ArrayList<>(new TreeSet<>(ranks));
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < sorted.size(); ) {
            int j = i;
            while (j + 1 < sorted.size() && sorted.get(j + 1) == sorted.get(j) + 1) {
                j++;
            }
            if (b.length() > 0) {
                b.append(", ");
            }
            b.append(sorted.get(i));
            if (j > i) {
                b.append(j == i + 1 ? ", " : "–").append(sorted.get(j));
            }
            i = j + 1;
        }
        return b.toString();
    }

    /** Each waiting rank counts for the divergence whose entry on it is its oldest (lowest record id). */
    private static void countBlocking(List<Found> found) {
        Map<Integer, Found> blockedBy = new HashMap<>();
        Map<Integer, Long> oldest = new HashMap<>();
        for (Found f : found) {
            for (Map.Entry<Integer, FlightEntry> e : f.waitingEntries.entrySet()) {
                long id = e.getValue().recordId();
                Long best = oldest.get(e.getKey());
                if (best == null || id < best) {
                    oldest.put(e.getKey(), id);
                    blockedBy.put(e.getKey(), f);
                }
            }
        }
        for (Found f : blockedBy.values()) {
            f.blocking++;
        }
    }

    private static List<HangRank> ranks(List<Found> found, Map<Integer, RankTrace> dumps) {
        Map<Integer, Set<String>> missingIn = new TreeMap<>();
        Map<Integer, Set<String>> waitingIn = new TreeMap<>();
        for (Found f : found) {
            for (int r : f.missing) {
                missingIn.computeIfAbsent(r, k -> new LinkedHashSet<>()).add(f.group.name());
            }
            for (int r : f.mismatched) {
                missingIn.computeIfAbsent(r, k -> new LinkedHashSet<>()).add(f.group.name());
            }
            for (int r : f.waiting) {
                waitingIn.computeIfAbsent(r, k -> new LinkedHashSet<>()).add(f.group.name());
            }
        }
        List<HangRank> out = new ArrayList<>();
        for (Map.Entry<Integer, Set<String>> e : missingIn.entrySet()) {
            int r = e.getKey();
            Set<String> waits = waitingIn.getOrDefault(r, Set.of());
            Set<String> divergentMemberOf = new TreeSet<>();
            for (Found f : found) {
                if (f.group.ranks().contains(r)) {
                    divergentMemberOf.add(f.group.name());
                }
            }
            String verdict;
            RankTrace t = dumps.get(r);
            if (t == null) {
                verdict = "NO_DUMP";
            } else if (waits.isEmpty() && e.getValue().containsAll(divergentMemberOf)) {
                verdict = "MISSING_EVERYWHERE";
            } else {
                verdict = "MISSING_SOMEWHERE";
            }
            out.add(new HangRank(r, new ArrayList<>(e.getValue()), new ArrayList<>(waits), verdict, lastOperation(t)));
        }
        return out;
    }

    private static String lastOperation(RankTrace t) {
        if (t == null) {
            return null;
        }
        List<FlightEntry> entries = t.flightRecorder().entries();
        if (entries.isEmpty()) {
            return null;
        }
        FlightEntry last = entries.get(0);
        for (FlightEntry e : entries) {
            if (e.recordId() > last.recordId()) {
                last = e;
            }
        }
        return "group " + last.groupName() + " " + last.name() + (last.p2p() ? " p2p#" + last.p2pSeq()
                : " #" + last.collectiveSeq()) + (last.state() != null ? " " + last.state() : "");
    }

    private static int byNumber(String a, String b) {
        boolean na = a.matches("\\d{1,9}");
        boolean nb = b.matches("\\d{1,9}");
        if (na && nb) {
            return Integer.compare(Integer.parseInt(a), Integer.parseInt(b));
        }
        return na != nb ? (na ? -1 : 1) : a.compareTo(b);
    }

    static String describe(FlightEntry e) {
        if (e == null) {
            return null;
        }
        return e.name() + " " + e.shapeText() + (e.dtype() != null ? " " + e.dtype() : "");
    }

    /** A divergence being built. */
    static final class Found {
        final ProcessGroup group;
        final boolean p2p;
        final String kind;
        final long sequence;
        final List<Integer> missing;
        final List<Integer> mismatched;
        final List<Integer> waiting;
        final Map<Integer, FlightEntry> waitingEntries;
        final List<RankProgress> progress;
        String operation;
        String shape;
        String dtype;
        long oldestWaitNs = Long.MAX_VALUE;
        int blocking;

        Found(ProcessGroup group, boolean p2p, String kind, long sequence, List<Integer> missing,
              List<Integer> mismatched, Map<Integer, FlightEntry> waitingEntries, List<Integer> waiting,
              List<RankProgress> progress) {
            this.group = group;
            this.p2p = p2p;
            this.kind = kind;
            this.sequence = sequence;
            this.missing = sorted(missing);
            this.mismatched = sorted(mismatched);
            this.waiting = sorted(waiting);
            this.waitingEntries = waitingEntries;
            this.progress = progress;
            FlightEntry first = null;
            for (FlightEntry e : waitingEntries.values()) {
                if (first == null) {
                    first = e;
                }
                if (e.createdNs() != io.overlapanalyze.model.Time.UNKNOWN && e.createdNs() < oldestWaitNs) {
                    oldestWaitNs = e.createdNs();
                }
            }
            if (first != null) {
                operation = first.name();
                shape = first.shapeText();
                dtype = first.dtype();
            }
        }

        HangDivergence toReport() {
            return new HangDivergence(group.name(), group.description(), group.ranks(), p2p, kind, sequence, operation,
                    shape, dtype, missing, mismatched, waiting, blocking, progress);
        }

        private static List<Integer> sorted(List<Integer> ranks) {
            return new ArrayList<>(new TreeSet<>(ranks));
        }
    }
}
