package io.overlapanalyze.analysis;

import io.overlapanalyze.model.Collective;
import io.overlapanalyze.model.DeviceIntervals;
import io.overlapanalyze.model.ProcessGroup;
import io.overlapanalyze.model.RankTrace;
import io.overlapanalyze.model.Time;
import io.overlapanalyze.report.CommSplit;
import io.overlapanalyze.report.RankReport;
import io.overlapanalyze.report.StepReport;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Transfer versus waiting (metrics.md §12) on one rank: per collective, then per step.
 *
 * <p><b>Per collective</b> ({@link #index}), in order of evidence:
 * <ol>
 *   <li>the profiler's own split ({@link Collective#hasProfilerSplit()}: Ascend Transit, the rest
 *       of the op waiting) → {@link CommSplit#PROFILER};</li>
 *   <li>(across ranks: not decided here; the cross-rank analysis replaces {@code estimated} splits
 *       through {@link #splitStep} with its own {@link Waits});</li>
 *   <li>one rank only: the shortest instance of the same collective (type, group, bytes; bytes
 *       known) in the rank's input, when it has at least {@value #MIN_INSTANCES} instances, is taken
 *       as its transfer, the rest of each instance as waiting → {@link CommSplit#ESTIMATED};</li>
 *   <li>otherwise unknown.</li>
 * </ol>
 * A collective's duration is its device span (first start to latest end of its intervals); its
 * waiting stretch lies at its start: {@code [start, start + wait)}, the transfer after it.
 *
 * <p><b>Per step</b> ({@link #splitStep}): the step's exposed communication {@code C − K} (§5) is
 * split into the time during which the collective that ran was waiting and the rest. When two
 * collectives run at once and one of them transfers, that time is transfer (waiting is claimed only
 * where nothing was seen moving data). <b>Mixed evidence</b>: when some exposed time belongs to a
 * COMM interval without a split (a collective of fewer than three instances, an interval of no
 * collective) and no collective with a split transfers then, the split is unknown for the whole
 * step, with a step note saying how much exposed time had no evidence: a partial split would
 * present a part as the whole. The source is {@code profiler} when every split used came from the
 * profiler, else {@code estimated}.
 *
 * <p>Cost: the index is one pass over the collectives plus a hash map of keys; a step costs a few
 * interval-set operations over its own intervals (no collective × interval loops).
 */
public final class CommSplitAnalysis {
    /** Instances of the same collective needed before the shortest is taken as its transfer (§12 rule 3). */
    public static final int MIN_INSTANCES = 3;

    /** Start of the step note of a split that is unknown because some exposed time has no evidence. */
    public static final String NOTE_NO_EVIDENCE = " ms of exposed communication belongs to collectives without a"
            + " transfer / waiting split";

    private CommSplitAnalysis() {
    }

    /** Per collective: its waiting time (ns) and the source, or unknown. */
    public interface Waits {
        /** Waiting at the start of collective {@code id}, or {@link Time#UNKNOWN}. */
        long waitNs(int id);

        /** {@link CommSplit#PROFILER}, {@link CommSplit#CROSS_RANK}, {@link CommSplit#ESTIMATED}; null when unknown. */
        String source(int id);
    }

    /** The per-collective splits of one rank's input. */
    public static final class Index implements Waits {
        private final long[] waitNs;
        private final String[] source;

        private Index(long[] waitNs, String[] source) {
            this.waitNs = waitNs;
            this.source = source;
        }

        /** No collective has a split. */
        public static Index none() {
            return new Index(new long[0], new String[0]);
        }

        @Override
        public long waitNs(int id) {
            return id >= 0 && id < waitNs.length ? waitNs[id] : Time.UNKNOWN;
        }

        @Override
        public String source(int id) {
            return id >= 0 && id < source.length ? source[id] : null;
        }
    }

    /** The split of every collective of {@code trace} (see the class comment). */
    public static Index index(RankTrace trace) {
        List<Collective> all = trace.collectives();
        DeviceIntervals dev = trace.device();
        int n = all.size();
        long[] wait = new long[n];
        String[] source = new String[n];
        long[] duration = new long[n];
        Map<Key, Long> shortest = new HashMap<>();
        Map<Key, Integer> count = new HashMap<>();
        for (int id = 0; id < n; id++) {
            wait[id] = Time.UNKNOWN;
            Collective c = all.get(id);
            duration[id] = span(dev, c);
            if (duration[id] < 0) {
                continue; // no device intervals
            }
            if (c.hasProfilerSplit()) {
                wait[id] = Math.min(Math.max(0, c.profilerWaitNs()), duration[id]);
                source[id] = CommSplit.PROFILER;
                continue;
            }
            Key k = Key.of(c);
            if (k != null) {
                count.merge(k, 1, Integer::sum);
                shortest.merge(k, duration[id], Math::min);
            }
        }
        for (int id = 0; id < n; id++) {
            if (source[id] != null || duration[id] < 0) {
                continue;
            }
            Key k = Key.of(all.get(id));
            if (k != null && count.get(k) >= MIN_INSTANCES) {
                wait[id] = duration[id] - shortest.get(k);
                source[id] = CommSplit.ESTIMATED;
            }
        }
        return new Index(wait, source);
    }

    /** The same collective for rule 3: type, group and a known size. */
    private record Key(String type, String group, List<Integer> members, long bytes) {
        static Key of(Collective c) {
            if (c.bytes() < 0) {
                return null; // an unknown size cannot say two instances moved the same data
            }
            ProcessGroup g = c.group();
            return new Key(c.type().name(), g == null ? null : Objects.toString(g.name(), g.description()),
                    g == null ? List.of() : g.ranks(), c.bytes());
        }

        /**
         * Without the member list, which a thousand-rank group makes long and which every lookup
         * would walk: keys that differ only in their members are rare and merely share a bucket.
         */
        @Override
        public int hashCode() {
            return (31 * Objects.hashCode(type) + Objects.hashCode(group)) * 31 + Long.hashCode(bytes);
        }
    }

    /** First start to latest end of the collective's intervals; -1 without any. */
    static long span(DeviceIntervals dev, Collective c) {
        int[] iv = c.deviceIntervals();
        if (iv == null || iv.length == 0) {
            return -1;
        }
        long start = Long.MAX_VALUE;
        long end = Long.MIN_VALUE;
        for (int i : iv) {
            start = Math.min(start, dev.start(i));
            end = Math.max(end, dev.end(i));
        }
        return Math.max(0, end - start);
    }

    /** Start of collective {@code c}: its first interval's start, the start its waiting stretch begins at. */
    static long startOf(DeviceIntervals dev, Collective c) {
        long start = Long.MAX_VALUE;
        for (int i : c.deviceIntervals()) {
            start = Math.min(start, dev.start(i));
        }
        return start;
    }

    /** A step's split and, when it is unknown for lack of evidence, the note that says so. */
    public record StepSplit(CommSplit split, String note) {
    }

    /** The split of {@code step}'s exposed communication by {@code waits} (see the class comment). */
    public static StepSplit splitStep(StepContext step, Waits waits) {
        RankTrace trace = step.trace();
        if (trace.commUnclassified() != null || step.comm().length == 0) {
            return new StepSplit(CommSplit.unknown(), null);
        }
        DeviceIntervals dev = step.device();
        int[] comm = step.comm();
        IntervalSet.Builder waiting = IntervalSet.builder();
        IntervalSet.Builder transfer = IntervalSet.builder();
        IntervalSet.Builder unknown = IntervalSet.builder();
        boolean any = false;
        boolean allProfiler = true;
        Map<Integer, Long> waitEnd = new HashMap<>();
        for (int i : comm) {
            long s = dev.start(i);
            long e = dev.end(i);
            int id = dev.collective(i);
            long w = id >= 0 && id < trace.collectives().size() ? waits.waitNs(id) : Time.UNKNOWN;
            if (!Time.isKnown(w)) {
                unknown.add(s, e);
                continue;
            }
            any = true;
            allProfiler &= CommSplit.PROFILER.equals(waits.source(id));
            long until = waitEnd.computeIfAbsent(id, k -> startOf(dev, trace.collectives().get(k)) + w);
            if (until > s) {
                waiting.add(s, Math.min(e, until));
            }
            if (until < e) {
                transfer.add(Math.max(s, until), e);
            }
        }
        if (!any) {
            return new StepSplit(CommSplit.unknown(), null);
        }
        IntervalSet k = IntervalSet.unionOf(dev, step.compute());
        IntervalSet t = transfer.build().subtract(k);
        IntervalSet u = unknown.build();
        IntervalSet unexplained = u.subtract(k).subtract(t);
        if (unexplained.length() > 0) {
            return new StepSplit(CommSplit.unknown(), msText(unexplained.length()) + NOTE_NO_EVIDENCE
                    + ": transfer and waiting unknown in this step");
        }
        long waited = waiting.build().subtract(k).subtract(t).subtract(u).length();
        String source = allProfiler ? CommSplit.PROFILER : CommSplit.ESTIMATED;
        return new StepSplit(new CommSplit(waited, t.length(), source), null);
    }

    /**
     * Whether most of a chain's communication time was waiting (metrics.md §6 WAIT): the waiting of
     * the chain's collectives (each clamped to its duration; a collective without a split counts as
     * not waiting) is more than half of their summed durations.
     *
     * @param ids       the chain's collective ids
     * @param durations their durations in the step, same order
     */
    public static boolean mostlyWaiting(int[] ids, long[] durations, Waits waits) {
        long total = 0;
        long waited = 0;
        for (int k = 0; k < ids.length; k++) {
            long d = Math.max(0, durations[k]);
            total += d;
            long w = waits.waitNs(ids[k]);
            if (Time.isKnown(w)) {
                waited += Math.min(Math.max(0, w), d);
            }
        }
        return total > 0 && 2 * waited > total;
    }

    /**
     * The most ranks a group of this rank's collectives has, as the input names them: a size the
     * capture states ({@link Collective#groupSize()}), listed members, or the world size; -1 when
     * nothing says.
     */
    public static int largestGroup(RankTrace trace) {
        int most = trace.worldSize() > 0 ? trace.worldSize() : -1;
        for (Collective c : trace.collectives()) {
            most = Math.max(most, c.groupSize());
            if (c.group() != null) {
                most = Math.max(most, c.group().ranks().isEmpty() ? -1 : c.group().ranks().size());
            }
        }
        return most;
    }

    /**
     * The rank note of metrics.md §12 (the input names a group or world larger than the ranks read):
     * "this rank's collectives ran in a group of 8 ranks (as the capture says): unless all 8 are in
     * the input, the waiting in the transfer / waiting split may be for ranks outside the input",
     * when the group has other ranks and the rank waited in some step; {@code null} otherwise.
     *
     * <p>Made per rank, where the whole trace is (the group sizes are not in what a distributed run
     * sends back), and so phrased to be true whatever else was read: how many ranks the input holds
     * is known only when the job is assembled, and the reports must not be replaced there (the
     * renderers and the Spark driver key their tables by report identity).
     */
    public static String groupNote(RankTrace trace, RankReport report) {
        int group = largestGroup(trace);
        if (group < 2) {
            return null;
        }
        boolean waited = report.steps().stream().map(StepReport::commSplit)
                .anyMatch(s -> s != null && s.known() && s.waitNs() > 0);
        if (!waited) {
            return null;
        }
        return "this rank's collectives ran in a group of " + group + " ranks (as the capture says): unless all "
                + group + " are in the input, the waiting in the transfer / waiting split "
                + CommSplit.OUTSIDE_RANKS_NOTE_END;
    }

    /** {@code report} with {@link #groupNote} added when there is one. */
    public static RankReport withGroupNote(RankTrace trace, RankReport report) {
        String note = groupNote(trace, report);
        if (note == null) {
            return report;
        }
        List<String> notes = new ArrayList<>(report.notes());
        notes.add(note);
        return new RankReport(report.rank(), report.rankSource(), report.source(), report.format(),
                report.worldSize(), report.steps(), report.totals(), notes, report.warnings(), report.crossCheck(),
                report.parallelism(), report.contention(), report.notAvailable(), report.preCapture(),
                report.findings(), report.largestGroupSize(), report.deviceModel());
    }

    /** Milliseconds with three decimals, half up to the µs (as the other step notes print them). */
    static String msText(long ns) {
        long us = Math.floorDiv(ns + 500, 1000);
        return Math.floorDiv(us, 1000) + "." + String.format(java.util.Locale.ROOT, "%03d", Math.floorMod(us, 1000));
    }
}
