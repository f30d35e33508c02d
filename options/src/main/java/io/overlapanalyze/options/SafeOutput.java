package io.overlapanalyze.options;

import io.overlapanalyze.formats.input.Messages;
import io.overlapanalyze.formats.input.Temporaries;
import java.io.BufferedWriter;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.FilterOutputStream;
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
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Writes an output file safely: never onto an input, nor anywhere inside an input directory (an
 * Ascend capture is read as a whole), whatever links lead there; a regular file through a
 * temporary file in the same directory that is moved into place, so a crash never leaves a
 * half-written file. A character device ({@code /dev/null}) or a FIFO is written through, never
 * replaced; {@code -} and {@code /dev/stdout} mean standard output; other special files
 * (sockets, block devices) are refused.
 */
public final class SafeOutput {
    /** The names of standard output a user may give as an output file. */
    private static final Set<String> STDOUT_NAMES = Set.of("-", "/dev/stdout", "/dev/fd/1", "/proc/self/fd/1");

    /** File type bits of {@code st_mode}. */
    private static final int S_IFMT = 0170000;
    private static final int S_IFIFO = 0010000;
    private static final int S_IFCHR = 0020000;
    private static final int S_IFDIR = 0040000;
    private static final int S_IFBLK = 0060000;
    private static final int S_IFREG = 0100000;
    private static final int S_IFSOCK = 0140000;

    /**
     * Standard output when the real process runs (set by {@link Main#main}: the stream that
     * remembers write errors); {@code null} in tests, which then write to the descriptor directly.
     */
    private static volatile OutputStream standardOutput;

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

    public static void useStandardOutput(OutputStream out) {
        standardOutput = out;
    }

    /** {@code -}, {@code /dev/stdout} and its other names: the report goes to standard output. */
    public static boolean isStandardOutput(Path target) {
        return target != null && STDOUT_NAMES.contains(target.toString());
    }

    /** {@code target}, or {@code null} when it names standard output (commands print there by default). */
    public static Path fileOrNull(Path target) {
        return isStandardOutput(target) ? null : target;
    }

    /**
     * Refuses two outputs of one run that land in the same place (one would silently replace the
     * other): the same file by any name, or standard output twice. Devices may be shared
     * ({@code /dev/null} twice loses nothing). {@code null} values are outputs not asked for.
     *
     * @param outputs option name to target, in the order the command writes them
     */
    public static void requireDistinct(Map<String, Path> outputs) {
        List<Map.Entry<String, Path>> seen = new ArrayList<>();
        for (Map.Entry<String, Path> e : outputs.entrySet()) {
            Path target = e.getValue();
            if (target == null) {
                continue;
            }
            for (Map.Entry<String, Path> earlier : seen) {
                if (sameDestination(earlier.getValue(), target)) {
                    throw new UserInputException(earlier.getKey() + " and " + e.getKey() + " both write to "
                            + Messages.quote(target) + "; one would replace the other: give different files");
                }
            }
            seen.add(e);
        }
    }

    private static boolean sameDestination(Path a, Path b) {
        if (isStandardOutput(a) || isStandardOutput(b)) {
            return isStandardOutput(a) && isStandardOutput(b);
        }
        if (Files.exists(a) && !Files.isRegularFile(a)) {
            return false;
        }
        return InputFiles.realLocation(a).equals(InputFiles.realLocation(b));
    }

    /** Refuses {@code target} now, before any work, when writing it would change an input. */
    public static void check(Path target, Collection<Path> inputs) {
        if (target != null && !isStandardOutput(target)) {
            refuseInput(target, InputFiles.of(inputs));
        }
    }

    private static void refuseInput(Path target, InputFiles inputs) {
        String conflict = inputs.conflict(target);
        if (conflict != null) {
            throw new UserInputException(Messages.quote(target) + ": " + conflict);
        }
    }

    /** Writes UTF-8 text to {@code target}. */
    public static void write(Path target, Collection<Path> inputs, TextContent content) {
        writeBytes(target, inputs, out -> {
            Writer w = new BufferedWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8));
            content.writeTo(w);
            w.flush();
        });
    }

    /**
     * Appends UTF-8 text to {@code target} (created when missing), as a CI job summary expects
     * ({@code $GITHUB_STEP_SUMMARY} collects what every step writes there). The text is rendered
     * first and written in one call, so a failure to render leaves the file as it was; after earlier
     * content it starts on a new line with a blank line before it (a markdown block of its own). The
     * same targets as {@link #write} are refused; a device or FIFO is written through.
     */
    public static void append(Path target, Collection<Path> inputs, TextContent content) {
        if (isStandardOutput(target)) {
            write(target, inputs, content);
            return;
        }
        refuseInput(target, InputFiles.of(inputs));
        Path abs = target.toAbsolutePath().normalize();
        int type = typeOf(abs);
        if (type != S_IFREG && type != 0) {
            write(target, inputs, content); // devices and FIFOs are written through; the rest is refused there
            return;
        }
        java.io.StringWriter text = new java.io.StringWriter();
        try {
            content.writeTo(text);
            Path real = InputFiles.realLocation(abs);
            long before = type == 0 ? 0 : Files.size(real);
            String lead = before == 0 ? "" : (endsWithNewline(real) ? "\n" : "\n\n");
            if (real.getParent() != null) {
                Files.createDirectories(real.getParent());
            }
            Files.write(real, (lead + text).getBytes(StandardCharsets.UTF_8), StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND, StandardOpenOption.WRITE);
        } catch (IOException e) {
            throw new UserInputException(Messages.quote(target) + ": cannot append: " + Messages.oneLine(e), e);
        }
    }

    private static boolean endsWithNewline(Path file) throws IOException {
        try (java.nio.channels.SeekableByteChannel ch = Files.newByteChannel(file, StandardOpenOption.READ)) {
            if (ch.size() == 0) {
                return true;
            }
            ch.position(ch.size() - 1);
            java.nio.ByteBuffer last = java.nio.ByteBuffer.allocate(1);
            ch.read(last);
            return last.get(0) == '\n';
        }
    }

    /** Writes bytes to {@code target}. */
    public static void writeBytes(Path target, Collection<Path> inputs, ByteContent content) {
        if (isStandardOutput(target)) {
            writeStandardOutput(content);
            return;
        }
        refuseInput(target, InputFiles.of(inputs));
        Path abs = target.toAbsolutePath().normalize();
        switch (typeOf(abs)) {
            case S_IFREG, 0 -> writeRegular(target, InputFiles.realLocation(abs), content);
            case S_IFCHR, S_IFIFO -> writeThrough(target, abs, content);
            case S_IFDIR -> throw new UserInputException(Messages.quote(target)
                    + ": is a directory, not a file to write");
            case S_IFBLK -> throw new UserInputException(Messages.quote(target)
                    + ": is a block device; refusing to write to it");
            case S_IFSOCK -> throw new UserInputException(Messages.quote(target)
                    + ": is a socket, not a file to write");
            default -> throw new UserInputException(Messages.quote(target)
                    + ": is a special file, not a regular file to write");
        }
    }

    /** The file type of {@code p} (links followed), one of the {@code S_IF*} bits; 0 when it does not exist. */
    private static int typeOf(Path p) {
        if (!Files.exists(p)) {
            return 0;
        }
        try {
            return ((Integer) Files.getAttribute(p, "unix:mode")) & S_IFMT;
        } catch (UnsupportedOperationException | IllegalArgumentException | IOException e) {
            // No unix view: regular files and directories are all we can tell apart.
            return Files.isRegularFile(p) ? S_IFREG : Files.isDirectory(p) ? S_IFDIR : -1;
        }
    }

    private static void writeRegular(Path target, Path real, ByteContent content) {
        Path dir = real.getParent();
        // Created with the default permissions (umask), unlike Files.createTempFile's 0600.
        Path tmp = dir.resolve("." + real.getFileName() + "." + Long.toHexString(ThreadLocalRandom.current().nextLong())
                + ".tmp");
        try {
            Files.createDirectories(dir);
            // Registered: Ctrl-C or SIGTERM while it is written deletes it (a shutdown hook). Replacing a file
            // keeps its mode (a private 0600 report stays private, from the first byte).
            Set<java.nio.file.attribute.PosixFilePermission> mode = modeOf(real);
            try (OutputStream out = Temporaries.newFile(tmp, mode)) {
                content.writeTo(out);
            }
            if (mode != null) {
                Files.setPosixFilePermissions(tmp, mode); // what the umask took away at creation
            }
            // Onto the real path: a symbolic link named as the target stays a link to the new content.
            try {
                Files.move(tmp, real, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, real, StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            throw new UserInputException(Messages.quote(target) + ": cannot write: " + Messages.oneLine(e), e);
        } finally {
            // Best effort: the temporary file is hidden and named after the target.
            Temporaries.delete(tmp);
        }
    }

    /** The permissions of the regular file at {@code real}, or {@code null} when there is none (or no POSIX view). */
    private static Set<java.nio.file.attribute.PosixFilePermission> modeOf(Path real) {
        try {
            return Files.isRegularFile(real) ? Files.getPosixFilePermissions(real) : null;
        } catch (UnsupportedOperationException | IOException e) {
            return null;
        }
    }

    /** A device or FIFO: opened for writing as it is (no temporary file next to it, never replaced). */
    private static void writeThrough(Path target, Path abs, ByteContent content) {
        try (OutputStream out = Files.newOutputStream(abs, StandardOpenOption.WRITE)) {
            content.writeTo(out);
        } catch (IOException e) {
            throw new UserInputException(Messages.quote(target) + ": cannot write: " + Messages.oneLine(e), e);
        }
    }

    private static void writeStandardOutput(ByteContent content) {
        OutputStream stdout = standardOutput;
        OutputStream out = new FilterOutputStream(stdout != null ? stdout : new FileOutputStream(FileDescriptor.out)) {
            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                this.out.write(b, off, len);
            }

            @Override
            public void close() throws IOException {
                flush();
            }
        };
        try {
            content.writeTo(out);
            out.flush();
        } catch (IOException e) {
            if (!StandardOutput.isBrokenPipe(e)) {
                throw new UserInputException("cannot write to standard output: " + Messages.oneLine(e), e);
            }
        }
    }
}
