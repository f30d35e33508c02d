package io.overlapanalyze.cli.analyse;

import io.overlapanalyze.cli.CliRun;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.overlapanalyze.render.JsonRenderer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A hand-built Kineto trace of one MoE step with DeepEP-named kernels on a communication stream
 * next to another micro-batch's compute (metrics.md §1: expert-parallel kernels are COMM of type
 * ALL_TO_ALL; their layout helper is compute). Expected numbers by hand, in µs:
 * <pre>
 * stream 7 (compute):  get_dispatch_layout [0, 500], attention [500, 4000], mlp [5000, 9000]
 * stream 30 (EP comm): notify_dispatch [1000, 1200], dispatch [1200, 4500], combine [8000, 11000]
 * K = [0, 4000] ∪ [5000, 9000] = 8000;  C = [1000, 4500] ∪ [8000, 11000] = 6500
 * C ∩ K = [1000, 4000] ∪ [8000, 9000] = 4000;  exposed = [4000, 4500] ∪ [9000, 11000] = 2500
 * window [0, 11000]
 * </pre>
 * The namespace is renamed ({@code acme_ep::}) as in-house builds do.
 */
class ExpertParallelTest {
    private static final long US = 1000;

    @TempDir
    Path dir;

    private Path trace() throws IOException {
        return trace("void acme_ep::layout::get_dispatch_layout<256, 32, 8>(long const*, int*, int*, int*, bool*)",
                "void acme_ep::intranode::notify_dispatch<8>(int const*, int*, int)",
                "void acme_ep::intranode::dispatch<8, 768, 8192>(int4*, float*, int*)",
                "void acme_ep::intranode::combine<__nv_bfloat16, 8, 768, 4096>(int4*, float*)");
    }

    private Path trace(String layout, String notify, String dispatch, String combine) throws IOException {
        String[][] kernels = {
                {layout, "0", "500", "7"},
                {"attention_fwd_kernel", "500", "3500", "7"},
                {"mlp_bwd_gemm", "5000", "4000", "7"},
                {notify, "1000", "200", "30"},
                {dispatch, "1200", "3300", "30"},
                {combine, "8000", "3000", "30"}};
        long base = 1_700_000_000_000_000L;
        List<String> events = new ArrayList<>();
        events.add("{\"ph\": \"X\", \"cat\": \"user_annotation\", \"name\": \"ProfilerStep#7\", \"pid\": 1, \"tid\": 1,"
                + " \"ts\": " + (base - 2000) + ", \"dur\": 20000}");
        for (int i = 0; i < kernels.length; i++) {
            int corr = 500 + i;
            events.add("{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", \"pid\": 1, \"tid\": 1,"
                    + " \"ts\": " + (base - 1000 + i * 10) + ", \"dur\": 5, \"args\": {\"correlation\": " + corr + "}}");
            events.add("{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"" + kernels[i][0] + "\", \"pid\": 0, \"tid\": "
                    + kernels[i][3] + ", \"ts\": " + (base + Long.parseLong(kernels[i][1])) + ", \"dur\": " + kernels[i][2]
                    + ", \"args\": {\"device\": 0, \"stream\": " + kernels[i][3] + ", \"correlation\": " + corr + "}}");
        }
        Path p = dir.resolve("moe.pt.trace.json");
        Files.writeString(p, "{\"schemaVersion\": 1, \"traceEvents\": [\n" + String.join(",\n", events) + "\n]}",
                StandardCharsets.UTF_8);
        return p;
    }

    @Test
    void deepEpKernelsAreExpertParallelCommunication() throws IOException {
        check(trace());
    }

    /** The public namespace, the low-latency internode combine, and a renamed namespace in one trace. */
    @Test
    void publicAndLowLatencyDeepEpNamesAreExpertParallelCommunication() throws IOException {
        check(trace("void deep_ep::layout::get_dispatch_layout<256, 32, 8>(long const*, int*, int*, int*, bool*)",
                "void my_ns::intranode::notify_dispatch<8>(int const*, int*, int, int const*, int*)",
                "void deep_ep::intranode::dispatch<8, 768, 8192>(int4*, float*, int*, long*, float*)",
                "void deep_ep::internode_ll::combine<false, 7168>(void*, int*, int, int, int, int, int)"));
    }

    private void check(Path trace) throws IOException {
        CliRun run = CliRun.of("-f", "json", trace.toString());
        assertEquals(0, run.exitCode(), run.err());
        JsonNode rank = JsonRenderer.mapper().readTree(run.out()).at("/ranks/0");
        JsonNode s = rank.at("/steps/0");
        assertEquals(11_000 * US, s.get("stepTimeNs").asLong());
        assertEquals(8_000 * US, s.get("computeBusyNs").asLong());
        assertEquals(6_500 * US, s.get("commBusyNs").asLong());
        assertEquals(4_000 * US, s.get("overlappedNs").asLong());
        assertEquals(2_500 * US, s.get("exposedCommNs").asLong());
        assertEquals(3, s.get("commKernels").asInt(), "notify_dispatch, dispatch, combine");
        assertEquals(0, s.get("gradCollectives").asInt(), "all-to-all is never a gradient reduction");
        JsonNode kinds = rank.at("/parallelism/kinds");
        assertTrue(kinds.toString().contains("EXPERT_PARALLEL"), rank.get("parallelism").toString());
        assertTrue(rank.at("/parallelism/evidence").toString().contains("2 dispatch and 1 combine"),
                rank.get("parallelism").toString());
    }
}
