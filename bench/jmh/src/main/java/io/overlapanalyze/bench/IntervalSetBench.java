package io.overlapanalyze.bench;

import io.overlapanalyze.analysis.IntervalSet;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Interval algebra on the sizes of one big rank: union of n raw intervals (time-ordered as in a
 * trace, or shuffled), and the intersection length of a compute and a comm union (the overlap
 * metric).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class IntervalSetBench {
    @Param({"100000", "1000000"})
    public int n;

    private long[] orderedStarts;
    private long[] orderedEnds;
    private long[] shuffledStarts;
    private long[] shuffledEnds;
    private IntervalSet compute;
    private IntervalSet comm;

    @Setup
    public void setup() {
        SplittableRandom r = new SplittableRandom(7);
        orderedStarts = new long[n];
        orderedEnds = new long[n];
        long t = 0;
        for (int i = 0; i < n; i++) {
            t += r.nextLong(2_000); // gaps and overlaps, like kernels on two streams
            orderedStarts[i] = t;
            orderedEnds[i] = t + 500 + r.nextLong(5_000);
        }
        shuffledStarts = orderedStarts.clone();
        shuffledEnds = orderedEnds.clone();
        for (int i = n - 1; i > 0; i--) {
            int j = r.nextInt(i + 1);
            long s = shuffledStarts[i];
            shuffledStarts[i] = shuffledStarts[j];
            shuffledStarts[j] = s;
            long e = shuffledEnds[i];
            shuffledEnds[i] = shuffledEnds[j];
            shuffledEnds[j] = e;
        }
        compute = IntervalSet.union(orderedStarts.clone(), orderedEnds.clone(), n);
        long[] cs = new long[n / 4];
        long[] ce = new long[n / 4];
        for (int i = 0; i < cs.length; i++) {
            cs[i] = orderedStarts[i * 4] + 250;
            ce[i] = cs[i] + 3_000;
        }
        comm = IntervalSet.union(cs, ce, cs.length);
    }

    @Benchmark
    public IntervalSet unionOrdered() {
        return IntervalSet.union(orderedStarts, orderedEnds, n); // copies its input
    }

    @Benchmark
    public IntervalSet unionShuffled() {
        return IntervalSet.union(shuffledStarts, shuffledEnds, n);
    }

    @Benchmark
    public long intersectionLength() {
        return compute.intersectionLength(comm);
    }

    @Benchmark
    public IntervalSet intersect() {
        return compute.intersect(comm);
    }
}
