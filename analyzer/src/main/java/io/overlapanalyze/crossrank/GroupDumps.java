package io.overlapanalyze.crossrank;

import io.overlapanalyze.model.Collective;
import io.overlapanalyze.model.CollectiveType;
import io.overlapanalyze.model.FlightEntry;
import io.overlapanalyze.model.FlightGroupStatus;
import io.overlapanalyze.model.FlightRecorderDump;
import io.overlapanalyze.model.ProcessGroup;
import io.overlapanalyze.model.RankTrace;
import io.overlapanalyze.report.HangReport.RankProgress;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * One process group across the Flight Recorder dumps of its members, for {@link HangAnalysis}: each
 * member's buffered operations and status in the group, and the group's first divergence.
 */
final class GroupDumps {
    private final ProcessGroup group;
    private final Map<Integer, List<FlightEntry>> entries = new TreeMap<>();
    private final Map<Integer, FlightGroupStatus> status = new TreeMap<>();
    private final Set<Integer> withDump = new TreeSet<>();
    private Set<P2pKey> p2pIndex;

    GroupDumps(ProcessGroup group, Map<Integer, RankTrace> dumps) {
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

    HangAnalysis.Found collectiveDivergence() {
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
            MismatchRules.Disagreement v = MismatchRules.check(new Slot(null, s.getKey(), asCollectives), group.ranks(),
                    group.ranks().size());
            if (v != null) {
                Map<Integer, FlightEntry> waiting = new TreeMap<>(s.getValue());
                v.culprits().forEach(waiting::remove);
                return new HangAnalysis.Found(group, false, v.kind().name(), s.getKey(), List.of(), v.culprits(),
                        waiting, new ArrayList<>(waiting.keySet()), progress(s.getKey(), false, s.getValue()));
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
        return new HangAnalysis.Found(group, false, "MISSING", missingAt, missing, List.of(), waitingEntries, waiting,
                progress(missingAt, false, at));
    }

    HangAnalysis.Found p2pDivergence() {
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
        HangAnalysis.Found found = new HangAnalysis.Found(group, true, "MISSING", first, new ArrayList<>(missing),
                List.of(), waitingEntries, waiting, progress(first, true, firstAt));
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
                    s == null || s.lastCompleted() < 0 ? null : s.lastCompleted(), HangAnalysis.describe(e), true));
        }
        return out;
    }
}
