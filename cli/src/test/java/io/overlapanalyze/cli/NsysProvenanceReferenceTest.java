package io.overlapanalyze.cli;

import io.overlapanalyze.formats.TraceFormats;
import io.overlapanalyze.analysis.AnalysisOptions;
import io.overlapanalyze.analysis.rank.RankAnalyzer;
import io.overlapanalyze.formats.nsys.NsysReader;
import io.overlapanalyze.model.DeviceIntervals;
import io.overlapanalyze.model.DeviceKind;
import io.overlapanalyze.model.RankTrace;
import io.overlapanalyze.report.RankReport;
import io.overlapanalyze.report.StepReport;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every shared Nsight export loads; per (process, device) the kernel count,
 * NCCL kernel count, comm busy, compute busy, overlap, exposed comm and kernel window equal the
 * "union rule" reference tables of PROVENANCE.md, which are parsed out of the file (nothing is
 * transcribed). The busy/overlap numbers go through the whole product: reader, then analyzer
 * (these exports have no step ranges, so the whole capture is the one step "all").
 */
class NsysProvenanceReferenceTest {
    private static final Pattern SECTION = Pattern.compile("^### `nsys/([^`]+)`");
    private static final Pattern ROW = Pattern.compile(
            "^\\| (\\d+) \\| (\\d+) \\| ([\\d,]+) \\| (\\d+) \\| ([\\d,.]+) \\| ([\\d,.]+) \\| ([\\d,.]+) \\| ([\\d,.]+) \\| ([\\d,.]+) \\|$");

    /** One reference row: per process and device. */
    record Row(long pid, int deviceId, long kernels, long ncclKernels, long commBusyNs, long computeBusyNs,
               long overlapNs, long exposedCommNs, long windowNs) {
    }

    static Map<String, List<Row>> referenceTables() throws IOException {
        Map<String, List<Row>> tables = new TreeMap<>();
        String current = null;
        for (String line : Files.readAllLines(SharedTraces.root().resolve("PROVENANCE.md"), StandardCharsets.UTF_8)) {
            Matcher s = SECTION.matcher(line);
            if (s.find()) {
                current = s.group(1);
                tables.put(current, new ArrayList<>());
                continue;
            }
            if (line.startsWith("### ") || line.startsWith("## ")) {
                current = null;
                continue;
            }
            Matcher r = ROW.matcher(line.trim());
            if (current != null && r.matches()) {
                tables.get(current).add(new Row(Long.parseLong(r.group(1)), Integer.parseInt(r.group(2)),
                        Long.parseLong(r.group(3).replace(",", "")), Long.parseLong(r.group(4)),
                        ProvenanceReferenceTest.usToNs(r.group(5)), ProvenanceReferenceTest.usToNs(r.group(6)),
                        ProvenanceReferenceTest.usToNs(r.group(7)), ProvenanceReferenceTest.usToNs(r.group(8)),
                        ProvenanceReferenceTest.usToNs(r.group(9))));
            }
        }
        return tables;
    }

    @TestFactory
    List<DynamicTest> everySharedExportMatchesItsReference() throws IOException {
        Map<String, List<Row>> tables = referenceTables();
        assertTrue(tables.containsKey("nsys2026.2.1_torchrun2gpu_nccl_before.sqlite"),
                "expected the nsys sections of PROVENANCE.md, found " + tables.keySet());
        List<DynamicTest> tests = new ArrayList<>();
        for (var e : tables.entrySet()) {
            tests.add(DynamicTest.dynamicTest(e.getKey(), () -> check(e.getKey(), e.getValue())));
        }
        return tests;
    }

    @Test
    void torchrunExportHasItsTwoRanksWithNcclKernels() throws IOException {
        List<Row> rows = referenceTables().get("nsys2026.2.1_torchrun2gpu_nccl_before.sqlite");
        assertNotNull(rows);
        assertEquals(2, rows.size(), "two processes in the reference table");
        assertTrue(rows.stream().allMatch(r -> r.ncclKernels() > 0));
    }

    /** Every .sqlite of the folder loads, through the CLI's loader: the no-kernel one as "no device activity". */
    @Test
    void everySharedExportLoads() throws Exception {
        Path dir = SharedTraces.root().resolve("nsys");
        List<Path> files;
        try (Stream<Path> s = Files.list(dir)) {
            files = s.filter(p -> p.toString().endsWith(".sqlite")).sorted().toList();
        }
        assertFalse(files.isEmpty());
        for (Path f : files) {
            List<RankTrace> traces = TraceFormats.standard().read(f);
            assertFalse(traces.isEmpty(), f.toString());
            for (RankTrace t : traces) {
                RankReport report = RankAnalyzer.analyze(t, AnalysisOptions.defaults());
                if (!t.hasDeviceActivity()) {
                    assertTrue(report.notes().contains(RankAnalyzer.NOTE_NO_DEVICE), f + ": " + report.notes());
                    assertTrue(t.warnings().stream().anyMatch(w -> w.startsWith("no device activity in this export")),
                            f + ": " + t.warnings());
                }
            }
        }
    }

    /**
     * {comm busy, compute busy, overlap} of the model's kernels by the union rule, computed here
     * with a plain sort and sweep; {@code ownOnly} leaves out work launched before the capture.
     */
    private static long[] unions(DeviceIntervals d, boolean ownOnly) {
        List<long[]> comm = new ArrayList<>();
        List<long[]> compute = new ArrayList<>();
        for (int i = 0; i < d.size(); i++) {
            if (ownOnly && d.preCapture(i)) {
                continue;
            }
            if (d.kind(i) == DeviceKind.COMM) {
                comm.add(new long[] {d.start(i), d.end(i)});
            } else if (d.kind(i) == DeviceKind.COMPUTE) {
                compute.add(new long[] {d.start(i), d.end(i)});
            }
        }
        List<long[]> c = merge(comm);
        List<long[]> k = merge(compute);
        long overlap = 0;
        for (long[] a : c) {
            for (long[] b : k) {
                overlap += Math.max(0, Math.min(a[1], b[1]) - Math.max(a[0], b[0]));
            }
        }
        return new long[] {length(c), length(k), overlap};
    }

    private static List<long[]> merge(List<long[]> raw) {
        raw.sort((x, y) -> Long.compare(x[0], y[0]));
        List<long[]> out = new ArrayList<>();
        for (long[] r : raw) {
            if (!out.isEmpty() && r[0] <= out.get(out.size() - 1)[1]) {
                out.get(out.size() - 1)[1] = Math.max(out.get(out.size() - 1)[1], r[1]);
            } else {
                out.add(new long[] {r[0], r[1]});
            }
        }
        return out;
    }

    private static long length(List<long[]> runs) {
        long total = 0;
        for (long[] r : runs) {
            total += r[1] - r[0];
        }
        return total;
    }

    private static void check(String name, List<Row> rows) throws Exception {
        Path file = SharedTraces.root().resolve("nsys").resolve(name);
        List<NsysReader.NsysRank> ranks = new NsysReader().readRanks(file);
        if (rows.isEmpty()) {
            // The reference says: no kernel table, no kernels.
            assertEquals(1, ranks.size(), name);
            assertFalse(ranks.get(0).trace().hasDeviceActivity(), name);
            return;
        }
        assertEquals(rows.size(), ranks.size(), name + ": one rank per (process, device)");
        for (Row row : rows) {
            NsysReader.NsysRank rank = ranks.stream()
                    .filter(r -> r.pid() == row.pid() && r.deviceId() == row.deviceId())
                    .findFirst().orElse(null);
            assertNotNull(rank, name + ": no rank for pid " + row.pid() + " device " + row.deviceId());
            String where = name + " pid " + row.pid() + ": ";
            DeviceIntervals d = rank.trace().device();
            long kernels = 0;
            long comm = 0;
            long first = Long.MAX_VALUE;
            long last = Long.MIN_VALUE;
            for (int i = 0; i < d.size(); i++) {
                DeviceKind k = d.kind(i);
                if (k == DeviceKind.COMPUTE || k == DeviceKind.COMM) {
                    kernels++;
                    first = Math.min(first, d.start(i));
                    last = Math.max(last, d.end(i));
                }
                if (k == DeviceKind.COMM) {
                    comm++;
                }
            }
            assertEquals(row.kernels(), kernels, where + "kernels");
            assertEquals(row.ncclKernels(), comm, where + "NCCL kernels");
            assertEquals(row.windowNs(), last - first, where + "kernel window");
            assertEquals(row.ncclKernels(), rank.trace().collectives().size(), where + "one collective per NCCL kernel");

            // The reference is the whole capture: every kernel of the process, by the union rule.
            long[] all = unions(d, false);
            assertEquals(row.commBusyNs(), all[0], where + "comm busy of every kernel");
            assertEquals(row.computeBusyNs(), all[1], where + "compute busy of every kernel");
            assertEquals(row.overlapNs(), all[2], where + "overlap of every kernel");
            assertEquals(row.exposedCommNs(), all[0] - all[2], where + "exposed comm of every kernel");

            // The step "all" holds the capture's own work: kernels launched before the capture
            // (metrics.md §2: no launch in the export, correlationId below every call's; these
            // exports are windows cut out of longer captures) belong to no step. Without any, the
            // step is exactly the reference.
            RankReport report = RankAnalyzer.analyze(rank.trace(), AnalysisOptions.defaults());
            assertEquals(1, report.steps().size(), where + "no step ranges: one step");
            StepReport s = report.steps().get(0);
            assertEquals("all", s.name());
            long[] own = unions(d, true);
            assertEquals(own[0], s.commBusyNs(), where + "comm busy");
            assertEquals(own[1], s.computeBusyNs(), where + "compute busy");
            assertEquals(own[2], s.overlappedNs(), where + "overlap");
            assertEquals(own[0] - own[2], s.exposedCommNs(), where + "exposed comm");
            long preCaptureComm = 0;
            for (int i = 0; i < d.size(); i++) {
                if (d.preCapture(i) && d.kind(i) == DeviceKind.COMM) {
                    preCaptureComm++;
                }
            }
            assertEquals(row.ncclKernels() - preCaptureComm, s.commKernels(), where + "comm kernels in the step");
            if (d.preCaptureCount() == 0) {
                assertEquals(row.commBusyNs(), s.commBusyNs(), where + "comm busy");
                assertEquals(row.computeBusyNs(), s.computeBusyNs(), where + "compute busy");
            }
            if (row.commBusyNs() == 0) {
                assertNull(s.overlapRatio(), where + "no communication: overlap ratio absent");
            }
        }
    }
}
