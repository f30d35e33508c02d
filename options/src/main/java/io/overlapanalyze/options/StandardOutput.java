package io.overlapanalyze.options;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;

/**
 * The process's standard output as bytes, remembering the first write error. Writers above it
 * ({@link java.io.PrintWriter}) swallow errors, so a full disk or {@code > /dev/full} would
 * otherwise end with exit 0 and a cut report; {@link Main} asks {@link #failure()} before exiting.
 * A reader that went away ({@code | head}: a broken pipe) is not a failure: the user stopped
 * reading on purpose.
 */
public final class StandardOutput extends FilterOutputStream {
    private volatile IOException failure;

    public StandardOutput() {
        super(new FileOutputStream(FileDescriptor.out));
    }

    @Override
    public void write(int b) throws IOException {
        try {
            out.write(b);
        } catch (IOException e) {
            throw remember(e);
        }
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        try {
            out.write(b, off, len);
        } catch (IOException e) {
            throw remember(e);
        }
    }

    @Override
    public void flush() throws IOException {
        try {
            out.flush();
        } catch (IOException e) {
            throw remember(e);
        }
    }

    /** Standard output stays open for the rest of the process (other writers share the descriptor). */
    @Override
    public void close() throws IOException {
        flush();
    }

    private IOException remember(IOException e) {
        if (failure == null) {
            failure = e;
        }
        return e;
    }

    /** The first write error that was not a broken pipe, or {@code null}. */
    public IOException failure() {
        IOException e = failure;
        return e == null || isBrokenPipe(e) ? null : e;
    }

    /** EPIPE: the reading end was closed ({@code | head}). */
    public static boolean isBrokenPipe(IOException e) {
        String m = e.getMessage();
        return m != null && (m.contains("Broken pipe") || m.contains("EPIPE"));
    }
}
