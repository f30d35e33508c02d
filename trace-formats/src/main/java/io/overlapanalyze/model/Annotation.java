package io.overlapanalyze.model;

/**
 * One user annotation range ({@code record_function} label): the unit of the micro-batch overlap
 * analysis (which communication of one annotation ran under the compute of another).
 *
 * <p>Two forms, by where the trace recorded the range:
 * <ul>
 *   <li>on the device ({@code lane >= 0}): a GPU-side range {@code [startNs, endNs)} in device time
 *       on lane {@code lane} (Kineto's {@code gpu_user_annotation}); its device work is the work of
 *       that lane inside the range, clipped to it; {@code intervals} is empty;</li>
 *   <li>on the host ({@code lane == -1}): a host range {@code [startNs, endNs)} in host time on
 *       thread {@code threadId}; its device work is exactly {@code intervals}, the device intervals
 *       whose host launch lies inside the range on that thread.</li>
 * </ul>
 *
 * @param name      the user's label (interned by the reader: equal names are one string)
 * @param startNs   range start (device time when on a lane, host time otherwise)
 * @param endNs     range end
 * @param lane      the device lane index, or {@code -1} for a host range
 * @param threadId  the host thread of a host range; {@code -1} for a device range
 * @param intervals the device intervals a host range launched (indexes into the rank's
 *                  {@link DeviceIntervals}, ascending); empty for a device range. Taken over as the
 *                  reader built it, not copied (a rank has many annotations over millions of
 *                  intervals), and never written afterwards; {@code equals} sees it by identity, and
 *                  nothing compares annotations by value
 */
public record Annotation(String name, long startNs, long endNs, int lane, long threadId, int[] intervals) {
    public Annotation {
        intervals = intervals == null ? new int[0] : intervals;
    }

    /** A GPU-side range on {@code lane}, in device time. */
    public static Annotation onDevice(String name, long startNs, long endNs, int lane) {
        return new Annotation(name, startNs, endNs, lane, -1, new int[0]);
    }

    /** A host range on {@code threadId} and the device intervals launched inside it. */
    public static Annotation onHost(String name, long startNs, long endNs, long threadId, int[] intervals) {
        return new Annotation(name, startNs, endNs, -1, threadId, intervals);
    }

    /** True for a GPU-side range (device time, on a lane). */
    public boolean onDevice() {
        return lane >= 0;
    }

    /** This range with its lane and intervals renumbered (a split into one rank per device). */
    public Annotation withPlacement(int newLane, int[] newIntervals) {
        return new Annotation(name, startNs, endNs, newLane, threadId, newIntervals);
    }
}
