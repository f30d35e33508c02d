package io.overlapanalyze.whatif;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import org.junit.jupiter.api.Test;

class RebucketingTest {

    private static ReplayBucket b(long ready, long bytes) {
        return ReplayBucket.modelled(ready, bytes);
    }

    @Test
    void aBucketClosesOnceItHoldsAtLeastTheCap() {
        List<GradUnit> units = List.of(new GradUnit(0, 10, 4, false), new GradUnit(10, 20, 4, false),
                new GradUnit(20, 30, 4, false), new GradUnit(30, 40, 4, false), new GradUnit(40, 50, 4, false));
        assertEquals(List.of(b(30, 12), b(50, 8)), Rebucketing.byCap(units, 10));
        assertEquals(List.of(b(20, 8), b(40, 8), b(50, 4)), Rebucketing.byCap(units, 8));
        assertEquals(List.of(b(50, 20)), Rebucketing.byCap(units, 100));
    }

    @Test
    void indivisibleUnitsLargerThanTheCapAreBucketsOfTheirOwn() {
        List<GradUnit> units = List.of(new GradUnit(0, 10, 2, false), new GradUnit(10, 20, 50, false),
                new GradUnit(20, 30, 2, false));
        assertEquals(List.of(b(20, 52), b(30, 2)), Rebucketing.byCap(units, 10));
    }

    @Test
    void divisibleUnitsBecomeReadyEvenlyOverTheirCompute() {
        // The seed's first two blocks: 25 MiB produced evenly over [0, 2 ms] and over [2, 4 ms], cap
        // 10 MiB: the cap is reached at 10, 20, 30, 40, 50 MiB = 0.8, 1.6, 2.4, 3.2, 4.0 ms.
        long mib = 1 << 20;
        List<GradUnit> units = List.of(new GradUnit(0, 2_000_000, 25 * mib, true),
                new GradUnit(2_000_000, 4_000_000, 25 * mib, true));
        assertEquals(List.of(b(800_000, 10 * mib), b(1_600_000, 10 * mib), b(2_400_000, 10 * mib),
                b(3_200_000, 10 * mib), b(4_000_000, 10 * mib)), Rebucketing.byCap(units, 10 * mib));
    }

    @Test
    void spreadGivesBytesInProportionToTimeExactly() {
        // 100 bytes over 1 + 2 + 3 ns of kernels: cumulative floor(100 x 1/6, 3/6, 6/6) = 16, 50, 100.
        List<GradUnit> units = Rebucketing.spread(List.of(new Span(0, 1), new Span(1, 3), new Span(5, 8)), 100, 8,
                false);
        assertEquals(List.of(new GradUnit(0, 1, 16, false), new GradUnit(1, 3, 34, false),
                new GradUnit(5, 8, 50, false)), units);
        assertEquals(List.of(new GradUnit(7, 7, 100, true)), Rebucketing.spread(List.of(), 100, 7, true));
    }

    @Test
    void scaleIsExactBeyondLongProducts() {
        // 3e9 x 4e9 = 1.2e19 overflows a long; / 7 = 1714285714285714285.7...
        assertEquals(1_714_285_714_285_714_285L, Rebucketing.scale(3_000_000_000L, 4_000_000_000L, 7));
        assertEquals(428_571_428_571_428_571L, Rebucketing.scale(3_000_000_000L, 1_000_000_000L, 7));
    }
}
