package io.overlapanalyze.formats.nsys;

import io.overlapanalyze.model.RankSource;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Rank ids for the (process, device) pairs of one export (nsys.md §8), in this order:
 * <ol>
 *   <li>the launcher environment recorded in the export ({@code TARGET_INFO_SYSTEM_ENV
 *       DeviceEnvironment}, {@code META_DATA_CAPTURE PROCESS_n:ENVIRONMENT_VARIABLE}) — only when the
 *       export holds a single rank: that environment is one for the whole capture, so under one
 *       nsys around {@code torchrun} it cannot tell the children apart;</li>
 *   <li>MPI: {@code MPI_RANKS} or an NVTX "MPI Rank N" thread name, per process;</li>
 *   <li>otherwise the pairs numbered in (device, pid) order: {@link RankSource#INFERRED}
 *       ({@link RankSource#DEFAULT} for a lone rank, which is simply assumed to be 0).</li>
 * </ol>
 */
final class RankIds {
    /** Global rank variables first; LOCAL_RANK is only unique within a node. */
    static final List<String> RANK_VARIABLES = List.of("RANK", "SLURM_PROCID", "OMPI_COMM_WORLD_RANK", "PMI_RANK",
            "LOCAL_RANK");
    static final List<String> SIZE_VARIABLES = List.of("WORLD_SIZE", "SLURM_NTASKS", "OMPI_COMM_WORLD_SIZE",
            "PMI_SIZE");

    /** A rank id and where it came from, in words for the report. */
    record Id(int rank, RankSource source, int worldSize, String how) {
    }

    private RankIds() {
    }

    static Map<RankBuilder, Id> assign(List<RankBuilder> ranks, Map<String, String> env,
                                        Map<Long, ProcessNvtx> processes) {
        Map<RankBuilder, Id> out = new LinkedHashMap<>();
        int world = envInt(env, SIZE_VARIABLES);
        if (ranks.size() == 1) {
            for (String var : RANK_VARIABLES) {
                Integer r = parse(env.get(var));
                if (r != null) {
                    out.put(ranks.get(0), new Id(r, RankSource.TRACE, world,
                            "environment variable " + var + " recorded in the export"));
                    return out;
                }
            }
        }
        // MPI ranks, per process; usable when every rank has one and no id repeats.
        Set<Integer> seen = new HashSet<>();
        boolean mpiUsable = true;
        for (RankBuilder r : ranks) {
            ProcessNvtx p = processes.get(r.processKey);
            Integer mpi = p == null ? null : p.mpiRank;
            if (mpi == null || !seen.add(mpi)) {
                mpiUsable = false;
                break;
            }
        }
        if (mpiUsable && !ranks.isEmpty()) {
            for (RankBuilder r : ranks) {
                out.put(r, new Id(processes.get(r.processKey).mpiRank, RankSource.TRACE, world,
                        "MPI rank of process " + r.pid));
            }
            return out;
        }
        List<RankBuilder> ordered = new ArrayList<>(ranks);
        ordered.sort(Comparator.comparingInt((RankBuilder r) -> r.deviceId).thenComparingLong(r -> r.pid));
        for (int i = 0; i < ordered.size(); i++) {
            RankBuilder r = ordered.get(i);
            if (ordered.size() == 1) {
                out.put(r, new Id(0, RankSource.DEFAULT, world,
                        "no rank variable or MPI rank in the export; rank 0 assumed"));
            } else {
                out.put(r, new Id(i, RankSource.INFERRED, world,
                        "numbered in CUDA device order; the export records no per-process rank"));
            }
        }
        return out;
    }

    private static int envInt(Map<String, String> env, List<String> names) {
        for (String n : names) {
            Integer v = parse(env.get(n));
            if (v != null && v > 0) {
                return v;
            }
        }
        return -1;
    }

    private static Integer parse(String v) {
        if (v == null) {
            return null;
        }
        String t = v.trim();
        if (t.length() >= 2 && t.startsWith("\"") && t.endsWith("\"")) {
            t = t.substring(1, t.length() - 1);
        }
        try {
            int r = Integer.parseInt(t);
            return r >= 0 ? r : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /** {@code K=V;K=V;…} (DeviceEnvironment) into a map; later keys do not override earlier ones. */
    static void parseEnvironment(String text, Map<String, String> into) {
        if (text == null) {
            return;
        }
        for (String part : text.split(";")) {
            int eq = part.indexOf('=');
            if (eq > 0) {
                into.putIfAbsent(part.substring(0, eq).trim(), part.substring(eq + 1));
            }
        }
    }
}
