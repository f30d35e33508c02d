package io.overlapanalyze.formats.kineto;

import io.overlapanalyze.formats.input.ThreadTimeline;
import io.overlapanalyze.formats.kernels.KernelRules;
import io.overlapanalyze.model.Collective;
import io.overlapanalyze.model.CollectiveType;
import io.overlapanalyze.model.DeviceIntervals;
import io.overlapanalyze.model.DeviceKind;
import io.overlapanalyze.model.ProcessGroup;
import io.overlapanalyze.model.Time;
import io.overlapanalyze.primitives.LongIntMap;
import io.overlapanalyze.primitives.LongList;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The joins done once the whole file is read (kineto.md §5–§6):
 * <ol>
 *   <li>launch link: device event ↔ runtime call with the same {@code correlation} (launch time and thread);</li>
 *   <li>kernel ↔ {@code record_param_comms}: by the kernel's {@code External id}, else via the runtime
 *       call's {@code External id}, else (old traces whose kernels carry no usable External id) a
 *       communication kernel whose launch lies inside a {@code record_param_comms} on the launching thread;</li>
 *   <li>collectives: one per kept {@code record_param_comms}, plus one per communication kernel that
 *       no CPU op claims, so that every COMM interval belongs to exactly one collective.</li>
 * </ol>
 */
final class CollectiveJoiner {
    private static final long NONE = CollectiveArgs.NONE;

    private final TraceCollector c;
    private final DeviceIntervals dev;
    private final Map<String, ProcessGroup> declaredGroups = new HashMap<>();
    private final Map<List<Object>, ProcessGroup> groupCache = new HashMap<>();
    /**
     * The group of each spelling of a collective's group args: every collective of a trace repeats a
     * few, and parsing the rank list each time cost more than the rest of the join.
     */
    private final Map<GroupSpelling, Optional<ProcessGroup>> groupBySpelling = new HashMap<>();

    private record GroupSpelling(String name, String desc, String ranksText) {
    }
    /** Runtime-call rows by correlation id: the join of device work (and stream waits) to its launch. */
    private final LongIntMap runtimeByCorrelation;

    /** A collective before ids are assigned. */
    private record Draft(CollectiveType type, String name, ProcessGroup group, long sequence, long in, long out,
                         String dtype, long bytes, long enqueueNs, long threadId, int[] intervals,
                         long firstDeviceStart, int order) {
    }

    CollectiveJoiner(TraceCollector collector, List<ProcessGroup> pgConfig) {
        this.c = collector;
        this.dev = collector.device;
        this.runtimeByCorrelation = LongIntMap.indexOf(collector.rtCorrelation, NONE);
        for (ProcessGroup g : pgConfig) {
            if (g.name() != null) {
                declaredGroups.putIfAbsent(g.name(), g);
            }
        }
    }

    /** The runtime-call row of each correlation id (for {@link StreamWaitJoiner}, which joins on it too). */
    LongIntMap runtimeByCorrelation() {
        return runtimeByCorrelation;
    }

    /**
     * Sets launch times/threads on device intervals and marks the work launched before the capture
     * (metrics.md §2: no launch in the file, and a correlation id below every runtime call's:
     * correlation ids grow with each call, so its call was made before the first one recorded);
     * returns launch times with no device work (relative).
     */
    long[] linkLaunches() {
        int rows = c.rtCorrelation.size();
        // Without any runtime call the file cannot tell what came before it: nothing is marked.
        long firstCorrelation = rows == 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
        for (int r = 0; r < rows; r++) {
            firstCorrelation = Math.min(firstCorrelation, c.rtCorrelation.get(r));
        }
        BitSet matched = new BitSet(rows);
        for (int i = 0; i < dev.size(); i++) {
            int r = runtimeRow(i);
            if (r >= 0) {
                dev.setLaunch(i, c.rtTs.get(r), c.rtTid.get(r));
                matched.set(r);
            } else {
                long corr = c.devCorrelation.get(i);
                if (corr != NONE && corr < firstCorrelation) {
                    dev.markPreCapture(i);
                }
            }
        }
        LongList unmatched = new LongList(16);
        for (int r = c.rtLaunches.nextSetBit(0); r >= 0; r = c.rtLaunches.nextSetBit(r + 1)) {
            if (!matched.get(r)) {
                unmatched.add(c.rtTs.get(r));
            }
        }
        long[] out = unmatched.toArray();
        Arrays.sort(out);
        return out;
    }

    private int runtimeRow(int interval) {
        long corr = c.devCorrelation.get(interval);
        return corr == NONE ? -1 : runtimeByCorrelation.get(corr);
    }

    /**
     * Builds the collectives, ordered by enqueue time (unknown last), then first device start;
     * ids are list positions and are written into the device intervals. Times get {@code baseNs} added.
     */
    List<Collective> buildCollectives(long baseNs) {
        c.c10dOps.build();
        c.commAnnotations.build();
        int rpcCount = c.rpcTs.size();
        LongIntMap rpcByExternalId = LongIntMap.indexOf(c.rpcExternalId, NONE);
        ThreadTimeline rpcTimeline = new ThreadTimeline();
        for (int r = 0; r < rpcCount; r++) {
            rpcTimeline.add(c.rpcTid.get(r), c.rpcTs.get(r), c.rpcEnd.get(r), r);
        }
        rpcTimeline.build();

        // Kernel → record_param_comms.
        int n = dev.size();
        int[] linkedRpc = new int[n];
        Arrays.fill(linkedRpc, -1);
        List<List<Integer>> kernelsOfRpc = new ArrayList<>(rpcCount);
        for (int r = 0; r < rpcCount; r++) {
            kernelsOfRpc.add(new ArrayList<>(1));
        }
        for (int i = c.devIsKernel.nextSetBit(0); i >= 0; i = c.devIsKernel.nextSetBit(i + 1)) {
            int r = -1;
            long ext = c.devExternalId.get(i);
            if (ext != NONE) {
                r = rpcByExternalId.get(ext);
            }
            int rt = runtimeRow(i);
            if (r < 0 && rt >= 0 && c.rtExternalId.get(rt) != NONE) {
                r = rpcByExternalId.get(c.rtExternalId.get(rt));
            }
            if (r < 0 && rt >= 0 && dev.kind(i) == DeviceKind.COMM) {
                // Containment only for kernels named like communication: a compute kernel launched
                // inside the op (a copy, say) must not become communication by proximity alone.
                r = rpcTimeline.innermostContaining(c.rtTid.get(rt), c.rtTs.get(rt));
            }
            if (r >= 0) {
                linkedRpc[i] = r;
                kernelsOfRpc.get(r).add(i);
            }
        }

        List<Draft> drafts = new ArrayList<>();
        for (int r = 0; r < rpcCount; r++) {
            Draft d = fromRecordParamComms(r, kernelsOfRpc.get(r), drafts.size());
            if (d != null) {
                drafts.add(d);
                for (int i : d.intervals()) {
                    dev.setKind(i, DeviceKind.COMM);
                }
            } else {
                for (int i : kernelsOfRpc.get(r)) {
                    linkedRpc[i] = -1; // its op is not a collective (wait/init): the kernel stands alone
                }
            }
        }
        for (int i = c.devIsKernel.nextSetBit(0); i >= 0; i = c.devIsKernel.nextSetBit(i + 1)) {
            if (linkedRpc[i] < 0 && dev.kind(i) == DeviceKind.COMM) {
                drafts.add(fromLoneKernel(i, drafts.size()));
            }
        }

        drafts.sort(Comparator.comparingLong((Draft d) -> d.enqueueNs() == Time.UNKNOWN ? Long.MAX_VALUE : d.enqueueNs())
                .thenComparingLong(Draft::firstDeviceStart)
                .thenComparingInt(Draft::order));
        List<Collective> out = new ArrayList<>(drafts.size());
        for (Draft d : drafts) {
            int id = out.size();
            for (int i : d.intervals()) {
                dev.setCollective(i, id);
            }
            long enqueue = d.enqueueNs() == Time.UNKNOWN ? Time.UNKNOWN : d.enqueueNs() + baseNs;
            out.add(new Collective(id, d.type(), d.name(), d.group(), d.sequence(), d.in(), d.out(), d.dtype(),
                    d.bytes(), enqueue, d.threadId(), d.intervals()));
        }
        return out;
    }

    /** A collective from a record_param_comms op, or {@code null} when the op is not one. */
    private Draft fromRecordParamComms(int r, List<Integer> kernels, int order) {
        long tid = c.rpcTid.get(r);
        long ts = c.rpcTs.get(r);
        long end = c.rpcEnd.get(r);
        CollectiveArgs args = c.rpcArgs.get(r);
        for (int i : kernels) {
            CollectiveArgs k = c.kernelArgs.get(i);
            if (k != null) {
                args = merge(args, k); // newer kernels repeat the metadata; use it where the op lacks it
                break;
            }
        }
        String name = args == null ? null : args.collectiveName();
        if (name == null) {
            // 2022 traces: no args; the nccl:* annotation inside (or around) the op names the type.
            int a = c.commAnnotations.firstStartingWithin(tid, ts, end);
            if (a < 0) {
                a = c.commAnnotations.innermostContaining(tid, ts);
            }
            if (a >= 0) {
                name = c.commAnnotationNames.get(a);
            } else if (!kernels.isEmpty()) {
                name = dev.name(kernels.get(0));
            }
        }
        if (name == null || isNotACollective(name)) {
            // A "wait"/"init" op, or an arg-less op with no annotation and no kernel (the wait of
            // 2022 traces): bookkeeping, not communication.
            return null;
        }
        int[] intervals = sortedByStart(kernels);
        int outer = c.c10dOps.outermostContaining(tid, ts);
        long enqueue = outer >= 0 ? c.c10dTs.get(outer) : ts;
        return draft(CollectiveType.fromName(name), name, args, enqueue, tid, intervals, order);
    }

    /** A collective for a communication kernel that no CPU op claims. */
    private Draft fromLoneKernel(int i, int order) {
        CollectiveArgs args = c.kernelArgs.get(i);
        String kernelName = dev.name(i);
        String name = args != null && args.collectiveName() != null ? args.collectiveName() : kernelName;
        CollectiveType type = CollectiveType.fromName(name);
        if (type == CollectiveType.UNKNOWN && KernelRules.isExpertParallelKernel(kernelName)) {
            // DeepEP-style dispatch/combine kernels exchange tokens between every pair of ranks.
            type = CollectiveType.ALL_TO_ALL;
        }
        long launch = dev.launchNs(i);
        long thread = dev.launchThread(i);
        long enqueue = Time.UNKNOWN;
        if (launch != Time.UNKNOWN) {
            int outer = c.c10dOps.outermostContaining(thread, launch);
            enqueue = outer >= 0 ? c.c10dTs.get(outer) : launch;
            if (type == CollectiveType.UNKNOWN) {
                int a = c.commAnnotations.innermostContaining(thread, launch);
                if (a >= 0) {
                    type = CollectiveType.fromName(c.commAnnotationNames.get(a));
                }
            }
        }
        return draft(type, name, args, enqueue, launch == Time.UNKNOWN ? -1 : thread, new int[] {i}, order);
    }

    private Draft draft(CollectiveType type, String name, CollectiveArgs args, long enqueue, long thread,
                        int[] intervals, int order) {
        ProcessGroup group = null;
        long seq = -1;
        long in = -1;
        long out = -1;
        String dtype = null;
        long bytes = -1;
        if (args != null) {
            group = group(args.groupName(), args.groupDesc(), args.groupRanks());
            seq = args.sequence() == NONE ? -1 : args.sequence();
            in = args.inElements() == NONE ? -1 : args.inElements();
            out = args.outElements() == NONE ? -1 : args.outElements();
            dtype = args.dtype();
            bytes = args.bytes();
        }
        long first = intervals.length == 0 ? Long.MAX_VALUE : dev.start(intervals[0]);
        return new Draft(type, name, group, seq, in, out, dtype, bytes, enqueue, thread, intervals, first, order);
    }

    /** A process group from collective args, completed from {@code pg_config}; shared instances. */
    private ProcessGroup group(String name, String desc, String ranksText) {
        return groupBySpelling.computeIfAbsent(new GroupSpelling(name, desc, ranksText),
                k -> Optional.ofNullable(groupOf(name, desc, ranksText))).orElse(null);
    }

    private ProcessGroup groupOf(String name, String desc, String ranksText) {
        List<Integer> ranks = DistributedInfo.parseRanks(ranksText);
        ProcessGroup declared = name == null ? null : declaredGroups.get(name);
        if (declared != null) {
            if (desc == null) {
                desc = declared.description();
            }
            if (ranks.isEmpty()) {
                ranks = declared.ranks();
            }
        }
        if (name == null && desc == null && ranks.isEmpty()) {
            return null;
        }
        List<Object> key = Arrays.asList(name, desc, ranks);
        List<Integer> finalRanks = ranks;
        String finalDesc = desc;
        return groupCache.computeIfAbsent(key, k -> new ProcessGroup(name, finalDesc, finalRanks));
    }

    private int[] sortedByStart(List<Integer> kernels) {
        return kernels.stream().sorted(Comparator.comparingLong(dev::start)).mapToInt(Integer::intValue).toArray();
    }

    /** Field-wise: {@code primary}'s value where present, else {@code fallback}'s. */
    private static CollectiveArgs merge(CollectiveArgs primary, CollectiveArgs fallback) {
        if (primary == null) {
            return fallback;
        }
        return new CollectiveArgs(
                primary.collectiveName() != null ? primary.collectiveName() : fallback.collectiveName(),
                primary.inElements() != NONE ? primary.inElements() : fallback.inElements(),
                primary.outElements() != NONE ? primary.outElements() : fallback.outElements(),
                primary.dtype() != null ? primary.dtype() : fallback.dtype(),
                primary.groupSize() != NONE ? primary.groupSize() : fallback.groupSize(),
                primary.groupName() != null ? primary.groupName() : fallback.groupName(),
                primary.groupDesc() != null ? primary.groupDesc() : fallback.groupDesc(),
                primary.groupRanks() != null ? primary.groupRanks() : fallback.groupRanks(),
                primary.sequence() != NONE ? primary.sequence() : fallback.sequence());
    }

    /** {@code wait} and {@code init} are recorded through record_param_comms but move no data. */
    private static boolean isNotACollective(String collectiveName) {
        String n = collectiveName.toLowerCase(Locale.ROOT);
        return n.equals("wait") || n.equals("init");
    }
}
