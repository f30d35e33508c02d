package io.overlapanalyze.crossrank.digest;

import io.overlapanalyze.analysis.IntervalSet;
import io.overlapanalyze.crossrank.RankInput;
import io.overlapanalyze.model.Collective;
import io.overlapanalyze.model.DeviceIntervals;
import io.overlapanalyze.model.DeviceKind;
import io.overlapanalyze.model.HostSpan;
import io.overlapanalyze.model.HostSpanKind;
import io.overlapanalyze.model.HostThread;
import io.overlapanalyze.model.MemorySamples;
import io.overlapanalyze.model.ProcessGroup;
import io.overlapanalyze.model.RankTrace;
import io.overlapanalyze.model.StringPool;
import io.overlapanalyze.model.Time;
import io.overlapanalyze.report.Attribution;
import io.overlapanalyze.report.ChainLink;
import io.overlapanalyze.report.RankReport;
import io.overlapanalyze.report.StepReport;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One rank's input pruned to what {@code CrossRankAnalyzer} reads, so that the cross-rank analysis
 * of a large job holds a digest per rank instead of every model. Its answers are the full input's:
 *
 * <ul>
 *   <li>Trace header (source, format, rank and its source, world size, truncated), lanes, every
 *       collective with its own device intervals (start, end, lane, kind, launch time and thread,
 *       pre-capture flag; re-indexed), the STEP host spans (step lookup, the main thread), and the
 *       host threads that issued a collective (thread labels). Matching, clocks, skew, bandwidth
 *       and mismatches read nothing else.</li>
 *   <li>The straggler table's exposed communication |C − K| over every interval not launched
 *       before the capture: the digest adds E = C − K as extra COMM intervals and the compute
 *       under the kept collectives, K ∩ C', as extra COMPUTE intervals (C' = the kept collectives'
 *       COMM intervals). Then its C'' − K'' is exactly E: E is disjoint from K ⊇ K'', and
 *       C' − K'' ⊆ C' − K ⊆ E. The waiting parts are built from the kept collectives, so the
 *       exposed wait |(W ∩ C) − K| = |W ∩ E| is unchanged too.</li>
 *   <li>The report keeps, per step with a defined tail or a device window, its name, tail and
 *       attribution with its whole chain (the worst tail per step, the peer-bound tails and the
 *       WAIT cause read those; links after the head keep only collective, type, span and
 *       bound-by), and its device window (the transfer/waiting split per step reads it).</li>
 * </ul>
 * A digest is for the cross-rank analysis only: the single-rank figures of its trace are not the
 * rank's, and its report has no buckets, totals, notes or warnings.
 */
public final class CrossRankDigest {
    /** Interval names of the added intervals (never read; they tell a reader of a digest what they are). */
    static final String EXPOSED_COMM = "(exposed communication)";
    static final String COMPUTE_UNDER_COMM = "(compute under communication)";

    private CrossRankDigest() {
    }

    /** The digest of one rank's input: same rank, a pruned trace and a reduced report. */
    public static RankInput of(RankInput full) {
        SharedValues shared = new SharedValues();
        return new RankInput(trace(full.trace(), shared), report(full.report(), shared));
    }

    /**
     * The digest of one rank's trace alone: what the cross-rank analysis reads of it (see the class
     * comment), its names and process groups taken from {@code shared}.
     */
    public static RankTrace trace(RankTrace t, SharedValues shared) {
        DeviceIntervals d = t.device();
        StringPool pool = new StringPool();
        int kept = 0;
        for (Collective c : t.collectives()) {
            kept += c.deviceIntervals().length;
        }
        DeviceIntervals out = new DeviceIntervals(pool, kept + 64);
        int[] remap = new int[d.size()];
        Arrays.fill(remap, -1);
        List<Collective> collectives = new ArrayList<>(t.collectives().size());
        IntervalSet.Builder keptComm = IntervalSet.builder();
        Set<Long> issuers = new HashSet<>();
        // A rank's collectives share a few group instances; a group's hash reads all its ranks (1,024 of them
        // in a big job), so each instance is looked up in the job's values once.
        Map<ProcessGroup, ProcessGroup> groups = new IdentityHashMap<>();
        for (Collective c : t.collectives()) {
            int[] iv = c.deviceIntervals();
            int[] moved = new int[iv.length];
            for (int j = 0; j < iv.length; j++) {
                int i = iv[j];
                if (remap[i] < 0) {
                    int n = out.add(d.start(i), d.end(i), d.lane(i), d.kind(i), d.name(i), d.launchNs(i),
                            d.launchThread(i));
                    out.setCollective(n, d.collective(i));
                    if (d.preCapture(i)) {
                        out.markPreCapture(n);
                    } else if (d.kind(i) == DeviceKind.COMM) {
                        keptComm.add(d.start(i), d.end(i));
                    }
                    remap[i] = n;
                }
                moved[j] = remap[i];
            }
            ProcessGroup group = groups.computeIfAbsent(c.group(), shared::of);
            collectives.add(new Collective(c.id(), c.type(), shared.of(c.name()), group, c.sequence(), c.inElements(),
                    c.outElements(), shared.of(c.dtype()), c.bytes(), c.enqueueNs(), c.threadId(), moved));
            if (c.threadId() >= 0) {
                issuers.add(c.threadId());
            }
        }
        IntervalSet.Builder comm = IntervalSet.builder();
        IntervalSet.Builder compute = IntervalSet.builder();
        for (int i = 0; i < d.size(); i++) {
            if (d.preCapture(i)) {
                continue; // the straggler table leaves these out, so the digest does too
            }
            if (d.kind(i) == DeviceKind.COMM) {
                comm.add(d.start(i), d.end(i));
            } else if (d.kind(i) == DeviceKind.COMPUTE) {
                compute.add(d.start(i), d.end(i));
            }
        }
        IntervalSet k = compute.build();
        IntervalSet exposed = comm.build().subtract(k);
        IntervalSet under = k.intersect(keptComm.build());
        for (int r = 0; r < exposed.size(); r++) {
            out.add(exposed.start(r), exposed.end(r), -1, DeviceKind.COMM, EXPOSED_COMM, Time.UNKNOWN, -1);
        }
        for (int r = 0; r < under.size(); r++) {
            out.add(under.start(r), under.end(r), -1, DeviceKind.COMPUTE, COMPUTE_UNDER_COMM, Time.UNKNOWN, -1);
        }
        out.trimToSize();
        List<HostSpan> steps = t.hostSpans().stream().filter(s -> s.kind() == HostSpanKind.STEP)
                .map(s -> new HostSpan(s.kind(), shared.of(s.name()), s.startNs(), s.endNs(), s.threadId())).toList();
        List<HostThread> threads = t.threads().stream().filter(h -> issuers.contains(h.threadId())).toList();
        return new RankTrace(t.source(), t.format(), t.rank(), t.rankSource(), t.worldSize(), t.lanes(), out, steps,
                threads, collectives, List.of(), new long[0], t.hostOpsPresent(), t.truncated(), List.of(),
                List.of(), List.of(), MemorySamples.empty(), t.commUnclassified(), List.of());
    }

    /**
     * The attribution with its head link whole and the later links cut to what the WAIT cause reads
     * (collective, type, device span, bound-by): their bytes and candidate times are read by nothing
     * across ranks, and written per step they would be most of a digest's report.
     */
    static Attribution chain(Attribution a, SharedValues shared) {
        List<ChainLink> links = new ArrayList<>(a.chain().size());
        for (int i = 0; i < a.chain().size(); i++) {
            ChainLink c = a.chain().get(i);
            links.add(i == 0
                    ? new ChainLink(c.collective(), shared.of(c.type()), c.bytes(), c.startNs(), c.endNs(),
                    c.dataReadyNs(), c.enqueueNs(), c.queueFreeNs(), c.boundBy())
                    : new ChainLink(c.collective(), shared.of(c.type()), null, c.startNs(), c.endNs(), null, null,
                    null, c.boundBy()));
        }
        return new Attribution(a.kind(), links);
    }

    /**
     * The digest of one rank's report alone: what the cross-rank analysis reads of it (see the class
     * comment), its names taken from {@code shared}.
     */
    public static RankReport report(RankReport r, SharedValues shared) {
        List<StepReport> steps = new ArrayList<>();
        for (StepReport s : r.steps()) {
            boolean window = s.deviceStartNs() != null && s.deviceEndNs() != null;
            if (s.tailNs() == null && !window) {
                continue; // neither the tails nor the transfer/waiting split look at such a step
            }
            StepReport kept = StepReport.empty(shared.of(s.name())).withTailNs(s.tailNs())
                    .withAttribution(chain(s.attribution(), shared));
            steps.add(window ? kept.withDeviceWindow(s.deviceStartNs(), s.deviceEndNs()) : kept);
        }
        return new RankReport(r.rank(), r.rankSource(), r.source(), r.format(), r.worldSize(), steps, null,
                List.of(), List.of(), List.of(), null, List.of(), null, null, List.of(), null, null);
    }
}
