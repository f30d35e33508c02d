package io.overlapanalyze.bench;

import io.overlapanalyze.formats.TraceFormats;
import io.overlapanalyze.analysis.AnalysisOptions;
import io.overlapanalyze.analysis.rank.RankAnalyzer;
import io.overlapanalyze.formats.nsys.NsysReader;
import io.overlapanalyze.model.DeviceKind;
import io.overlapanalyze.model.RankTrace;
import io.overlapanalyze.report.RankReport;
import io.overlapanalyze.report.StepReport;
import io.overlapanalyze.synth.AscendScenarioWriter;
import io.overlapanalyze.synth.Durations;
import io.overlapanalyze.synth.KinetoScenarioWriter;
import io.overlapanalyze.synth.NsysScenarioWriter;
import io.overlapanalyze.synth.Scenario;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * Reading benchmark of the Nsight and Ascend readers (issue 8, acceptance 4 and 6), run by
 * {@code bench/nsys-read.sh} and {@code bench/ascend-read.sh}; not a unit test, nothing asserts on time.
 *
 * <ul>
 *   <li>{@code nsys DIR STEPS SMALL REPEATS}: writes (once) a synthetic Nsight export of {@link #scenario}
 *       with STEPS steps and a small copy with SMALL steps into DIR, reads the big one REPEATS times with
 *       {@link NsysReader} (wall and process CPU time, kernel rows/s), then verifies it: the per-step
 *       reports of the analysis of the big export equal those of the small copy for the steps they
 *       share.</li>
 *   <li>{@code ascend DIR STEPS SMALL REPEATS [ascend|kineto]}: the same scenario as a torch_npu capture
 *       ({@code trace_view.json}) and as a Kineto trace. With a reader named, that one is read and
 *       analysed REPEATS times as the CLI does (the front door {@link TraceFormats}, {@link RankAnalyzer}), and its
 *       medians printed (the script runs each reader in its own JVMs and compares MB/s). Without: the
 *       Ascend analysis is verified against its small copy, and against the Kineto analysis of the
 *       same scenario.</li>
 * </ul>
 * Generated files stay in DIR (the scripts delete it).
 */
public final class DbReadBench {
    private DbReadBench() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length >= 5 && args[4].equals("0")) {
            System.out.println("generating only");
        }
        if (args.length < 5 || !(args[0].equals("nsys") || args[0].equals("ascend"))
                || args.length > 5 && !(args[0].equals("ascend") && List.of("ascend", "kineto").contains(args[5]))) {
            System.err.println("usage: DbReadBench nsys|ascend DIR STEPS SMALL REPEATS [ascend|kineto]");
            System.exit(2);
        }
        Path dir = Path.of(args[1]);
        int steps = Integer.parseInt(args[2]);
        int small = Integer.parseInt(args[3]);
        int repeats = Integer.parseInt(args[4]);
        Files.createDirectories(dir);
        System.out.println("machine: " + Runtime.getRuntime().availableProcessors() + " CPUs; jvm: "
                + System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version")
                + "; max heap " + (Runtime.getRuntime().maxMemory() >> 20) + " MiB");
        boolean ok = args[0].equals("nsys") ? nsys(dir, steps, small, repeats)
                : ascend(dir, steps, small, repeats, args.length > 5 ? args[5] : null);
        printPeakHeap();
        if (!ok) {
            System.out.println("VERIFICATION FAILED");
            System.exit(1);
        }
    }

    /** One rank, 2,504 kernels per step: forward 2 × 500, backward 3 × 500 + 3 NCCL all-reduces, 1 optimizer kernel. */
    static Scenario scenario(int steps) {
        List<Scenario.Block> forward = List.of(
                new Scenario.Block("aten::mm", null, Durations.us(1500), 500, null),
                new Scenario.Block("aten::mm", null, Durations.us(1500), 500, null));
        List<Scenario.Block> backward = List.of(
                new Scenario.Block(null, null, Durations.us(2000), 500, Scenario.Bucket.of(26_214_400L, 900)),
                new Scenario.Block(null, null, Durations.us(2000), 500, Scenario.Bucket.of(26_214_400L, 900)),
                new Scenario.Block(null, null, Durations.us(2000), 500, Scenario.Bucket.of(26_214_400L, 900)));
        return new Scenario("bench", "read benchmark", 0, 2, steps, 1, forward, backward,
                Durations.us(400), Durations.us(100), 0, 1);
    }

    private static boolean nsys(Path dir, int steps, int small, int repeats) throws Exception {
        Path big = dir.resolve("bench-" + steps + ".sqlite");
        Path copy = dir.resolve("bench-" + small + ".sqlite");
        generateNsys(big, steps);
        generateNsys(copy, small);
        if (repeats == 0) {
            return true; // generate only
        }
        RankTrace last = null;
        double[] wall = new double[repeats];
        for (int r = 0; r < repeats; r++) {
            long cpu0 = processCpuNs();
            long t0 = System.nanoTime();
            List<RankTrace> traces = new NsysReader().read(big);
            long ns = System.nanoTime() - t0;
            long cpu = processCpuNs() - cpu0;
            long kernels = kernels(traces);
            wall[r] = ns / 1e9;
            System.out.printf(Locale.ROOT, "read %d: %,d kernel rows (%,d device intervals, %d rank(s)) in %.2f s wall"
                            + " (%.2f s process CPU) = %,.0f kernel rows/s%n", r + 1, kernels,
                    traces.get(0).device().size(), traces.size(), ns / 1e9, cpu / 1e9, kernels / (ns / 1e9));
            last = traces.get(0);
        }
        double[] sorted = wall.clone();
        Arrays.sort(sorted);
        long kernels = kernels(List.of(last));
        System.out.printf(Locale.ROOT, "median %.2f s = %,.0f kernel rows/s; best %.2f s = %,.0f kernel rows/s%n",
                sorted[repeats / 2], kernels / sorted[repeats / 2], sorted[0], kernels / sorted[0]);
        RankReport bigReport = RankAnalyzer.analyze(last, AnalysisOptions.defaults());
        last = null;
        RankReport smallReport = RankAnalyzer.analyze(new NsysReader().read(copy).get(0), AnalysisOptions.defaults());
        return verify("nsys " + steps + " steps vs its " + small + "-step copy", bigReport, smallReport);
    }

    private static void generateNsys(Path file, int steps) throws Exception {
        if (Files.exists(file)) {
            return;
        }
        long t0 = System.nanoTime();
        NsysScenarioWriter.write(scenario(steps), file);
        System.out.printf(Locale.ROOT, "generated %s: %d steps, %,d bytes in %.1f s%n", file.getFileName(), steps,
                Files.size(file), (System.nanoTime() - t0) / 1e9);
    }


    private static double median(double[] v, int from) {
        double[] s = Arrays.copyOfRange(v, from, v.length);
        Arrays.sort(s);
        return s[s.length / 2];
    }

    private static double best(double[] v, int from) {
        return Arrays.stream(v, from, v.length).min().orElseThrow();
    }

    /**
     * With {@code reader} (ascend or kineto): times that reader alone, REPEATS reads each followed by
     * the analysis, and prints its medians on a {@code result} line for {@code bench/ascend-read.sh}.
     * One reader per JVM, as in a CLI run: in a JVM that has run both, the optimising compiler has
     * compiled the shared scanner with both readers' profiles, to the cost of one of them. Without
     * {@code reader}: verifies the Ascend analysis against its small copy and against the Kineto one.
     */
    private static boolean ascend(Path dir, int steps, int small, int repeats, String reader) throws Exception {
        Path bigDir = generateAscend(dir.resolve("ascend-" + steps), steps);
        Path smallDir = generateAscend(dir.resolve("ascend-" + small), small);
        Path kineto = dir.resolve("kineto-" + steps + ".json");
        if (!Files.exists(kineto)) {
            KinetoScenarioWriter.write(scenario(steps), kineto);
        }
        if (repeats == 0) {
            return true; // generate only
        }
        if (reader == null) {
            RankReport ascendReport = RankAnalyzer.analyze(TraceFormats.standard().read(bigDir).get(0), AnalysisOptions.defaults());
            RankReport kinetoReport = RankAnalyzer.analyze(TraceFormats.standard().read(kineto).get(0), AnalysisOptions.defaults());
            RankReport smallReport = RankAnalyzer.analyze(TraceFormats.standard().read(smallDir).get(0), AnalysisOptions.defaults());
            boolean ok = verify("ascend " + steps + " steps vs its " + small + "-step copy", ascendReport, smallReport);
            return ok & sameStepTimes("ascend vs kineto of the same scenario", ascendReport, kinetoReport);
        }
        Path input = reader.equals("ascend") ? bigDir : kineto;
        long bytes = Files.size(reader.equals("ascend") ? traceView(bigDir) : kineto);
        double[] read = new double[repeats]; // the front door's read alone
        double[] total = new double[repeats]; // read + analyse
        double[] cpu = new double[repeats];
        for (int r = 0; r < repeats; r++) {
            System.gc(); // each read starts on a clean heap, as a CLI run does, not with the last one's garbage
            long c0 = processCpuNs();
            long t0 = System.nanoTime();
            var trace = TraceFormats.standard().read(input).get(0);
            read[r] = (System.nanoTime() - t0) / 1e9;
            RankAnalyzer.analyze(trace, AnalysisOptions.defaults());
            total[r] = (System.nanoTime() - t0) / 1e9;
            cpu[r] = (processCpuNs() - c0) / 1e9;
            System.out.printf(Locale.ROOT, "%s run %d: read %.2f s = %.0f MB/s; read+analyse %.2f s wall (%.2f s CPU)%n",
                    reader, r + 1, read[r], bytes / 1e6 / read[r], total[r], cpu[r]);
        }
        // Medians over the second half of the runs: the first half measures the JIT's warm-up, a cost
        // of the JVM and not of the reader (bench/run.sh times cold CLI runs). The optimising compiler
        // takes several reads to settle (each read starts with metadata events that the code compiled
        // during the last one has not seen); the client compiler settles after one.
        int from = repeats / 2;
        System.out.printf(Locale.ROOT, "result %s bytes=%d runs=%d-%d read=%.4f read_best=%.4f total=%.4f cpu=%.4f%n",
                reader, bytes, from + 1, repeats, median(read, from), best(read, from), median(total, from),
                median(cpu, from));
        return true;
    }

    private static Path generateAscend(Path parent, int steps) throws Exception {
        Path capture = parent.resolve(AscendScenarioWriter.directoryName(scenario(steps)));
        if (!Files.exists(capture)) {
            long t0 = System.nanoTime();
            Files.createDirectories(parent);
            AscendScenarioWriter.write(scenario(steps), capture);
            System.out.printf(Locale.ROOT, "generated %s: %d steps, %,d bytes in %.1f s%n", capture.getFileName(), steps,
                    Files.size(traceView(capture)), (System.nanoTime() - t0) / 1e9);
        }
        return capture;
    }

    private static Path traceView(Path capture) throws Exception {
        try (Stream<Path> s = Files.walk(capture)) {
            return s.filter(p -> p.getFileName().toString().equals("trace_view.json")).findFirst().orElseThrow();
        }
    }

    /** The steps both reports hold, except each one's last (its trailing step may end differently). */
    private static boolean verify(String what, RankReport big, RankReport small) {
        int shared = Math.min(big.steps().size(), small.steps().size()) - 1;
        int bad = 0;
        for (int i = 0; i < shared; i++) {
            StepReport x = big.steps().get(i);
            StepReport y = small.steps().get(i);
            if (!x.equals(y)) {
                if (bad++ < 3) {
                    System.out.println("step " + i + " differs:\n  " + x + "\n  " + y);
                }
            }
        }
        System.out.printf(Locale.ROOT, "verified %s: %d shared steps, %s%n", what, shared,
                bad == 0 ? "all per-step reports equal" : bad + " differ");
        return bad == 0 && shared > 0;
    }

    /** Two formats of one scenario: the same step times and exposed communication per step. */
    private static boolean sameStepTimes(String what, RankReport a, RankReport b) {
        int n = Math.min(a.steps().size(), b.steps().size());
        int bad = a.steps().size() == b.steps().size() ? 0 : 1;
        for (int i = 0; i < n; i++) {
            StepReport x = a.steps().get(i);
            StepReport y = b.steps().get(i);
            if (x.stepTimeNs() != y.stepTimeNs() || x.exposedCommNs() != y.exposedCommNs()
                    || x.overlappedNs() != y.overlappedNs()) {
                if (bad++ < 3) {
                    System.out.println("step " + i + " differs:\n  " + x + "\n  " + y);
                }
            }
        }
        System.out.printf(Locale.ROOT, "verified %s: %d steps, %s%n", what, n,
                bad == 0 ? "step time, overlapped and exposed communication equal" : bad + " differ");
        return bad == 0;
    }

    private static long kernels(List<RankTrace> traces) {
        long kernels = 0;
        for (RankTrace t : traces) {
            for (int i = 0; i < t.device().size(); i++) {
                DeviceKind k = t.device().kind(i);
                if (k == DeviceKind.COMPUTE || k == DeviceKind.COMM) {
                    kernels++;
                }
            }
        }
        return kernels;
    }

    private static long processCpuNs() {
        java.lang.management.OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        return os instanceof com.sun.management.OperatingSystemMXBean s ? s.getProcessCpuTime() : -1;
    }

    private static void printPeakHeap() {
        long peak = 0;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP && pool.getPeakUsage() != null) {
                peak += pool.getPeakUsage().getUsed();
            }
        }
        System.out.printf(Locale.ROOT, "peak heap (sum of heap pools' peaks): %,d MiB; max heap: %,d MiB%n", peak >> 20,
                Runtime.getRuntime().maxMemory() >> 20);
    }
}
