package io.overlapanalyze.formats.input;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What {@link Temporaries} makes is registered until deleted (the exit hook deletes what is still
 * registered: shown in a JVM of its own by {@code InterruptedWriteTest} and {@code PrivateCopiesTest});
 * a directory goes with its content, a link in it is deleted, never followed.
 */
class TemporariesTest {
    @TempDir
    Path dir;

    @Test
    void aFileIsRegisteredUntilDeleted() throws IOException {
        Path f = dir.resolve(".out.tmp");
        try (OutputStream out = Temporaries.newFile(f)) {
            out.write(1);
        }
        assertTrue(Temporaries.isRegistered(f));
        assertThrows(FileAlreadyExistsException.class, () -> Temporaries.newFile(f), "never over an existing file");
        Temporaries.delete(f);
        assertFalse(Files.exists(f));
        assertFalse(Temporaries.isRegistered(f));
    }

    @Test
    void aDirectoryGoesWithItsContentNotWhatItsLinksReach() throws IOException {
        Path keep = Files.writeString(Files.createDirectories(dir.resolve("elsewhere")).resolve("keep.txt"), "mine");
        Path d = Temporaries.create(() -> Files.createTempDirectory(dir, "copy-"));
        Files.writeString(Files.createDirectories(d.resolve("sub")).resolve("db.sqlite"), "copy");
        Files.createSymbolicLink(d.resolve("link"), keep.getParent());
        assertTrue(Temporaries.isRegistered(d));
        Temporaries.delete(d);
        assertFalse(Files.exists(d));
        assertFalse(Temporaries.isRegistered(d));
        assertTrue(Files.exists(keep), "a link's target is not deleted");
    }
}
