package io.overlapanalyze.options;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 29 item 10: {@code -o} over an existing file keeps its mode. The report went through a
 * temporary file created with the default mode and moved into place, so a private 0600 report came
 * out 0644.
 */
class SafeOutputModeTest {
    @TempDir
    Path tmp;

    @Test
    void replacingAPrivateFileKeepsItPrivate() throws IOException {
        Assumptions.assumeTrue(FileSystems.getDefault().supportedFileAttributeViews().contains("posix"), "no POSIX modes");
        Path target = tmp.resolve("report.txt");
        Files.writeString(target, "old");
        Files.setPosixFilePermissions(target, PosixFilePermissions.fromString("rw-------"));
        SafeOutput.write(target, List.of(), w -> w.write("new report\n"));
        assertEquals("new report\n", Files.readString(target));
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(target)));

        Files.setPosixFilePermissions(target, PosixFilePermissions.fromString("rw-rw-r--"));
        SafeOutput.write(target, List.of(), w -> w.write("again\n"));
        assertEquals("rw-rw-r--", PosixFilePermissions.toString(Files.getPosixFilePermissions(target)),
                "a group-writable file stays so (the umask does not take it away)");
    }
}
