package io.overlapanalyze.cli.analyse;

import io.overlapanalyze.cli.CliRun;
import io.overlapanalyze.cli.SharedTraces;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.overlapanalyze.render.JsonRenderer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * No silent zero: an export that cannot tell communication from compute (no kernel names, no HCCL
 * table) says so, and its communication figures read "n/a" instead of 0. The inputs are copies of
 * shared exports with one table dropped; the originals are never opened for writing.
 */
class CommUnclassifiedTest {
    @TempDir
    Path dir;

    private Path copyWithout(Path original, String table) throws Exception {
        Path copy = dir.resolve(original.getFileName());
        Files.copy(original, copy);
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + copy); Statement s = c.createStatement()) {
            s.execute("DROP TABLE " + table);
        }
        return copy;
    }

    private static void assertSaysSo(Path input, String why) throws Exception {
        CliRun text = CliRun.of("--no-timeline", input.toString());
        assertEquals(0, text.exitCode(), text.err());
        assertTrue(text.out().contains("communication: not available: communication cannot be classified"), text.out());
        assertTrue(text.out().contains(why), text.out());
        assertTrue(text.out().contains("totals: comm busy n/a"), text.out());
        assertFalse(text.out().contains("exposed comm 0.000"), text.out());

        CliRun json = CliRun.of("-f", "json", input.toString());
        JsonNode na = JsonRenderer.mapper().readTree(json.out()).at("/ranks/0/notAvailable/communication");
        assertTrue(na.isTextual() && na.asText().contains(why), na.toString());
    }

    @Test
    void anNsightExportWithoutNames() throws Exception {
        Path export = SharedTraces.root().resolve("nsys/nsys2026.2.1_torchrun2gpu_nccl_before.sqlite");
        assertSaysSo(copyWithout(export, "StringIds"), "no StringIds table");
    }

    @Test
    void anAscendDatabaseWithoutItsCommunicationTable() throws Exception {
        Path db = SharedTraces.root().resolve("ascend/torch_npu_db_level1/rank1_ascend_pt/ASCEND_PROFILER_OUTPUT/"
                + "ascend_pytorch_profiler_1.db");
        assertSaysSo(copyWithout(db, "COMMUNICATION_OP"), "no COMMUNICATION_OP table");
    }

    @Test
    void aCompleteExportStaysMeasured() {
        Path export = SharedTraces.root().resolve("nsys/nsys2026.2.1_torchrun2gpu_nccl_before.sqlite");
        CliRun text = CliRun.of("--no-timeline", export.toString());
        assertEquals(0, text.exitCode(), text.err());
        assertFalse(text.out().contains("communication: not available"), text.out());
    }
}
