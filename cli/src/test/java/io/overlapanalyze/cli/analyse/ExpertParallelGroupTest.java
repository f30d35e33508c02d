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
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Expert-parallel dispatch / combine kernels that no CPU op describes form one inferred
 * expert-parallel group across ranks, apart from the data-parallel traffic without metadata: two
 * ranks that interleave a lone all-reduce differently with the same dispatch and combine have no
 * order mismatch, and the dispatch and combine are matched among themselves.
 */
class ExpertParallelGroupTest {
    private static final String DISPATCH = "void deep_ep::intranode::dispatch<8, 768, 8192>(int4*, float*)";
    private static final String COMBINE = "void deep_ep::intranode::combine<nv_bfloat16, 8, 768>(nv_bfloat16*)";
    private static final String ALL_REDUCE = "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm*, unsigned long)";

    @TempDir
    Path dir;

    /** One rank: one step, the kernels launched in the order given, 1 ms apart, each 0.5 ms long (µs). */
    private Path rank(int rank, String... kernels) throws IOException {
        List<String> events = new ArrayList<>();
        events.add("{\"ph\": \"X\", \"cat\": \"user_annotation\", \"name\": \"ProfilerStep#1\", \"pid\": 1, \"tid\": 1,"
                + " \"ts\": 1000, \"dur\": 20000}");
        for (int i = 0; i < kernels.length; i++) {
            int corr = 100 + i;
            long stream = kernels[i].startsWith("nccl") ? 20 : 30;
            events.add("{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", \"pid\": 1, \"tid\": 1,"
                    + " \"ts\": " + (2000 + i * 100) + ", \"dur\": 10, \"args\": {\"correlation\": " + corr + "}}");
            events.add("{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"" + kernels[i] + "\", \"pid\": 0, \"tid\": "
                    + stream + ", \"ts\": " + (10000 + i * 1000) + ", \"dur\": 500, \"args\": {\"device\": 0, "
                    + "\"stream\": " + stream + ", \"correlation\": " + corr + "}}");
        }
        Path p = dir.resolve("rank" + rank + ".pt.trace.json");
        Files.writeString(p, "{\"schemaVersion\": 1, \"distributedInfo\": {\"rank\": " + rank + ", \"world_size\": 2},"
                + " \"traceEvents\": [\n" + String.join(",\n", events) + "\n]}", StandardCharsets.UTF_8);
        return p;
    }

    @Test
    void dispatchAndCombineAreMatchedInTheirOwnGroupNotAgainstTheAllReduce() throws IOException {
        Path r0 = rank(0, DISPATCH, ALL_REDUCE, COMBINE);
        Path r1 = rank(1, ALL_REDUCE, DISPATCH, COMBINE);
        CliRun run = CliRun.of("-f", "json", r0.toString(), r1.toString());
        assertEquals(0, run.exitCode(), run.err());
        JsonNode x = JsonRenderer.mapper().readTree(run.out()).get("crossRank");
        // In one implicit group the issue orders [A2A, AR, A2A] and [AR, A2A, A2A] differ at index 0.
        assertEquals(0, x.get("mismatches").size(), x.get("mismatches").toString());
        Map<String, JsonNode> groups = new TreeMap<>();
        x.get("groups").forEach(g -> groups.put(g.get("group").asText(), g));
        assertEquals(List.of("expert-parallel", "implicit"), List.copyOf(groups.keySet()));
        assertTrue(groups.get("expert-parallel").get("inferred").asBoolean(), "no metadata: inferred");
        assertEquals(2, groups.get("expert-parallel").get("matched").asInt(), "the dispatch and the combine");
        assertEquals(1, groups.get("implicit").get("matched").asInt(), "the all-reduce");
        assertTrue(x.get("notes").toString().contains("inferred expert-parallel group"), x.get("notes").toString());
    }
}
