package io.overlapanalyze.report;

import java.util.List;

/**
 * Why the device was idle (metrics.md §11). Each idle gap is split by the device work that starts
 * when it ends: before that work's host launch the device waited for the host ({@code hostNs}),
 * after it the work was issued but had not started ({@code launchedNs}: a stream or event
 * dependency, launch latency); no launch time known: {@code unknownNs}. The three add up to the
 * step's {@code idleNs}. JSON field names are a contract: do not rename.
 *
 * @param hostNs       the device waited for the host to issue work
 * @param launchedNs   the work had been issued but did not start yet
 * @param unknownNs    no launch time known for the work that ended the gap
 * @param hostActivity the largest shares of {@code hostNs} by what the host thread was doing, largest first
 */
public record IdleBreakdown(long hostNs, long launchedNs, long unknownNs, List<HostActivity> hostActivity)
        implements java.io.Serializable {
    public IdleBreakdown {
        hostActivity = hostActivity == null ? List.of() : List.copyOf(hostActivity);
    }

    /** The sum of the three parts: the idle time they split. */
    public long totalNs() {
        return hostNs + launchedNs + unknownNs;
    }
}
