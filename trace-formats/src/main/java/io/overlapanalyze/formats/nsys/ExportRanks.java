package io.overlapanalyze.formats.nsys;

import io.overlapanalyze.formats.input.Warnings;
import io.overlapanalyze.formats.nsys.NsysReader.NsysRank;
import io.overlapanalyze.model.Collective;
import io.overlapanalyze.model.DeviceIntervals;
import io.overlapanalyze.model.HostSpan;
import io.overlapanalyze.model.HostSpanKind;
import io.overlapanalyze.model.HostThread;
import io.overlapanalyze.model.MemorySamples;
import io.overlapanalyze.model.RankSource;
import io.overlapanalyze.model.RankTrace;
import io.overlapanalyze.model.StringPool;
import io.overlapanalyze.model.TraceFormat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * The export's ranks assembled, once every table is read: one {@link RankTrace} per {@link RankBuilder}
 * with its process's NVTX spans, threads and collectives ({@link CollectiveBuilder}), its rank id
 * ({@link RankIds}), its GPU model ({@link GpuModels}) and the export's warnings plus one line saying
 * which process and device it is; ordered by rank, then process id. An export without device activity
 * gives one empty rank whose warning says why.
 */
final class ExportRanks {
    private final String file;
    private final Warnings warnings;
    private final ExportProcesses processes;
    private final GpuModels gpus;
    private final LaunchIndex launches;
    private final DeviceTables devices;

    ExportRanks(String file, Warnings warnings, ExportProcesses processes, GpuModels gpus, LaunchIndex launches,
                DeviceTables devices) {
        this.file = file;
        this.warnings = warnings;
        this.processes = processes;
        this.gpus = gpus;
        this.launches = launches;
        this.devices = devices;
    }

    /** One rank per (process, device) that ran kernels; call only when there is one at least. */
    List<NsysRank> build() {
        List<RankBuilder> rankList = devices.ranks();
        Map<RankBuilder, RankIds.Id> ids = RankIds.assign(rankList, processes.environment(), processes.all());
        List<NsysRank> out = new ArrayList<>();
        for (RankBuilder r : rankList) {
            ProcessNvtx p = processes.all().getOrDefault(r.processKey, new ProcessNvtx());
            p.build();
            List<Collective> collectives = CollectiveBuilder.build(r, p);
            List<HostThread> threads = threads(p);
            boolean hostOps = p.pytorchRanges || hasPhaseSpans(p) || autogradLaunched(r, threads);
            RankIds.Id id = ids.get(r);
            Warnings w = copyOfWarnings();
            w.add("rank " + id.rank() + " is process " + r.pid + " on CUDA device " + r.deviceId + " (rank id: "
                    + id.how() + ")");
            if (p.stepSpansDropped > 0) {
                w.add("step ranges nested in or overlapping an earlier step range ignored", p.stepSpansDropped + " ranges");
            }
            List<HostSpan> spans = new ArrayList<>(p.spans);
            spans.sort(Comparator.comparingLong(HostSpan::startNs)
                    .thenComparing(Comparator.comparingLong(HostSpan::endNs).reversed()));
            RankTrace trace = new RankTrace(file, TraceFormat.NSYS, id.rank(), id.source(), id.worldSize(),
                    r.lanes(), r.device, spans, threads, collectives, List.of(),
                    launches.unmatchedLaunches(r.processKey), hostOps, false, w.lines(), List.of(), List.of(),
                    MemorySamples.empty(), devices.commUnclassified(), List.of(), p.hostRanges.outermost(0), null,
                    gpus.deviceNamesOf(r));
            out.add(new NsysRank(r.pid, r.deviceId, id.how(), trace));
        }
        out.sort(Comparator.comparingInt((NsysRank n) -> n.trace().rank()).thenComparingLong(NsysRank::pid));
        return out;
    }

    private boolean hasPhaseSpans(ProcessNvtx p) {
        for (HostSpan s : p.spans) {
            if (s.kind() != HostSpanKind.STEP) {
                return true;
            }
        }
        return false;
    }

    /** An autograd-engine thread launched some of this rank's work: backward is identifiable. */
    private boolean autogradLaunched(RankBuilder r, List<HostThread> threads) {
        long[] autograd = threads.stream().filter(HostThread::autograd).mapToLong(HostThread::threadId).sorted().toArray();
        if (autograd.length == 0) {
            return false;
        }
        DeviceIntervals d = r.device;
        for (int i = 0; i < d.size(); i++) {
            if (Arrays.binarySearch(autograd, d.launchThread(i)) >= 0) {
                return true;
            }
        }
        return false;
    }

    private List<HostThread> threads(ProcessNvtx p) {
        List<HostThread> out = new ArrayList<>();
        for (Map.Entry<Long, List<String>> e : p.threadNames.entrySet()) {
            boolean autograd = e.getValue().stream().anyMatch(n -> n.contains("pt_autograd"));
            out.add(new HostThread(e.getKey(), e.getValue(), autograd));
        }
        out.sort(Comparator.comparingLong(HostThread::threadId));
        return out;
    }

    private Warnings copyOfWarnings() {
        Warnings w = new Warnings();
        for (String line : warnings.lines()) {
            w.add(line);
        }
        return w;
    }

    /** The export recorded no kernels: one empty rank whose warning says why. */
    NsysRank noDeviceActivity(boolean kernelTable) {
        Warnings w = copyOfWarnings();
        w.add("no device activity in this export: " + (kernelTable
                ? "the " + NsysReader.KERNEL + " table holds no kernel rows"
                : "there is no " + NsysReader.KERNEL + " table (CUDA trace off, a WSL capture, or an export limited with --tables)")
                + (launches.size() > 0 ? "; " + launches.size() + " CUDA launch/copy calls were recorded without device rows"
                : ""));
        RankTrace trace = new RankTrace(file, TraceFormat.NSYS, 0, RankSource.DEFAULT, -1, List.of(),
                new DeviceIntervals(new StringPool(), 16), List.of(), List.of(), List.of(), List.of(), new long[0],
                false, false, w.lines(), List.of(), List.of(), MemorySamples.empty(), null, List.of());
        return new NsysRank(-1, -1, "no device activity", trace);
    }
}
