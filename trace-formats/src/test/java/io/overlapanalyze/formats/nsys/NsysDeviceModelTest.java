package io.overlapanalyze.formats.nsys;

import io.overlapanalyze.formats.sqlite.SharedExports;
import io.overlapanalyze.model.RankTrace;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

/** The device model (metrics.md §10) from Nsight's {@code TARGET_INFO_GPU.name}, on the shared exports. */
class NsysDeviceModelTest {
    @TempDir
    Path dir;

    private static List<RankTrace> read(String name) throws Exception {
        return new NsysReader().read(SharedExports.original("nsys/" + name));
    }

    @Test
    void theExportsGpuTableNamesTheModelProvenanceStates() throws Exception {
        // PROVENANCE.md: "1 process (pid 30156) on 1 × NVIDIA H200".
        assertEquals("NVIDIA H200", read("nsys2024.6.2_pytorch_nvfuser.sqlite").get(0).deviceModel());
        // PROVENANCE.md: "1 process (rank 0), 1 × NVIDIA A100-SXM4-40GB" (the oldest schema, 2.9.1).
        assertEquals("NVIDIA A100-SXM4-40GB", read("nsys2022.2.1_saxpy_mpi_cuda.sqlite").get(0).deviceModel());
    }

    @Test
    void anExportWithoutTheGpuTableHasNoModel() throws Exception {
        // PROVENANCE.md: "`TARGET_INFO_GPU` is absent" (windowed upstream fixture, 2 processes).
        List<RankTrace> ranks = read("nsys2026.2.1_torchrun2gpu_nccl_before.sqlite");
        assertFalse(ranks.isEmpty());
        for (RankTrace t : ranks) {
            assertNull(t.deviceModel(), t.source());
        }
    }

    /**
     * A node with two models: a process' {@code deviceId} is its own CUDA numbering, not the GPU's {@code id}
     * (nsys.md §4), so without {@code TARGET_INFO_CUDA_DEVICE} the model is unknown, and with it the mapped
     * GPU's name is taken, even when that GPU's id differs from the process' device number.
     */
    @Test
    void aMixedNodeNeedsTheCudaDeviceMapping() throws Exception {
        Path copy = SharedExports.copy("nsys/nsys2022.2.1_saxpy_mpi_cuda.sqlite", dir);
        // PROVENANCE.md: pid 1230493 on deviceId 0; the export lists GPU id 0, an A100-SXM4-40GB.
        SharedExports.sql(copy, "CREATE TABLE g AS SELECT * FROM TARGET_INFO_GPU",
                "UPDATE g SET id = 1, name = 'Tesla V100-SXM2-16GB'",
                "INSERT INTO TARGET_INFO_GPU SELECT * FROM g", "DROP TABLE g");
        assertNull(new NsysReader().read(copy).get(0).deviceModel());
        SharedExports.sql(copy, "CREATE TABLE TARGET_INFO_CUDA_DEVICE (gpuId INTEGER, cudaId INTEGER, pid INTEGER)",
                "INSERT INTO TARGET_INFO_CUDA_DEVICE VALUES (1, 0, 1230493)");
        assertEquals("Tesla V100-SXM2-16GB", new NsysReader().read(copy).get(0).deviceModel());
    }
}
