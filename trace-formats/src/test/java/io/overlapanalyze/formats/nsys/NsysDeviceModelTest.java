package io.overlapanalyze.formats.nsys;

import io.overlapanalyze.formats.sqlite.SharedExports;
import io.overlapanalyze.model.RankTrace;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

/** The device model (metrics.md §10) from Nsight's {@code TARGET_INFO_GPU.name}, on the shared exports. */
class NsysDeviceModelTest {
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
}
