package io.overlapanalyze.formats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.overlapanalyze.formats.input.TraceFormatException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 29 item 10: a subdirectory of a job directory this user may not list is named and the
 * rest is read; before, it stopped the whole expansion ("cannot list directory"). Needs a user the
 * file system refuses: skipped as root (root lists any directory).
 */
class UnlistableDirectoryTest {
    @TempDir
    Path tmp;
    private Path locked;

    @BeforeEach
    void lockOneSubdirectory() throws IOException {
        Assumptions.assumeFalse("root".equals(System.getProperty("user.name")),
                "running as root: every directory can be listed, nothing to refuse");
        Files.writeString(Files.createDirectories(tmp.resolve("job/a")).resolve("rank0.json"), "{}");
        locked = Files.createDirectories(tmp.resolve("job/b"));
        Files.writeString(locked.resolve("rank1.json"), "{}");
        Files.setPosixFilePermissions(locked, PosixFilePermissions.fromString("---------"));
    }

    @AfterEach
    void unlock() throws IOException {
        if (locked != null) {
            Files.setPosixFilePermissions(locked, PosixFilePermissions.fromString("rwx------"));
        }
    }

    @Test
    void theRestIsExpandedAndTheDirectoryNamed() throws TraceFormatException {
        TraceFormats.Expanded e = TraceFormats.standard().expand(List.of(tmp.resolve("job")), null, (f, s) -> true);
        assertEquals(List.of(tmp.resolve("job/a/rank0.json")), e.files());
        assertEquals(List.of(locked), e.unreadableDirectories());
    }

    @Test
    void aDirectoryWithNothingElseSaysWhy() throws IOException {
        Files.delete(tmp.resolve("job/a/rank0.json"));
        TraceFormatException x = assertThrows(TraceFormatException.class,
                () -> TraceFormats.standard().expand(List.of(tmp.resolve("job")), null, (f, s) -> true));
        assertTrue(x.getMessage().contains("cannot be listed (permission denied)"), x.getMessage());
    }
}
