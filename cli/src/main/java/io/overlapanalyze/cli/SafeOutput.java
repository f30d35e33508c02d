package io.overlapanalyze.cli;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Collection;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Writes an output file safely: never onto one of the inputs, and through a temporary file in the
 * same directory that is moved into place, so a crash never leaves a half-written file.
 */
public final class SafeOutput {
    private SafeOutput() {
    }

    /** Something that writes text. */
    @FunctionalInterface
    public interface TextContent {
        void writeTo(Writer w) throws IOException;
    }

    /** Something that writes bytes. */
    @FunctionalInterface
    public interface ByteContent {
        void writeTo(OutputStream out) throws IOException;
    }

    /** Writes UTF-8 text to {@code target}. */
    public static void write(Path target, Collection<Path> inputs, TextContent content) {
        writeBytes(target, inputs, out -> {
            Writer w = new BufferedWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8));
            content.writeTo(w);
            w.flush();
        });
    }

    /** Writes bytes to {@code target}. */
    public static void writeBytes(Path target, Collection<Path> inputs, ByteContent content) {
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
        // Created with the default permissions (umask), unlike Files.createTempFile's 0600.
        Path tmp = dir.resolve("." + abs.getFileName() + "." + Long.toHexString(ThreadLocalRandom.current().nextLong())
                + ".tmp");
        try {
            Files.createDirectories(dir);
            try (OutputStream out = Files.newOutputStream(tmp, StandardOpenOption.CREATE_NEW,
                    StandardOpenOption.WRITE)) {
                content.writeTo(out);
            }
            try {
                Files.move(tmp, abs, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, abs, StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            throw new UserInputException(target + ": cannot write: " + TraceLoader.oneLine(e), e);
        } finally {
            try {
                Files.deleteIfExists(tmp);
            } catch (IOException ignored) {
                // Best effort: the temporary file is hidden and named after the target.
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
