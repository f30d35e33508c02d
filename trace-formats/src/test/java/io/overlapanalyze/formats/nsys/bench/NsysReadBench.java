package io.overlapanalyze.formats.nsys.bench;

import io.overlapanalyze.formats.nsys.NsysReader;
import io.overlapanalyze.model.DeviceKind;
import io.overlapanalyze.model.RankTrace;
import io.overlapanalyze.synth.Durations;
import io.overlapanalyze.synth.NsysScenarioWriter;
import io.overlapanalyze.synth.Scenario;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Benchmark for issue 4, acceptance 4 (not a unit test; run by {@code bench/nsys-read.sh}).
 * <ul>
 *   <li>{@code generate OUT.sqlite STEPS}: a synthetic Nsight export of one rank with 2,504 kernels
 *       per step (forward 2 × 500, backward 3 × 500 + 3 NCCL all-reduces, 1 optimizer kernel), each
 *       with its runtime launch row, plus the NVTX ranges of the scenario writer;</li>
 *   <li>{@code read FILE [REPEATS]}: reads it with {@link NsysReader} in this JVM, prints kernel rows per
 *       second for each repeat and the peak heap (sum of the heap pools' peak usage).</li>
 * </ul>
 */
public final class NsysReadBench {
    private NsysReadBench() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length >= 3 && args[0].equals("generate")) {
            generate(Path.of(args[1]), Integer.parseInt(args[2]));
        } else if (args.length >= 2 && args[0].equals("read")) {
            read(Path.of(args[1]), args.length > 2 ? Integer.parseInt(args[2]) : 3);
        } else {
            System.err.println("usage: NsysReadBench generate OUT.sqlite STEPS | read FILE [REPEATS]");
            System.exit(2);
        }
    }

    static Scenario scenario(int steps) {
        List<Scenario.Block> forward = List.of(
                new Scenario.Block("aten::mm", null, Durations.us(1500), 500, null),
                new Scenario.Block("aten::mm", null, Durations.us(1500), 500, null));
        List<Scenario.Block> backward = List.of(
                new Scenario.Block(null, null, Durations.us(2000), 500, Scenario.Bucket.of(26_214_400L, 900)),
                new Scenario.Block(null, null, Durations.us(2000), 500, Scenario.Bucket.of(26_214_400L, 900)),
                new Scenario.Block(null, null, Durations.us(2000), 500, Scenario.Bucket.of(26_214_400L, 900)));
        return new Scenario("bench-" + steps, "read benchmark", 0, 2, steps, 1, forward, backward,
                Durations.us(400), Durations.us(100), 0, 1);
    }

    private static void generate(Path out, int steps) throws Exception {
        long t0 = System.nanoTime();
        NsysScenarioWriter.write(scenario(steps), out);
        System.out.printf("generated %s: %d steps, %,d bytes in %.1f s%n", out, steps, Files.size(out),
                (System.nanoTime() - t0) / 1e9);
    }

    private static void read(Path file, int repeats) throws Exception {
        for (int r = 1; r <= repeats; r++) {
            long t0 = System.nanoTime();
            List<RankTrace> traces = new NsysReader().read(file);
            long ns = System.nanoTime() - t0;
            long kernels = 0;
            long intervals = 0;
            for (RankTrace t : traces) {
                intervals += t.device().size();
                for (int i = 0; i < t.device().size(); i++) {
                    DeviceKind k = t.device().kind(i);
                    if (k == DeviceKind.COMPUTE || k == DeviceKind.COMM) {
                        kernels++;
                    }
                }
            }
            System.out.printf("read %d: %,d kernel rows (%,d device intervals, %d rank(s)) in %.2f s = %,.0f kernel rows/s%n",
                    r, kernels, intervals, traces.size(), ns / 1e9, kernels / (ns / 1e9));
        }
        long peak = 0;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP && pool.getPeakUsage() != null) {
                peak += pool.getPeakUsage().getUsed();
            }
        }
        System.out.printf("peak heap (sum of heap pools' peaks): %,d MiB; max heap: %,d MiB%n", peak >> 20,
                Runtime.getRuntime().maxMemory() >> 20);
    }
}
