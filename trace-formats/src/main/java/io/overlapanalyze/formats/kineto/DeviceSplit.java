package io.overlapanalyze.formats.kineto;

import io.overlapanalyze.model.Annotation;
import io.overlapanalyze.model.Collective;
import io.overlapanalyze.model.DeviceIntervals;
import io.overlapanalyze.model.DeviceKind;
import io.overlapanalyze.model.Lane;
import io.overlapanalyze.model.MemorySamples;
import io.overlapanalyze.model.RankSource;
import io.overlapanalyze.model.RankTrace;
import io.overlapanalyze.model.StreamWait;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * One rank per device: a Kineto file whose process drove several devices (device events under
 * more than one device pid) becomes one {@link RankTrace} per device, never one rank with the
 * devices' work merged (their unions would mix two timelines: communication busy the union of
 * both, markers of one device measured against the other's).
 *
 * <p>What goes where: each device keeps its own lanes and intervals; a collective goes with its
 * kernels (a collective without device work is a host fact of the process and goes to every
 * device, like the host spans, threads and launches whose device record is missing: the file
 * cannot say which device those were meant for). Allocator samples go to their device; a user
 * annotation goes with its lane (a device range) or with the work it launched (a host range). Device
 * events written without any args (no device or stream) stay with the first device.
 *
 * <p>Rank ids: when the trace names its rank R, the device that ran most of the communication
 * (then most intervals, then the lowest index) is rank R, as the trace says; each other device is
 * reported under an id of its own ({@link RankSource#INFERRED}): after the job's ranks when the
 * world size is known (so that cross-rank analysis leaves it out as not being a rank of the job),
 * else after R. When the trace names no rank, the devices are numbered in device order, as the
 * processes of an Nsight export are. Every split rank's source is "{@code <file> device <d>}" and
 * carries a warning saying all of this.
 */
final class DeviceSplit {
    private DeviceSplit() {
    }

    /** {@code whole} as one trace per device, or {@code [whole]} when it holds one device or none. */
    static List<RankTrace> split(RankTrace whole) {
        int[] devices = devices(whole);
        if (devices.length < 2) {
            return List.of(whole);
        }
        int[] ranks = new int[devices.length];
        RankSource[] sources = new RankSource[devices.length];
        boolean named = whole.rankSource() != RankSource.DEFAULT;
        int primary = named ? primary(whole, devices) : -1;
        int next = named ? (whole.worldSize() > 0 ? Math.max(whole.worldSize(), whole.rank() + 1) : whole.rank() + 1) : 0;
        for (int k = 0; k < devices.length; k++) {
            if (k == primary) {
                ranks[k] = whole.rank();
                sources[k] = whole.rankSource();
            } else {
                ranks[k] = next++;
                sources[k] = RankSource.INFERRED;
            }
        }
        String list = Arrays.stream(devices).mapToObj(Integer::toString).collect(Collectors.joining(", "));
        List<RankTrace> out = new ArrayList<>(devices.length);
        for (int k = 0; k < devices.length; k++) {
            String why;
            if (!named) {
                why = whole.source() + " holds the work of " + devices.length + " devices (" + list
                        + ") and names no rank: each device is reported as its own rank, numbered in device order;"
                        + " device " + devices[k] + " is rank " + ranks[k];
            } else if (k == primary) {
                why = whole.source() + " says it is rank " + whole.rank() + " but holds the work of " + devices.length
                        + " devices (" + list + "): device " + devices[k] + ", which ran most of its communication,"
                        + " is rank " + whole.rank() + "; each other device is reported as a rank of its own";
            } else {
                why = whole.source() + " says it is rank " + whole.rank() + " but holds the work of " + devices.length
                        + " devices (" + list + "): device " + devices[primary] + " is rank " + whole.rank()
                        + "; this device (" + devices[k] + ") is reported separately under rank id " + ranks[k]
                        + (whole.worldSize() > 0 ? ", outside the job's " + whole.worldSize() + " ranks" : "")
                        + " (not the trace's)";
            }
            // The declared world size counts processes, not these devices: only the trace's own rank keeps it.
            int world = sources[k] == RankSource.INFERRED ? -1 : whole.worldSize();
            out.add(one(whole, devices[k], k == 0, ranks[k], sources[k], world, why));
        }
        return out;
    }

    /** The distinct device indexes of the lanes (unknown, negative ones left out), ascending. */
    private static int[] devices(RankTrace t) {
        TreeSet<Integer> set = new TreeSet<>();
        for (Lane l : t.lanes()) {
            if (l.device() >= 0) {
                set.add(l.device());
            }
        }
        return set.stream().mapToInt(Integer::intValue).toArray();
    }

    /** The position in {@code devices} of the device with the most COMM intervals, then the most intervals. */
    private static int primary(RankTrace t, int[] devices) {
        long[] comm = new long[devices.length];
        long[] all = new long[devices.length];
        int[] laneSlot = laneSlots(t, devices);
        DeviceIntervals d = t.device();
        for (int i = 0; i < d.size(); i++) {
            int k = laneSlot[d.lane(i)];
            if (k < 0) {
                continue;
            }
            all[k]++;
            if (d.kind(i) == DeviceKind.COMM) {
                comm[k]++;
            }
        }
        int best = 0;
        for (int k = 1; k < devices.length; k++) {
            if (comm[k] > comm[best] || (comm[k] == comm[best] && all[k] > all[best])) {
                best = k;
            }
        }
        return best;
    }

    /** Lane index → position of its device in {@code devices}, or -1 (unknown device). */
    private static int[] laneSlots(RankTrace t, int[] devices) {
        int[] slot = new int[t.lanes().size()];
        for (Lane l : t.lanes()) {
            slot[l.index()] = Arrays.binarySearch(devices, l.device());
            if (slot[l.index()] < 0) {
                slot[l.index()] = -1;
            }
        }
        return slot;
    }

    private static RankTrace one(RankTrace whole, int device, boolean takesUnknown, int rank, RankSource source,
                                 int world, String why) {
        int[] laneMap = new int[whole.lanes().size()];
        Arrays.fill(laneMap, -1);
        List<Lane> lanes = new ArrayList<>();
        for (Lane l : whole.lanes()) {
            if (l.device() == device || (l.device() < 0 && takesUnknown)) {
                laneMap[l.index()] = lanes.size();
                String label = l.device() < 0 ? "unknown stream" : "stream " + l.stream();
                lanes.add(new Lane(lanes.size(), l.device(), l.stream(), label));
            }
        }
        DeviceIntervals from = whole.device();
        int[] intervalMap = new int[from.size()];
        Arrays.fill(intervalMap, -1);
        DeviceIntervals to = new DeviceIntervals(from.names(), 1024);
        for (int i = 0; i < from.size(); i++) {
            int lane = laneMap[from.lane(i)];
            if (lane >= 0) {
                intervalMap[i] = to.add(from.start(i), from.end(i), lane, from.kind(i), from.name(i), from.launchNs(i),
                        from.launchThread(i));
                if (from.preCapture(i)) {
                    to.markPreCapture(intervalMap[i]);
                }
                to.setShape(intervalMap[i], from.shape(i));
            }
        }
        to.trimToSize();
        List<Collective> collectives = new ArrayList<>();
        for (Collective c : whole.collectives()) {
            int[] mine = Arrays.stream(c.deviceIntervals()).map(i -> intervalMap[i]).filter(i -> i >= 0).toArray();
            if (mine.length == 0 && c.deviceIntervals().length > 0) {
                continue; // its kernels ran on another device
            }
            int id = collectives.size();
            for (int i : mine) {
                to.setCollective(i, id);
            }
            collectives.add(new Collective(id, c.type(), c.name(), c.group(), c.sequence(), c.inElements(),
                    c.outElements(), c.dtype(), c.bytes(), c.enqueueNs(), c.threadId(), mine));
        }
        List<StreamWait> waits = new ArrayList<>();
        for (StreamWait w : whole.streamWaits()) {
            int waiting = laneMap[w.waitingLane()];
            if (waiting >= 0) {
                int recorded = w.recordedLane() >= 0 ? laneMap[w.recordedLane()] : -1;
                waits.add(new StreamWait(waiting, w.waitNs(), w.submitNs(), recorded, w.recordHostNs()));
            }
        }
        MemorySamples memory = new MemorySamples();
        MemorySamples all = whole.memory();
        for (int i = 0; i < all.size(); i++) {
            if (all.device(i) == device) {
                memory.add(all.timeNs(i), all.totalAllocated(i), all.device(i));
            }
        }
        List<Annotation> annotations = new ArrayList<>();
        for (Annotation a : whole.annotations()) {
            if (a.onDevice()) {
                if (laneMap[a.lane()] >= 0) {
                    annotations.add(a.withPlacement(laneMap[a.lane()], new int[0]));
                }
            } else {
                int[] mine = Arrays.stream(a.intervals()).map(i -> intervalMap[i]).filter(i -> i >= 0).toArray();
                if (mine.length > 0) {
                    annotations.add(a.withPlacement(-1, mine)); // a host range goes where its work ran
                }
            }
        }
        List<String> warnings = new ArrayList<>(whole.warnings());
        warnings.add(why);
        return new RankTrace(whole.source() + " device " + device, whole.format(), rank, source, world, lanes, to,
                whole.hostSpans(), whole.threads(), collectives, whole.groups(), whole.unmatchedLaunchNs().clone(),
                whole.hostOpsPresent(), whole.truncated(), warnings, waits, whole.referenceOverlap(),
                memory.isEmpty() ? MemorySamples.empty() : memory, whole.commUnclassified(), annotations,
                whole.hostRanges(), whole.flightRecorder(), whole.deviceNames());
    }
}
