package io.overlapanalyze.crossrank;

import io.overlapanalyze.model.Collective;
import io.overlapanalyze.model.CollectiveType;
import io.overlapanalyze.model.FlightEntry;
import io.overlapanalyze.model.FlightGroupStatus;
import io.overlapanalyze.model.FlightRecorderDump;
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
            GroupView view = new GroupView(g, dumps);
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

    private static String describe(FlightEntry e) {
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

    /** One group across the dumps of its members. */
    private static final class GroupView {
        private final ProcessGroup group;
        private final Map<Integer, List<FlightEntry>> entries = new TreeMap<>();
        private final Map<Integer, FlightGroupStatus> status = new TreeMap<>();
        private final Set<Integer> withDump = new TreeSet<>();
        private Set<P2pKey> p2pIndex;

        GroupView(ProcessGroup group, Map<Integer, RankTrace> dumps) {
            this.group = group;
            for (int r : group.ranks()) {
                RankTrace t = dumps.get(r);
                if (t == null) {
                    continue;
                }
                withDump.add(r);
                FlightRecorderDump d = t.flightRecorder();
                List<FlightEntry> mine = new ArrayList<>();
                for (FlightEntry e : d.entries()) {
                    if (group.name().equals(e.groupName())) {
                        mine.add(e);
                    }
                }
                entries.put(r, mine);
                for (FlightGroupStatus s : d.status()) {
                    if (group.name().equals(s.groupName())) {
                        status.put(r, s);
                    }
                }
            }
        }

        /** The rank's last enqueued collective number here, or {@code null} when nothing says. */
        private Long lastCollective(int r) {
            List<FlightEntry> mine = entries.get(r);
            if (mine == null) {
                return null;
            }
            long max = -1;
            for (FlightEntry e : mine) {
                max = Math.max(max, e.collectiveSeq());
            }
            if (max >= 0) {
                return max;
            }
            FlightGroupStatus s = status.get(r);
            return s == null || s.lastEnqueued() < 0 ? null : s.lastEnqueued();
        }

        /** The rank's last enqueued p2p number here, or {@code null}. */
        private Long lastP2p(int r) {
            List<FlightEntry> mine = entries.get(r);
            if (mine == null) {
                return null;
            }
            long max = -1;
            for (FlightEntry e : mine) {
                if (e.p2p()) {
                    max = Math.max(max, e.p2pSeq());
                }
            }
            if (max >= 0) {
                return max;
            }
            if (!mine.isEmpty()) {
                return null; // only collectives buffered: its p2p count is not in the dump
            }
            FlightGroupStatus s = status.get(r);
            return s == null || s.lastEnqueued() < 0 ? null : s.lastEnqueued();
        }

        Found collectiveDivergence() {
            Map<Integer, Long> last = new TreeMap<>();
            for (int r : withDump) {
                Long l = lastCollective(r);
                if (l != null) {
                    last.put(r, l);
                }
            }
            boolean anyCollective = entries.values().stream().flatMap(List::stream).anyMatch(e -> !e.p2p());
            if (!anyCollective || last.isEmpty()) {
                return null;
            }
            long max = last.values().stream().mapToLong(Long::longValue).max().getAsLong();
            long missingAt = Long.MAX_VALUE;
            for (long l : last.values()) {
                if (l < max) {
                    missingAt = Math.min(missingAt, l + 1);
                }
            }
            // Shape mismatches at numbers every member still holds, before the first missing one.
            TreeMap<Long, Map<Integer, FlightEntry>> bySeq = new TreeMap<>();
            for (Map.Entry<Integer, List<FlightEntry>> e : entries.entrySet()) {
                for (FlightEntry f : e.getValue()) {
                    if (!f.p2p() && f.collectiveSeq() < missingAt) {
                        bySeq.computeIfAbsent(f.collectiveSeq(), k -> new TreeMap<>()).put(e.getKey(), f);
                    }
                }
            }
            for (Map.Entry<Long, Map<Integer, FlightEntry>> s : bySeq.entrySet()) {
                if (!s.getValue().keySet().containsAll(group.ranks())) {
                    continue;
                }
                Map<Integer, Collective> asCollectives = new TreeMap<>();
                for (Map.Entry<Integer, FlightEntry> e : s.getValue().entrySet()) {
                    FlightEntry f = e.getValue();
                    asCollectives.put(e.getKey(), new Collective(0, f.type(), f.name(), group, f.collectiveSeq(),
                            f.inElements(), f.outElements(), f.dtype(), -1, f.createdNs(), -1, new int[0]));
                }
                MismatchRules.Verdict v = MismatchRules.check(new Slot(null, s.getKey(), asCollectives), group.ranks(),
                        group.ranks().size());
                if (v != null) {
                    Map<Integer, FlightEntry> waiting = new TreeMap<>(s.getValue());
                    v.culprits().forEach(waiting::remove);
                    return new Found(group, false, v.kind().name(), s.getKey(), List.of(), v.culprits(), waiting,
                            new ArrayList<>(waiting.keySet()), progress(s.getKey(), false, s.getValue()));
                }
            }
            if (missingAt == Long.MAX_VALUE && withDump.containsAll(group.ranks())) {
                return null;
            }
            boolean onlyUndumped = missingAt == Long.MAX_VALUE;
            if (onlyUndumped) {
                // Only ranks without a dump can be behind; where, nobody can say: the ranks with a dump
                // wait in their oldest buffered collective (or whatever comes after the last one).
                missingAt = bySeq.isEmpty() ? max + 1 : bySeq.firstKey();
            }
            List<Integer> missing = new ArrayList<>();
            Map<Integer, FlightEntry> waitingEntries = new TreeMap<>();
            List<Integer> waiting = new ArrayList<>();
            Map<Integer, FlightEntry> at = new TreeMap<>();
            for (int r : group.ranks()) {
                Long l = last.get(r);
                if (!withDump.contains(r) || !onlyUndumped && l != null && l < missingAt) {
                    missing.add(r);
                } else if (l != null) {
                    waiting.add(r);
                    for (FlightEntry f : entries.get(r)) {
                        if (!f.p2p() && f.collectiveSeq() == missingAt) {
                            waitingEntries.put(r, f);
                            at.put(r, f);
                        }
                    }
                }
            }
            return new Found(group, false, "MISSING", missingAt, missing, List.of(), waitingEntries, waiting,
                    progress(missingAt, false, at));
        }

        Found p2pDivergence() {
            long first = Long.MAX_VALUE;
            Set<Integer> missing = new TreeSet<>();
            Map<Integer, FlightEntry> waitingEntries = new TreeMap<>();
            Map<Integer, FlightEntry> firstAt = new TreeMap<>();
            List<Integer> members = group.ranks();
            for (Map.Entry<Integer, List<FlightEntry>> e : entries.entrySet()) {
                int self = e.getKey();
                for (FlightEntry f : e.getValue()) {
                    if (!f.p2p() || f.peerFrom() < 0 || f.peerTo() < 0 || f.peerFrom() >= members.size()
                            || f.peerTo() >= members.size()) {
                        continue;
                    }
                    boolean send = f.type() == CollectiveType.SEND;
                    int peer = members.get(send ? f.peerTo() : f.peerFrom());
                    if (peer == self) {
                        continue;
                    }
                    if (!withDump.contains(peer)) {
                        missing.add(peer);
                    } else {
                        if (hasPartner(peer, f, send)) {
                            continue;
                        }
                        Long peerLast = lastP2p(peer);
                        if (peerLast == null || peerLast >= f.p2pSeq()) {
                            continue; // the peer got that far: matched, or its entry has left its buffer
                        }
                        missing.add(peer);
                    }
                    FlightEntry known = waitingEntries.get(self);
                    if (known == null || f.recordId() < known.recordId()) {
                        waitingEntries.put(self, f);
                    }
                    if (f.p2pSeq() < first) {
                        first = f.p2pSeq();
                        firstAt.clear();
                    }
                    if (f.p2pSeq() == first) {
                        firstAt.put(self, f);
                    }
                }
            }
            if (missing.isEmpty()) {
                return null;
            }
            List<Integer> waiting = new ArrayList<>(waitingEntries.keySet());
            waiting.removeAll(missing);
            Found found = new Found(group, true, "MISSING", first, new ArrayList<>(missing), List.of(), waitingEntries,
                    waiting, progress(first, true, firstAt));
            FlightEntry op = firstAt.values().iterator().next();
            found.operation = op.name();
            found.shape = op.shapeText();
            found.dtype = op.dtype();
            return found;
        }

        private boolean hasPartner(int peer, FlightEntry f, boolean send) {
            if (p2pIndex == null) {
                p2pIndex = new java.util.HashSet<>();
                for (Map.Entry<Integer, List<FlightEntry>> e : entries.entrySet()) {
                    for (FlightEntry g : e.getValue()) {
                        if (g.p2p()) {
                            p2pIndex.add(new P2pKey(e.getKey(), g.p2pSeq(), g.peerFrom(), g.peerTo(), g.type()));
                        }
                    }
                }
            }
            return p2pIndex.contains(new P2pKey(peer, f.p2pSeq(), f.peerFrom(), f.peerTo(),
                    send ? CollectiveType.RECV : CollectiveType.SEND));
        }

        /** One rank's p2p operation as its partner looks it up: one hash probe, not a scan of the buffer. */
        private record P2pKey(int rank, long seq, int from, int to, CollectiveType type) {
        }

        private List<RankProgress> progress(long seq, boolean p2p, Map<Integer, FlightEntry> at) {
            List<RankProgress> out = new ArrayList<>();
            for (int r : group.ranks()) {
                if (!withDump.contains(r)) {
                    out.add(new RankProgress(r, null, null, null, null, false));
                    continue;
                }
                FlightGroupStatus s = status.get(r);
                Long enq = p2p ? lastP2p(r) : lastCollective(r);
                FlightEntry e = at.get(r);
                if (e == null) {
                    for (FlightEntry f : entries.get(r)) {
                        if (f.p2p() == p2p && f.matchSeq() == seq) {
                            e = f;
                        }
                    }
                }
                out.add(new RankProgress(r, enq, s == null || s.lastStarted() < 0 ? null : s.lastStarted(),
                        s == null || s.lastCompleted() < 0 ? null : s.lastCompleted(), describe(e), true));
            }
            return out;
        }
    }
}
