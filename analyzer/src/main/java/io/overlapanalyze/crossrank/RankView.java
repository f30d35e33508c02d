package io.overlapanalyze.crossrank;

import io.overlapanalyze.model.Collective;
import io.overlapanalyze.model.DeviceIntervals;
import io.overlapanalyze.model.HostSpan;
import io.overlapanalyze.model.HostSpanKind;
import io.overlapanalyze.model.HostThread;
import io.overlapanalyze.model.RankTrace;
import io.overlapanalyze.model.Time;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Per-rank lookups the cross-rank analyses share: a collective's device span, its step, and the
 * role of the host thread that issued it.
 *
 * <p>Thread roles. Thread ids differ between processes, so ranks cannot be compared by id. The
 * role is: {@code main} for the thread that records the steps ({@code ProfilerStep#N}), then
 * {@code 2nd}, {@code 3rd}... for the other issuing threads in the order of their first
 * collective. Two ranks issuing position k from different roles is the hint metrics.md §8 asks
 * for: different threads usually mean different process groups.
 */
final class RankView {
    final int rank;
    final RankTrace trace;
    private final List<HostSpan> steps;
    private final Map<Long, String> roles = new HashMap<>();

    RankView(RankTrace trace) {
        this.rank = trace.rank();
        this.trace = trace;
        List<HostSpan> s = new ArrayList<>();
        for (HostSpan span : trace.hostSpans()) {
            if (span.kind() == HostSpanKind.STEP) {
                s.add(span);
            }
        }
        s.sort(Comparator.comparingLong(HostSpan::startNs));
        this.steps = s;
        long main = s.isEmpty() ? -1 : s.get(0).threadId();
        if (main >= 0) {
            roles.put(main, "main");
        }
        List<Collective> byEnqueue = new ArrayList<>(trace.collectives());
        byEnqueue.sort(Comparator.comparingLong(c -> c.enqueueNs() == Time.UNKNOWN ? Long.MAX_VALUE : c.enqueueNs()));
        int next = main >= 0 ? 2 : 1;
        for (Collective c : byEnqueue) {
            if (c.threadId() >= 0 && !roles.containsKey(c.threadId())) {
                roles.put(c.threadId(), ordinal(next++));
            }
        }
    }

    private static String ordinal(int n) {
        return switch (n) {
            case 1 -> "1st";
            case 2 -> "2nd";
            case 3 -> "3rd";
            default -> n + "th";
        };
    }

    /** "main thread", "2nd thread (pt_autograd_0)"...; {@code null} when the thread is unknown. */
    String threadLabel(long threadId) {
        if (threadId < 0) {
            return null;
        }
        String role = roles.getOrDefault(threadId, "other");
        String name = null;
        for (HostThread t : trace.threads()) {
            if (t.threadId() == threadId && !t.names().isEmpty()) {
                name = t.names().get(0);
            }
        }
        return role + " thread" + (name == null ? "" : " (" + name + ")");
    }

    /** Device start of the collective's first interval, or {@link Time#UNKNOWN} when it has none. */
    long start(Collective c) {
        int[] iv = c.deviceIntervals();
        if (iv.length == 0) {
            return Time.UNKNOWN;
        }
        DeviceIntervals d = trace.device();
        long s = Long.MAX_VALUE;
        for (int i : iv) {
            s = Math.min(s, d.start(i));
        }
        return s;
    }

    /** Latest device end of the collective's intervals, or {@link Time#UNKNOWN}. */
    long end(Collective c) {
        int[] iv = c.deviceIntervals();
        if (iv.length == 0) {
            return Time.UNKNOWN;
        }
        DeviceIntervals d = trace.device();
        long e = Long.MIN_VALUE;
        for (int i : iv) {
            e = Math.max(e, d.end(i));
        }
        return e;
    }

    boolean timed(Collective c) {
        return c.deviceIntervals().length > 0;
    }

    /** The step whose host span holds the collective's enqueue (else its first launch), or {@code null}. */
    String step(Collective c) {
        long t = c.enqueueNs();
        if (t == Time.UNKNOWN && c.deviceIntervals().length > 0) {
            t = trace.device().launchNs(c.deviceIntervals()[0]);
        }
        if (t == Time.UNKNOWN) {
            return null;
        }
        int lo = 0;
        int hi = steps.size() - 1;
        int found = -1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (steps.get(mid).startNs() <= t) {
                found = mid;
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        return found >= 0 && steps.get(found).contains(t) ? steps.get(found).name() : null;
    }
}
