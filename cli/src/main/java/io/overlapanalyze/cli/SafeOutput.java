package io.overlapanalyze.cli;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Collection;

/**
 * Writes a report file safely: never onto one of the inputs, and through a temporary file in the
 * same directory that is moved into place, so a crash never leaves a half-written report.
 */
public final class SafeOutput {
    private SafeOutput() {
    }

    /** Something that writes the report text. */
    @FunctionalInterface
    public interface Content {
        void writeTo(Writer w) throws IOException;
    }

    public static void write(Path target, Collection<Path> inputs, Content content) {
        Path abs = target.toAbsolutePath().normalize();
        for (Path in : inputs) {
            if (sameFile(abs, in)) {
                throw new UserInputException(target + ": refusing to overwrite an input file");
            }
        }
        if (Files.isDirectory(abs)) {
            throw new UserInputException(target + ": is a directory, not a file to write");
        }
        Path dir = abs.getParent();
        Path tmp = null;
        try {
            if (dir != null) {
                Files.createDirectories(dir);
            }
            tmp = Files.createTempFile(dir, "." + abs.getFileName() + ".", ".tmp");
            try (Writer w = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
                content.writeTo(w);
            }
            try {
                Files.move(tmp, abs, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, abs, StandardCopyOption.REPLACE_EXISTING);
            }
            tmp = null;
        } catch (IOException e) {
            throw new UserInputException(target + ": cannot write: " + e.getMessage(), e);
        } finally {
            if (tmp != null) {
                try {
                    Files.deleteIfExists(tmp);
                } catch (IOException ignored) {
                    // Best effort: the temporary file is hidden and named after the target.
                }
            }
        }
    }

    private static boolean sameFile(Path target, Path input) {
        Path in = input.toAbsolutePath().normalize();
        if (target.equals(in)) {
            return true;
        }
        try {
            return Files.exists(target) && Files.exists(in) && Files.isSameFile(target, in);
        } catch (IOException e) {
            return false;
        }
    }
}
