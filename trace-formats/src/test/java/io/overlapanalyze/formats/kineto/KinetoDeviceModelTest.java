package io.overlapanalyze.formats.kineto;

import io.overlapanalyze.model.RankTrace;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * The device model (metrics.md §10) from Kineto's top-level {@code deviceProperties}: the name of
 * the device the rank's work ran on, by device index, on both reading paths.
 */
class KinetoDeviceModelTest {
    @TempDir
    Path dir;

    private static String kernel(int device, long ts) {
        return "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"gemm\",\"pid\":" + device + ",\"tid\":7,\"ts\":" + ts
                + ",\"dur\":10,\"args\":{\"device\":" + device + ",\"stream\":7,\"correlation\":" + ts + "}}";
    }

    private Path write(String deviceProperties, String... events) throws Exception {
        Path f = dir.resolve("t" + System.nanoTime() + ".json");
        Files.writeString(f, "{\"schemaVersion\":1," + (deviceProperties == null ? "" : "\"deviceProperties\":"
                + deviceProperties + ",") + "\"traceEvents\":[" + String.join(",", events) + "]}");
        return f;
    }

    private static final String TWO_MODELS = "[{\"id\":0,\"name\":\"NVIDIA A100-SXM4-80GB\",\"totalGlobalMem\":1},"
            + "{\"id\":1,\"name\":\"Tesla V100-SXM2-16GB\"}]";

    @Test
    void theModelIsTheOneOfTheDeviceTheKernelsRanOn() throws Exception {
        Path f = write(TWO_MODELS, kernel(1, 100), kernel(1, 200));
        assertEquals("Tesla V100-SXM2-16GB", new KinetoReader().read(f).get(0).deviceModel());
        assertEquals("Tesla V100-SXM2-16GB", new KinetoReader().readWithJackson(f).deviceModel());
    }

    @Test
    void aFileSplitPerDeviceGivesEachRankItsOwnModel() throws Exception {
        Path f = write(TWO_MODELS, kernel(0, 100), kernel(1, 200));
        List<RankTrace> ranks = new KinetoReader().read(f);
        assertEquals(2, ranks.size());
        assertEquals("NVIDIA A100-SXM4-80GB", ranks.get(0).deviceModel());
        assertEquals("Tesla V100-SXM2-16GB", ranks.get(1).deviceModel());
        // The whole file, before the split, ran on both: joined, sorted.
        assertEquals("NVIDIA A100-SXM4-80GB + Tesla V100-SXM2-16GB",
                new KinetoReader().readWithJackson(f).deviceModel());
    }

    @Test
    void noDevicePropertiesOrNoUsableEntryIsUnknown() throws Exception {
        assertNull(new KinetoReader().read(write(null, kernel(0, 100))).get(0).deviceModel());
        assertNull(new KinetoReader().read(write("[]", kernel(0, 100))).get(0).deviceModel());
        // Malformed metadata is left out, never a failure of the file.
        Path odd = write("[{\"id\":\"x\",\"name\":\"A\"},{\"id\":0,\"name\":7},3,{\"id\":0,\"name\":\"  \"}]", kernel(0, 100));
        assertNull(new KinetoReader().read(odd).get(0).deviceModel());
        assertNull(new KinetoReader().readWithJackson(odd).deviceModel());
        assertNull(new KinetoReader().read(write("{\"id\":0}", kernel(0, 100))).get(0).deviceModel());
    }

    @Test
    void aDeviceNotListedTakesTheMachinesModelOnlyWhenAllListedDevicesAreAlike() throws Exception {
        String same = "[{\"id\":0,\"name\":\"NVIDIA H100\"},{\"id\":1,\"name\":\"NVIDIA H100\"}]";
        assertEquals("NVIDIA H100", new KinetoReader().read(write(same, kernel(5, 100))).get(0).deviceModel());
        assertNull(new KinetoReader().read(write(TWO_MODELS, kernel(5, 100))).get(0).deviceModel());
    }

    // ------------------------------------------------------------------ real traces (PROVENANCE.md)

    private static RankTrace real(String name) throws Exception {
        Path p = Path.of(System.getProperty("overlap.sharedTraces", "../shared/traces"), "kineto", name);
        Assumptions.assumeTrue(Files.isRegularFile(p), p + " not found: skipping");
        return new KinetoReader().read(p).get(0);
    }

    @Test
    void realTracesNameTheModelProvenanceStates() throws Exception {
        // PROVENANCE.md: "`deviceProperties` lists 8 × NVIDIA A100-PG509-200".
        assertEquals("NVIDIA A100-PG509-200", real("hta_nccl_data_resnet_ddp_rank0of2_a100.json.gz").deviceModel());
        // PROVENANCE.md: "Rank 1 of 2 … 2 × Tesla V100-SXM2-32GB".
        assertEquals("Tesla V100-SXM2-32GB", real("hta_df_index_resolver_rank1of2_v100_memory.json.gz").deviceModel());
        // PROVENANCE.md: "no `deviceProperties`".
        assertNull(real("hta_trace_filter_sampled_rank0of128.json.gz").deviceModel());
    }
}
