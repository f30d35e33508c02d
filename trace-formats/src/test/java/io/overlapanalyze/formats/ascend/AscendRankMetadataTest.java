package io.overlapanalyze.formats.ascend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.overlapanalyze.model.RankSource;
import io.overlapanalyze.model.RankTrace;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Rank metadata that cannot be right is said so, never taken silently: a {@code rank_id} that is no
 * number, a {@code RANK_DEVICE_MAP} that gives one device two ranks. Inputs are copies of the shared
 * captures (rank 1 of each), changed in the copy only.
 */
class AscendRankMetadataTest {
    private static final Path SHARED = Path.of("..", "..", "shared", "traces", "ascend");

    @TempDir
    Path dir;

    private Path copyOf(String capture) throws IOException {
        Path from = SHARED.resolve(capture);
        Assumptions.assumeTrue(Files.isDirectory(from), "shared Ascend captures not found at " + from.toAbsolutePath()
                + ": skipping");
        Path to = dir.resolve("rank1_ascend_pt");
        try (Stream<Path> all = Files.walk(from)) {
            for (Path p : (Iterable<Path>) all::iterator) {
                Path target = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(p, target);
                }
            }
        }
        return to;
    }

    @Test
    void aRankIdThatIsNoNumberFallsBackToTheFileNameWithAWarning() throws Exception {
        Path capture = copyOf("torch_npu_text_level1/rank1_ascend_pt");
        Path info = capture.resolve("profiler_info_1.json");
        String text = Files.readString(info);
        assertTrue(text.matches("(?s).*\"rank_id\"\\s*:\\s*1\\b.*"), "the shared file says rank_id 1");
        Files.writeString(info, text.replaceFirst("\"rank_id\"\\s*:\\s*1", "\"rank_id\": \"zero\""));

        RankTrace t = new AscendReader().read(capture).get(0);
        assertEquals(1, t.rank());
        assertEquals(RankSource.FILE_NAME, t.rankSource());
        assertTrue(t.warnings().stream().anyMatch(w -> w.startsWith("profiler_info_1.json: rank_id is not a rank number")
                && w.contains("using rank 1 from the file name")), t.warnings().toString());
    }

    @Test
    void aDeviceWithTwoRanksInTheMapIsWarned() throws Exception {
        Path capture = copyOf("torch_npu_db_level1/rank1_ascend_pt");
        Path db = capture.resolve("ASCEND_PROFILER_OUTPUT/ascend_pytorch_profiler_1.db");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); Statement s = c.createStatement()) {
            s.execute("INSERT INTO RANK_DEVICE_MAP (rankId, deviceId) SELECT rankId + 4, deviceId FROM RANK_DEVICE_MAP");
        }
        RankTrace t = new AscendReader().read(capture).get(0);
        assertTrue(t.warnings().stream().anyMatch(w -> w.startsWith("RANK_DEVICE_MAP gives device")
                && w.contains("several ranks [1, 5]")), t.warnings().toString());
        assertEquals(1, t.rank(), "the rank of profiler_info_1.json, not a guess between the map's two");
    }
}
