package io.overlapanalyze.formats.ascend;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The step an Overlap Analysis lane event goes to: the first step, in step order, whose device
 * range {@code [start, end)} holds the event's start; checked against that rule read plainly, on
 * ranges that follow each other, overlap (pipelined steps), share starts, are empty, come out of
 * start order, or cover everything.
 */
class FirstContainingTest {
    @Test
    void givesTheFirstRangeInStepOrderThatHoldsTheTime() {
        SplittableRandom r = new SplittableRandom(3);
        for (int round = 0; round < 60; round++) {
            List<long[]> ranges = new ArrayList<>();
            int n = 1 + r.nextInt(40);
            long at = 0;
            for (int i = 0; i < n; i++) {
                at += r.nextInt(3) == 0 ? -r.nextInt(30) : r.nextInt(50); // sometimes earlier than the last
                long length = r.nextInt(5) == 0 ? 0 : r.nextInt(r.nextBoolean() ? 40 : 200);
                ranges.add(new long[] {at, at + length});
            }
            if (round % 5 == 0) {
                ranges.add(r.nextInt(ranges.size() + 1), new long[] {Long.MIN_VALUE, Long.MAX_VALUE});
            }
            RankAssembler.FirstContaining first = new RankAssembler.FirstContaining(ranges);
            for (long t = -100; t < at + 300; t++) {
                assertEquals(plainly(ranges, t), first.at(t), "time " + t + ", round " + round);
            }
        }
    }

    private static int plainly(List<long[]> ranges, long t) {
        for (int i = 0; i < ranges.size(); i++) {
            if (ranges.get(i)[0] <= t && t < ranges.get(i)[1]) {
                return i;
            }
        }
        return -1;
    }
}
