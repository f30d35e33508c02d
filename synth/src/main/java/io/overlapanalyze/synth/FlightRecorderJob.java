package io.overlapanalyze.synth;

import com.fasterxml.jackson.databind.ObjectMapper;
import net.razorvine.pickle.Pickler;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A hung job's PyTorch Flight Recorder dumps, generated with one fault whose effect the generator
 * knows: {@code ranks} ranks (at least 4) share the data-parallel group "5" ({@code DATA_PARALLEL_GROUP},
 * local id 1), where every rank has enqueued all_reduces #1..#{@code collectives} (1024 Float elements
 * each) and none completed after #{@code collectives - 3}; ranks 0 and 1 form the pipeline group "7"
 * (local id 2), where rank 0 sent p2p #1..#2 to rank 1 and rank 1 received both. Dumps are written
 * as PyTorch writes them: {@code _dump_<rank>}, a protocol-2 pickle of plain values (or the JSON variant),
 * "only active" (entries up to the last completed number have left the buffer).
 *
 * @param ranks       job size
 * @param collectives all_reduces each healthy rank enqueued in group "5"
 * @param fault       what goes wrong
 * @param faultRank   the rank it happens on (not 0 or 1 for {@link Fault#UNMATCHED_P2P}, which is always rank 1)
 */
public record FlightRecorderJob(int ranks, int collectives, Fault fault, int faultRank) {
    /** What goes wrong, and on which rank. */
    public enum Fault {
        /** Nothing: every rank enqueued the same operations. */
        NONE,
        /** The fault rank never enqueued the last all_reduce. */
        MISSING_RANK,
        /** At the last number the fault rank enqueued an all_gather instead. */
        TYPE_MISMATCH,
        /** At the last number the fault rank's all_reduce has twice the elements. */
        SIZE_MISMATCH,
        /** Rank 0 sent p2p #3 to rank 1, which never posted the recv. */
        UNMATCHED_P2P,
        /** The fault rank crashed before everything: its buffer is empty, its status stops two numbers early. */
        CRASHED_RANK
    }

    public FlightRecorderJob {
        if (ranks < 4 || collectives < 4) {
            throw new IllegalArgumentException("a Flight Recorder job needs at least 4 ranks and 4 collectives");
        }
        if (faultRank < 0 || faultRank >= ranks) {
            throw new IllegalArgumentException("fault rank " + faultRank + " is not a rank of " + ranks);
        }
    }

    /** What the analysis must find: the group, the sequence number, the kind and the ranks at fault. */
    public record Truth(String group, boolean p2p, long sequence, String kind, List<Integer> culprits) {
    }

    /** The expected first divergence, or {@code null} for {@link Fault#NONE}. */
    public Truth truth() {
        return switch (fault) {
            case NONE -> null;
            case MISSING_RANK -> new Truth("5", false, collectives, "MISSING", List.of(faultRank));
            case TYPE_MISMATCH -> new Truth("5", false, collectives, "TYPE", List.of(faultRank));
            case SIZE_MISMATCH -> new Truth("5", false, collectives, "SIZE", List.of(faultRank));
            case UNMATCHED_P2P -> new Truth("7", true, 3, "MISSING", List.of(1));
            case CRASHED_RANK -> new Truth("5", false, collectives - 1, "MISSING", List.of(faultRank));
        };
    }

    /** Writes {@code _dump_<rank>} for every rank into {@code dir}, as pickles or as JSON. */
    public void write(Path dir, boolean json) throws IOException {
        Files.createDirectories(dir);
        for (int r = 0; r < ranks; r++) {
            Map<String, Object> dump = dump(r);
            byte[] bytes = json ? new ObjectMapper().writeValueAsBytes(dump) : new Pickler().dumps(dump);
            Files.write(dir.resolve("_dump_" + r), bytes);
        }
    }

    /** One rank's dump as the plain value tree PyTorch pickles. */
    public Map<String, Object> dump(int rank) {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("version", "2.9");
        d.put("nccl_version", "2.27.3");
        Map<String, Object> config = new LinkedHashMap<>();
        List<Integer> all = new ArrayList<>();
        for (int r = 0; r < ranks; r++) {
            all.add(r);
        }
        config.put("0", group("0", "default_pg", all));
        config.put("5", group("5", "DATA_PARALLEL_GROUP", all));
        if (rank <= 1) {
            config.put("7", group("7", "PIPELINE_MODEL_PARALLEL_GROUP", List.of(0, 1)));
        }
        d.put("pg_config", config);
        int last = collectives;
        if (fault == Fault.MISSING_RANK && rank == faultRank) {
            last = collectives - 1;
        }
        boolean crashed = fault == Fault.CRASHED_RANK && rank == faultRank;
        if (crashed) {
            last = collectives - 2;
        }
        int completed = collectives - 3;
        Map<String, Object> status = new LinkedHashMap<>();
        status.put("0", status(0, 0));
        status.put("1", status(last, Math.min(completed, last)));
        List<Object> entries = new ArrayList<>();
        long record = 1000;
        if (!crashed) {
            for (int seq = completed + 1; seq <= last; seq++) {
                String name = "nccl:all_reduce";
                long elements = 1024;
                if (seq == collectives && rank == faultRank && fault == Fault.TYPE_MISMATCH) {
                    name = "nccl:all_gather";
                }
                if (seq == collectives && rank == faultRank && fault == Fault.SIZE_MISMATCH) {
                    elements = 2048;
                }
                entries.add(entry(record++, 1, "5", "DATA_PARALLEL_GROUP", seq, 0, false, name, elements, "Float"));
            }
        }
        if (rank <= 1) {
            int sent = fault == Fault.UNMATCHED_P2P ? 3 : 2;
            int p2pLast = rank == 0 ? sent : 2;
            status.put("2", status(p2pLast, 1));
            for (int p2p = 2; p2p <= p2pLast; p2p++) {
                String name = rank == 0 ? "nccl:send 0->1" : "nccl:recv 1<-0";
                entries.add(entry(record++, 2, "7", "PIPELINE_MODEL_PARALLEL_GROUP", 0, p2p, true, name, 4096,
                        "BFloat16"));
            }
        }
        d.put("pg_status", status);
        d.put("entries", entries);
        return d;
    }

    private static Map<String, Object> group(String name, String desc, List<Integer> members) {
        Map<String, Object> g = new LinkedHashMap<>();
        g.put("name", name);
        g.put("desc", desc);
        g.put("ranks", members.toString());
        return g;
    }

    private static Map<String, Object> status(long enqueued, long completed) {
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("last_enqueued_collective", enqueued);
        s.put("last_started_collective", -1L);
        s.put("last_completed_collective", completed);
        return s;
    }

    private static Map<String, Object> entry(long record, int pgId, String pg, String desc, long seq, long p2pSeq,
                                             boolean p2p, String name, long elements, String dtype) {
        Map<String, Object> e = new LinkedHashMap<>();
        e.put("record_id", record);
        e.put("pg_id", pgId);
        e.put("process_group", new Object[] {pg, desc});
        e.put("collective_seq_id", seq);
        e.put("p2p_seq_id", p2pSeq);
        e.put("op_id", seq);
        e.put("profiling_name", name);
        e.put("time_created_ns", 1_758_580_156_000_000_000L + record * 1_000);
        e.put("input_sizes", List.of(List.of(elements)));
        e.put("input_dtypes", List.of(dtype));
        e.put("output_sizes", List.of(List.of(elements)));
        e.put("output_dtypes", List.of(dtype));
        e.put("state", "scheduled");
        e.put("time_discovered_started_ns", null);
        e.put("time_discovered_completed_ns", null);
        e.put("retired", false);
        e.put("timeout_ms", 600_000);
        e.put("is_p2p", p2p);
        e.put("thread_name", "pt_autograd_0");
        e.put("thread_id", "1");
        return e;
    }
}
