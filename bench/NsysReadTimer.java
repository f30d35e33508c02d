import io.overlapanalyze.formats.nsys.NsysReader;
import io.overlapanalyze.model.DeviceKind;
import io.overlapanalyze.model.RankTrace;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Times the Nsight reader of whichever jar is on the class path: bench/nsys-ab.sh runs it against two
 * builds (an old commit's jar and this one's) on one generated export. Uses only the reader's public
 * API, which both builds share. Usage: NsysReadTimer FILE REPEATS
 */
public final class NsysReadTimer {
    public static void main(String[] args) throws Exception {
        Path file = Path.of(args[0]);
        int repeats = Integer.parseInt(args[1]);
        double[] wall = new double[repeats];
        long kernels = 0;
        for (int r = 0; r < repeats; r++) {
            long c0 = cpuNs();
            long t0 = System.nanoTime();
            List<RankTrace> traces = new NsysReader().read(file);
            long ns = System.nanoTime() - t0;
            long cpu = cpuNs() - c0;
            kernels = 0;
            for (RankTrace t : traces) {
                for (int i = 0; i < t.device().size(); i++) {
                    DeviceKind k = t.device().kind(i);
                    if (k == DeviceKind.COMPUTE || k == DeviceKind.COMM) {
                        kernels++;
                    }
                }
            }
            wall[r] = ns / 1e9;
            System.out.printf(Locale.ROOT, "read %d: %,d kernel rows in %.3f s wall (%.3f s process CPU) = %,.0f rows/s%n",
                    r + 1, kernels, ns / 1e9, cpu / 1e9, kernels / (ns / 1e9));
        }
        double[] s = wall.clone();
        Arrays.sort(s);
        System.out.printf(Locale.ROOT, "result kernels=%d median_s=%.3f best_s=%.3f median_rows_s=%.0f best_rows_s=%.0f%n",
                kernels, s[repeats / 2], s[0], kernels / s[repeats / 2], kernels / s[0]);
    }

    private static long cpuNs() {
        return ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean o
                ? o.getProcessCpuTime() : -1;
    }
}
