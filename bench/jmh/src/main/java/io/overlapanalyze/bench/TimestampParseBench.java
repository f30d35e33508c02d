package io.overlapanalyze.bench;

import io.overlapanalyze.formats.json.DecimalMicros;
import java.math.BigDecimal;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Timestamp parsing: the reader's exact, allocation-free {@code DecimalMicros.toNanos} on the
 * char slices Jackson hands out, against {@code Double.parseDouble} (fast, inexact at epoch µs)
 * and {@code BigDecimal} (exact, allocates). Inputs: Kineto's relative µs with 3 decimals and
 * epoch µs as older traces write them.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class TimestampParseBench {
    private static final int N = 1024;
    private char[][] texts;

    @Setup
    public void setup() {
        texts = new char[N][];
        java.util.SplittableRandom r = new java.util.SplittableRandom(1);
        for (int i = 0; i < N; i++) {
            String s = i % 2 == 0
                    ? String.format(java.util.Locale.ROOT, "%d.%03d", r.nextLong(100_000_000L), r.nextInt(1000))
                    : String.format(java.util.Locale.ROOT, "%d.%03d", 1_712_195_495_520_870L + r.nextLong(1_000_000_000L),
                            r.nextInt(1000));
            texts[i] = s.toCharArray();
        }
    }

    @Benchmark
    @OperationsPerInvocation(N)
    public long decimalMicros() {
        long sum = 0;
        for (char[] t : texts) {
            sum += DecimalMicros.toNanos(t, 0, t.length);
        }
        return sum;
    }

    @Benchmark
    @OperationsPerInvocation(N)
    public double parseDouble() {
        double sum = 0;
        for (char[] t : texts) {
            sum += Double.parseDouble(new String(t));
        }
        return sum;
    }

    @Benchmark
    @OperationsPerInvocation(N)
    public long bigDecimal() {
        long sum = 0;
        for (char[] t : texts) {
            sum += new BigDecimal(t, 0, t.length).movePointRight(3).longValue();
        }
        return sum;
    }
}
