package io.overlapanalyze.bench;

import io.overlapanalyze.formats.TraceFormats;
import io.overlapanalyze.analysis.AnalysisOptions;
import io.overlapanalyze.analysis.rank.RankAnalyzer;
import io.overlapanalyze.formats.input.InputStreams;
import io.overlapanalyze.model.RankTrace;
import io.overlapanalyze.report.RankReport;

import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * End-to-end parse + analyse benchmark, run by {@code bench/kineto-throughput.sh} and
 * {@code bench/run.sh} (not a test): reads a trace N times, analyses it, and prints wall time per
 * run, MB/s of uncompressed JSON,
 * events retained, and the heap in use after a full GC with the rank model still reachable
 * (the retained size), next to the JVM's peak heap (which includes garbage the GC had not yet
 * collected).
 *
 * <p>Usage (after {@code mvn -Pbench -DskipTests package}): {@code java -cp
 * cli/target/overlap-analyze.jar:bench/java/target/overlap-analyze-bench.jar
 * io.overlapanalyze.bench.ReadBenchmark FILE [RUNS]}
 */
public final class ReadBenchmark {
    private ReadBenchmark() {
    }

    private static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 1) {
            System.err.println("usage: ReadBenchmark FILE [RUNS]");
            System.exit(2);
        }
        Path file = Path.of(args[0]);
        int runs = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        long bytes = uncompressedBytes(file);
        double[] seconds = new double[runs];
        double[] cpuSeconds = new double[runs];
        long retained = 0;
        int intervals = 0;
        int steps = 0;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            pool.resetPeakUsage();
        }
        for (int r = 0; r < runs; r++) {
            long t0 = System.nanoTime();
            long c0 = processCpuNanos();
            List<RankTrace> traces = TraceFormats.standard().read(file);
            RankReport report = RankAnalyzer.analyze(traces.get(0), AnalysisOptions.defaults());
            seconds[r] = (System.nanoTime() - t0) / 1e9;
            cpuSeconds[r] = (processCpuNanos() - c0) / 1e9;
            intervals = traces.get(0).device().size();
            steps = report.steps().size();
            if (r == runs - 1) {
                retained = usedAfterGc();
                // Keep the model reachable until it has been measured.
                if (traces.get(0).device().size() < 0) {
                    System.out.println(report);
                }
            }
        }
        double[] sorted = seconds.clone();
        Arrays.sort(sorted);
        double median = sorted[runs / 2];
        double best = sorted[0];
        double[] cpuSorted = cpuSeconds.clone();
        Arrays.sort(cpuSorted);
        long peakHeap = 0;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP) {
                peakHeap += pool.getPeakUsage().getUsed();
            }
        }
        double mb = bytes / 1e6;
        System.out.printf(Locale.ROOT, "file=%s uncompressedMB=%.1f deviceIntervals=%d steps=%d runs=%d%n",
                file.getFileName(), mb, intervals, steps, runs);
        System.out.printf(Locale.ROOT, "seconds: median=%.3f best=%.3f all=%s%n", median, best, Arrays.toString(seconds));
        System.out.printf(Locale.ROOT, "throughput: median=%.0f MB/s best=%.0f MB/s%n", mb / median, mb / best);
        // The process's CPU (every thread: the reader's scan threads, GC, JIT), not the calling thread's.
        System.out.printf(Locale.ROOT, "cpu seconds (process): median=%.3f best=%.3f -> %.0f MB per CPU-second (median)%n",
                cpuSorted[runs / 2], cpuSorted[0], mb / cpuSorted[runs / 2]);
        System.out.printf(Locale.ROOT, "heap: retainedAfterGc=%.1f MB peakUsed=%.1f MB max=%.0f MB%n",
                retained / 1e6, peakHeap / 1e6, Runtime.getRuntime().maxMemory() / 1e6);
    }

    private static long uncompressedBytes(Path file) throws IOException {
        long n = 0;
        byte[] buf = new byte[1 << 16];
        try (InputStream in = InputStreams.open(file)) {
            for (int k; (k = in.read(buf)) > 0; ) {
                n += k;
            }
        }
        return n;
    }

    private static long usedAfterGc() {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        Runtime rt = Runtime.getRuntime();
        return rt.totalMemory() - rt.freeMemory();
    }
}
