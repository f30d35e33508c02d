package io.overlapanalyze.model;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Everything one rank (one process driving one device) recorded, in the common model of
 * metrics.md §1. Readers fill it; analyses read it and know nothing of formats. A copy that changes
 * one thing comes from a {@code with…} method, which carries every other component over, so no
 * copy can forget a component (the canonical constructor is the only other way to make one).
 *
 * <p>A carrier, not a value: {@code device} and {@code memory} are columnar stores and
 * {@code unmatchedLaunchNs} is a plain array, all taken over as the reader built them and never
 * copied (a trace holds millions of intervals; copying them per {@code with…} would cost the
 * readers' speed). So {@code equals}, {@code hashCode} and {@code toString} see those components
 * by identity, and nothing compares traces by value. Whoever hands an array over gives it up:
 * neither the reader nor an analysis writes it afterwards.
 *
 * @param source            the file (or directory) it was read from, as the user named it
 * @param format            the source format
 * @param rank              rank id ({@code 0} with {@link RankSource#DEFAULT} when unknown)
 * @param rankSource        where the rank id came from
 * @param worldSize         job size, or {@code -1} when unknown
 * @param lanes             device lanes, indexed by {@link Lane#index()}
 * @param device            the device intervals
 * @param hostSpans         steps, optimizer and backward spans (sorted by start)
 * @param threads           host threads with their names
 * @param collectives       collectives, indexed by {@link Collective#id()}
 * @param groups            process groups the trace declares (may be empty)
 * @param unmatchedLaunchNs host times of launches (kernel, memcpy, memset) whose device activity
 *                          is missing from the trace; a step holding one is partial (metrics.md §2)
 * @param hostOpsPresent    true when the trace has any host-side ops at all; false selects the
 *                          no-phase fallbacks of metrics.md §3–4
 * @param truncated         true when the file ended before the trace was complete
 * @param warnings          what the reader skipped or repaired, one line each
 * @param streamWaits       explicit cross-lane dependencies (stream waits on recorded events), in
 *                          no particular order; empty when the trace records none (most traces)
 * @param referenceOverlap  the trace's own precomputed overlap figures per step (Ascend's
 *                          "Overlap Analysis" lane), for the cross-check; empty for other formats
 * @param memory            the device allocator's running total (metrics.md §9 "Memory"); empty
 *                          when the trace recorded no allocator events
 * @param commUnclassified  why the trace cannot tell communication from compute (an export without
 *                          kernel names, a database without its communication table), or {@code null}
 *                          when it can: then communication figures are unknown, not zero
 * @param flightRecorder    what a PyTorch Flight Recorder dump adds (its ring buffer, the groups' progress), or
 *                          {@code null} for every other format
 * @param annotations       user annotation ranges ({@code record_function} labels) on the device, or on
 *                          the host with the device work they launched; empty when the trace has none
 * @param hostRanges        the outermost host ranges (NVTX, {@code record_function}), for step hints
 * @param deviceNames       the device models the trace lists, by device index as {@link Lane#device()} names
 *                          it (Kineto {@code deviceProperties}, Nsight {@code TARGET_INFO_GPU}); empty when
 *                          it lists none. Kept whole (not the model of this rank alone) so that a trace split
 *                          per device keeps the right one: see {@link #deviceModel()}
 */
public record RankTrace(String source, TraceFormat format, int rank, RankSource rankSource, int worldSize,
                        List<Lane> lanes, DeviceIntervals device, List<HostSpan> hostSpans,
                        List<HostThread> threads, List<Collective> collectives, List<ProcessGroup> groups,
                        long[] unmatchedLaunchNs, boolean hostOpsPresent, boolean truncated,
                        List<String> warnings, List<StreamWait> streamWaits,
                        List<ReferenceOverlap> referenceOverlap, MemorySamples memory,
                        String commUnclassified, List<Annotation> annotations, List<HostSpan> hostRanges,
                        FlightRecorderDump flightRecorder, Map<Integer, String> deviceNames) {
    /**
     * More ranks than any job has (the largest runs have some 10^5): a world size above it, or a
     * rank id at or above it, is metadata that cannot be right, set aside with a warning, never
     * believed (issue 29: two files claiming a world of 2e9 had every missing rank listed, 11.6 GB).
     */
    public static final int MAX_WORLD_SIZE = 1 << 20;

    public RankTrace {
        lanes = List.copyOf(lanes);
        hostSpans = List.copyOf(hostSpans);
        threads = List.copyOf(threads);
        collectives = List.copyOf(collectives);
        groups = List.copyOf(groups);
        warnings = List.copyOf(warnings);
        streamWaits = streamWaits == null ? List.of() : List.copyOf(streamWaits);
        referenceOverlap = referenceOverlap == null ? List.of() : List.copyOf(referenceOverlap);
        memory = memory == null ? MemorySamples.empty() : memory;
        annotations = annotations == null ? List.of() : List.copyOf(annotations);
        hostRanges = hostRanges == null ? List.of() : List.copyOf(hostRanges);
        deviceNames = deviceNames == null ? Map.of() : Map.copyOf(deviceNames);
    }

    /** A trace that lists no device models ({@link #deviceNames()} empty). */
    public RankTrace(String source, TraceFormat format, int rank, RankSource rankSource, int worldSize,
                     List<Lane> lanes, DeviceIntervals device, List<HostSpan> hostSpans,
                     List<HostThread> threads, List<Collective> collectives, List<ProcessGroup> groups,
                     long[] unmatchedLaunchNs, boolean hostOpsPresent, boolean truncated,
                     List<String> warnings, List<StreamWait> streamWaits,
                     List<ReferenceOverlap> referenceOverlap, MemorySamples memory,
                     String commUnclassified, List<Annotation> annotations, List<HostSpan> hostRanges,
                     FlightRecorderDump flightRecorder) {
        this(source, format, rank, rankSource, worldSize, lanes, device, hostSpans, threads, collectives, groups,
                unmatchedLaunchNs, hostOpsPresent, truncated, warnings, streamWaits, referenceOverlap, memory,
                commUnclassified, annotations, hostRanges, flightRecorder, Map.of());
    }

    /** A trace without {@link #hostRanges() host ranges} (a format or a test that records none). */
    public RankTrace(String source, TraceFormat format, int rank, RankSource rankSource, int worldSize,
                     List<Lane> lanes, DeviceIntervals device, List<HostSpan> hostSpans,
                     List<HostThread> threads, List<Collective> collectives, List<ProcessGroup> groups,
                     long[] unmatchedLaunchNs, boolean hostOpsPresent, boolean truncated,
                     List<String> warnings, List<StreamWait> streamWaits,
                     List<ReferenceOverlap> referenceOverlap, MemorySamples memory,
                     String commUnclassified, List<Annotation> annotations) {
        this(source, format, rank, rankSource, worldSize, lanes, device, hostSpans, threads, collectives, groups,
                unmatchedLaunchNs, hostOpsPresent, truncated, warnings, streamWaits, referenceOverlap, memory,
                commUnclassified, annotations, List.of(), null);
    }

    /** A trace that is no Flight Recorder dump ({@link #flightRecorder()} {@code null}). */
    public RankTrace(String source, TraceFormat format, int rank, RankSource rankSource, int worldSize,
                     List<Lane> lanes, DeviceIntervals device, List<HostSpan> hostSpans,
                     List<HostThread> threads, List<Collective> collectives, List<ProcessGroup> groups,
                     long[] unmatchedLaunchNs, boolean hostOpsPresent, boolean truncated,
                     List<String> warnings, List<StreamWait> streamWaits,
                     List<ReferenceOverlap> referenceOverlap, MemorySamples memory,
                     String commUnclassified, List<Annotation> annotations, List<HostSpan> hostRanges) {
        this(source, format, rank, rankSource, worldSize, lanes, device, hostSpans, threads, collectives, groups,
                unmatchedLaunchNs, hostOpsPresent, truncated, warnings, streamWaits, referenceOverlap, memory,
                commUnclassified, annotations, hostRanges, null);
    }

    /**
     * This trace under another rank id (a file name or {@code --rank-regex} naming it); every other
     * component is this trace's.
     */
    public RankTrace withRank(int newRank, RankSource newRankSource) {
        return new RankTrace(source, format, newRank, newRankSource, worldSize, lanes, device, hostSpans, threads,
                collectives, groups, unmatchedLaunchNs, hostOpsPresent, truncated, warnings, streamWaits,
                referenceOverlap, memory, commUnclassified, annotations, hostRanges, flightRecorder, deviceNames);
    }

    /** This trace marked as one whose communication cannot be classified, and why. */
    public RankTrace withCommUnclassified(String why) {
        return new RankTrace(source, format, rank, rankSource, worldSize, lanes, device, hostSpans, threads,
                collectives, groups, unmatchedLaunchNs, hostOpsPresent, truncated, warnings, streamWaits,
                referenceOverlap, memory, why, annotations, hostRanges, flightRecorder, deviceNames);
    }

    /** This trace with another job size ({@code -1}: unknown); every other component is this trace's. */
    public RankTrace withWorldSize(int newWorldSize) {
        return new RankTrace(source, format, rank, rankSource, newWorldSize, lanes, device, hostSpans, threads,
                collectives, groups, unmatchedLaunchNs, hostOpsPresent, truncated, warnings, streamWaits,
                referenceOverlap, memory, commUnclassified, annotations, hostRanges, flightRecorder, deviceNames);
    }

    /** This trace with {@code newCollectives} (same ids, same order); every other component is this trace's. */
    public RankTrace withCollectives(List<Collective> newCollectives) {
        return new RankTrace(source, format, rank, rankSource, worldSize, lanes, device, hostSpans, threads,
                newCollectives, groups, unmatchedLaunchNs, hostOpsPresent, truncated, warnings, streamWaits,
                referenceOverlap, memory, commUnclassified, annotations, List.of(), null, deviceNames);
    }

    /** This trace as read from {@code newSource}; every other component is this trace's. */
    public RankTrace withSource(String newSource) {
        return new RankTrace(newSource, format, rank, rankSource, worldSize, lanes, device, hostSpans, threads,
                collectives, groups, unmatchedLaunchNs, hostOpsPresent, truncated, warnings, streamWaits,
                referenceOverlap, memory, commUnclassified, annotations, hostRanges, flightRecorder, deviceNames);
    }

    /** This trace with {@code newWarnings} in place of its warnings; every other component is this trace's. */
    public RankTrace withWarnings(List<String> newWarnings) {
        return new RankTrace(source, format, rank, rankSource, worldSize, lanes, device, hostSpans, threads,
                collectives, groups, unmatchedLaunchNs, hostOpsPresent, truncated, newWarnings, streamWaits,
                referenceOverlap, memory, commUnclassified, annotations, hostRanges, flightRecorder, deviceNames);
    }

    /** This trace with one more warning line at the end; every other component is this trace's. */
    public RankTrace withWarning(String warning) {
        List<String> more = new java.util.ArrayList<>(warnings);
        more.add(warning);
        return withWarnings(more);
    }

    /** This trace with {@code newMemory} as its allocator samples; every other component is this trace's. */
    public RankTrace withMemory(MemorySamples newMemory) {
        return new RankTrace(source, format, rank, rankSource, worldSize, lanes, device, hostSpans, threads,
                collectives, groups, unmatchedLaunchNs, hostOpsPresent, truncated, warnings, streamWaits,
                referenceOverlap, newMemory, commUnclassified, annotations, hostRanges, flightRecorder, deviceNames);
    }

    /** This trace with {@code newAnnotations} as its user annotation ranges; every other component is this trace's. */
    public RankTrace withAnnotations(List<Annotation> newAnnotations) {
        return new RankTrace(source, format, rank, rankSource, worldSize, lanes, device, hostSpans, threads,
                collectives, groups, unmatchedLaunchNs, hostOpsPresent, truncated, warnings, streamWaits,
                referenceOverlap, memory, commUnclassified, newAnnotations, hostRanges, flightRecorder, deviceNames);
    }

    /** This trace with {@code newHostRanges} as its host ranges; every other component is this trace's. */
    public RankTrace withHostRanges(List<HostSpan> newHostRanges) {
        return new RankTrace(source, format, rank, rankSource, worldSize, lanes, device, hostSpans, threads,
                collectives, groups, unmatchedLaunchNs, hostOpsPresent, truncated, warnings, streamWaits,
                referenceOverlap, memory, commUnclassified, annotations, newHostRanges, flightRecorder, deviceNames);
    }

    /** This trace declaring {@code newGroups}; every other component is this trace's. */
    public RankTrace withGroups(List<ProcessGroup> newGroups) {
        return new RankTrace(source, format, rank, rankSource, worldSize, lanes, device, hostSpans, threads,
                collectives, newGroups, unmatchedLaunchNs, hostOpsPresent, truncated, warnings, streamWaits,
                referenceOverlap, memory, commUnclassified, annotations, hostRanges, flightRecorder, deviceNames);
    }

    /** This trace with a Flight Recorder dump's own content; every other component is this trace's. */
    public RankTrace withFlightRecorder(FlightRecorderDump dump) {
        return new RankTrace(source, format, rank, rankSource, worldSize, lanes, device, hostSpans, threads,
                collectives, groups, unmatchedLaunchNs, hostOpsPresent, truncated, warnings, streamWaits,
                referenceOverlap, memory, commUnclassified, annotations, hostRanges, dump, deviceNames);
    }

    /** This trace with {@code names} as the device models it lists; every other component is this trace's. */
    public RankTrace withDeviceNames(Map<Integer, String> names) {
        return new RankTrace(source, format, rank, rankSource, worldSize, lanes, device, hostSpans, threads,
                collectives, groups, unmatchedLaunchNs, hostOpsPresent, truncated, warnings, streamWaits,
                referenceOverlap, memory, commUnclassified, annotations, hostRanges, flightRecorder, names);
    }

    /**
     * The model of the device(s) this rank ran on (metrics.md §10 "device model"), or {@code null} when
     * the trace does not say: the listed names of its lanes' devices, several different ones joined
     * sorted with " + ". A rank whose lanes' devices are not listed (or that has no lanes) takes the
     * machine's model only when every listed device has the same one; otherwise it is unknown.
     */
    public String deviceModel() {
        if (deviceNames.isEmpty()) {
            return null;
        }
        TreeSet<String> used = new TreeSet<>();
        for (Lane l : lanes) {
            String name = deviceNames.get(l.device());
            if (name != null) {
                used.add(name);
            }
        }
        if (used.isEmpty()) {
            TreeSet<String> all = new TreeSet<>(deviceNames.values());
            return all.size() == 1 ? all.first() : null;
        }
        return String.join(" + ", used);
    }

    /** Cleans device model names as read: blank or absent names are left out (unknown is not a model). */
    public static Map<Integer, String> deviceNames(Map<Integer, String> read) {
        Map<Integer, String> out = new TreeMap<>();
        read.forEach((id, name) -> {
            if (id != null && name != null && !name.isBlank()) {
                out.put(id, name.strip());
            }
        });
        return out;
    }

    /** True when the rank recorded no device activity at all (a CPU-only trace). */
    public boolean hasDeviceActivity() {
        return device.size() > 0;
    }
}
