package io.overlapanalyze.formats.ascend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.overlapanalyze.model.DeviceKind;
import io.overlapanalyze.model.RankTrace;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * MC² operators in the DB export: a compute task whose operator name (COMPUTE_TASK_INFO.name) is an
 * MC² kernel is FUSED. A copy of the shared rank-1 database has one operator renamed
 * {@code MatmulAllReduce}; how many tasks that makes FUSED is counted independently with SQL.
 */
class AscendDbMc2Test {
    private static final Path DB = Path.of("..", "..", "shared", "traces", "ascend", "torch_npu_db_level1",
            "rank1_ascend_pt", "ASCEND_PROFILER_OUTPUT", "ascend_pytorch_profiler_1.db");

    @TempDir
    Path dir;

    @Test
    void aComputeTaskNamedLikeAnMc2KernelIsFused() throws Exception {
        Assumptions.assumeTrue(Files.isRegularFile(DB), "shared Ascend DB capture not found at " + DB.toAbsolutePath()
                + ": skipping");
        Path copy = dir.resolve("ascend_pytorch_profiler_1.db");
        Files.copy(DB, copy);
        long expected;
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + copy); Statement s = c.createStatement()) {
            s.execute("UPDATE STRING_IDS SET value = 'MatmulAllReduce' WHERE id = (SELECT name FROM COMPUTE_TASK_INFO"
                    + " ORDER BY globalTaskId LIMIT 1)");
            try (ResultSet rs = s.executeQuery("SELECT count(*) FROM TASK WHERE globalTaskId IN (SELECT globalTaskId"
                    + " FROM COMPUTE_TASK_INFO WHERE name = (SELECT name FROM COMPUTE_TASK_INFO ORDER BY globalTaskId"
                    + " LIMIT 1))")) {
                expected = rs.getLong(1);
            }
        }
        assertTrue(expected > 0);
        RankTrace t = new AscendReader().read(copy).get(0);
        int fused = 0;
        for (int i = 0; i < t.device().size(); i++) {
            if (t.device().kind(i) == DeviceKind.FUSED) {
                fused++;
            }
        }
        assertEquals(expected, fused);

        RankTrace plain = new AscendReader().read(DB).get(0);
        for (int i = 0; i < plain.device().size(); i++) {
            assertTrue(plain.device().kind(i) != DeviceKind.FUSED, "the shared capture runs no MC² kernel");
        }
    }
}
