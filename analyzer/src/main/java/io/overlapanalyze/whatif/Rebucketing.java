package io.overlapanalyze.whatif;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;

/**
 * Groups gradient units into buckets for a cap, with DDP's rule: units are added in backward
 * order and a bucket closes as soon as it holds at least the cap; the last bucket holds the rest.
 *
 * <p>Splitting. A divisible unit (a scenario block) larger than the cap has its bytes become
 * ready evenly over its compute {@code [start, ready]}: the bucket it completes closes at the
 * instant its cap-th byte is produced (rounded down to the ns), and the rest flows into the next
 * buckets. Indivisible units (kernels, layers) and units no larger than the cap are never split:
 * such a unit larger than the cap is a bucket of its own, as a parameter larger than the cap is in DDP.
 */
public final class Rebucketing {
    private Rebucketing() {
    }

    public static List<ReplayBucket> byCap(List<GradUnit> units, long capBytes) {
        if (capBytes <= 0) {
            throw new IllegalArgumentException("bucket cap must be > 0, got " + capBytes);
        }
        List<ReplayBucket> out = new ArrayList<>();
        long open = 0;
        long lastReady = 0;
        for (GradUnit u : units) {
            if (u.bytes() == 0) {
                continue;
            }
            if (u.bytes() <= capBytes || !u.divisible()) {
                open += u.bytes();
                lastReady = u.readyNs();
                if (open >= capBytes) {
                    out.add(ReplayBucket.modelled(lastReady, open));
                    open = 0;
                }
                continue;
            }
            long consumed = 0;
            while (u.bytes() - consumed >= capBytes - open) {
                consumed += capBytes - open;
                long at = u.startNs() + scale(u.readyNs() - u.startNs(), consumed, u.bytes());
                out.add(ReplayBucket.modelled(at, capBytes));
                open = 0;
            }
            if (consumed < u.bytes()) {
                open += u.bytes() - consumed;
                lastReady = u.readyNs();
            }
        }
        if (open > 0) {
            out.add(ReplayBucket.modelled(lastReady, open));
        }
        return out;
    }

    /** {@code floor(value × num / den)} exactly (the product can exceed a long). */
    static long scale(long value, long num, long den) {
        long hi = Math.multiplyHigh(value, num);
        long lo = value * num;
        if ((hi == 0 && lo >= 0) || (hi == -1 && lo < 0)) {
            return Math.floorDiv(lo, den);
        }
        return BigInteger.valueOf(value).multiply(BigInteger.valueOf(num)).divide(BigInteger.valueOf(den))
                .longValueExact();
    }

    /**
     * Splits {@code bytes} over compute pieces in proportion to their lengths: the units a bucket
     * becomes when its gradients are assumed to be ready evenly over its compute. Exact: the
     * units' bytes add up to {@code bytes}. No pieces (or only empty ones): one unit at {@code readyNs}.
     */
    public static List<GradUnit> spread(List<Span> pieces, long bytes, long readyNs, boolean divisible) {
        long total = 0;
        for (Span p : pieces) {
            total += p.lengthNs();
        }
        if (total == 0) {
            return List.of(new GradUnit(readyNs, readyNs, bytes, divisible));
        }
        List<GradUnit> out = new ArrayList<>(pieces.size());
        long cumulative = 0;
        long given = 0;
        for (Span p : pieces) {
            cumulative += p.lengthNs();
            long upTo = scale(bytes, cumulative, total);
            if (upTo > given) {
                out.add(new GradUnit(p.startNs(), p.endNs(), upTo - given, divisible));
                given = upTo;
            }
        }
        return out;
    }
}
