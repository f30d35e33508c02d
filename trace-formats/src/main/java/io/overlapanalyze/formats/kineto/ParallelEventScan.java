package io.overlapanalyze.formats.kineto;

import io.overlapanalyze.formats.json.Utf8JsonScanner;
import io.overlapanalyze.formats.json.Utf8JsonScanner.Unsupported;
import io.overlapanalyze.formats.json.Utf8NameTable;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Scans the {@code traceEvents} array of an uncompressed file on several threads, and hands the
 * events to the session in file order, so that the model is exactly that of a sequential read.
 *
 * <p>The array is cut into chunks of about {@link #chunkBytes} bytes. A chunk starts at the first
 * place after its nominal offset that looks like the start of an element ({@code }, {}), and
 * ends where the next chunk starts. Each chunk is scanned on its own (a pool thread), keeping a copy
 * of the events the collector uses. Whether a chunk really started at an element is only known once
 * the chunk before it has been scanned: its last element must end exactly where the next begins.
 * The first chunk starts at the array's first element, which the sequential header scan found; so
 * by induction every chunk whose start was confirmed this way is what a sequential scan would have
 * read. Events are replayed into the session only from confirmed chunks.
 *
 * <p>When a guess was wrong (a {@code }, {} inside a string, or inside an event's nested args),
 * the chunk before it does not land on it: the scan reports {@link Resequence} and the reader
 * reads the file again sequentially. An {@link Unsupported} in a confirmed chunk is a real one
 * (damaged or unusual JSON): the reader then falls back to Jackson, as it does sequentially.
 *
 * <p>Memory: at most {@link #window} chunks are in flight, each holding copies of the events it
 * found (those the collector would ignore are counted, not kept), so memory is bounded by the chunk
 * size, not by the file.
 */
final class ParallelEventScan implements java.io.Closeable {
    /** A chunk's guessed start was not an element start: read the file sequentially. */
    static final class Resequence extends RuntimeException {
        Resequence(String why) {
            super(why, null, false, false);
        }
    }

    /** What one chunk found. */
    private static final class Chunk {
        final long start;
        final long end;
        /** Copies of the events in order; {@link #IGNORED} and {@link #NULL_EVENT} stand for the others. */
        final List<EventHolder> events = new ArrayList<>();
        /** True when the scan reached {@link #end} exactly at an element start. */
        boolean landed;
        /** The offset just after the array's closing bracket, when this chunk reached it; else -1. */
        long arrayEnd = -1;
        RuntimeException failure;

        Chunk(long start, long end) {
            this.start = start;
            this.end = end;
        }
    }

    /**
     * Before the real scan, small samples spread over the array are scanned and their events given
     * to a scratch collector, and thrown away. Profilers write events grouped by kind (CPU ops, then
     * kernels, then flows), so without this the JIT compiles the scanner and the collector for the
     * first kind only, and recompiles (after a slow spell) each time the next kind begins. The
     * samples cost about 0.2 % of a 1 GB file.
     */
    private static final int REHEARSALS = 16;
    private static final int REHEARSAL_BYTES = 128 << 10;

    private static final EventHolder IGNORED = new EventHolder();
    private static final EventHolder NULL_EVENT = new EventHolder();

    private final Path file;
    private final long fileSize;
    private final int chunkBytes;
    private final int threads;
    private final int window;
    private FileChannel tail;

    ParallelEventScan(Path file, long fileSize, int chunkBytes, int threads) {
        this.file = file;
        this.fileSize = fileSize;
        this.chunkBytes = chunkBytes;
        this.threads = threads;
        this.window = threads * 2;
    }

    /**
     * Scans the array whose first element starts at {@code firstElement}, replaying its events into
     * {@code sink} in order; returns the offset just after the array's closing bracket.
     */
    long run(long firstElement, ByteEventReader.Sink sink) throws IOException {
        AtomicInteger names = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, "overlap-analyze-scan-" + names.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        ThreadLocal<Worker> workers = ThreadLocal.withInitial(Worker::new);
        ArrayDeque<Future<Chunk>> inFlight = new ArrayDeque<>();
        try {
            List<Future<Chunk>> rehearsals = new ArrayList<>();
            long span = fileSize - firstElement;
            if (span > (long) REHEARSALS * REHEARSAL_BYTES * 8) {
                for (int i = 0; i < REHEARSALS; i++) {
                    long from = firstElement + span * (2L * i + 1) / (2L * REHEARSALS);
                    rehearsals.add(pool.submit(() -> workers.get().scan(false, from, from + REHEARSAL_BYTES)));
                }
            }
            for (Future<Chunk> f : rehearsals) {
                Chunk c = get(f);
                for (EventHolder e : c.events) {
                    if (e != NULL_EVENT && e != IGNORED) {
                        sink.rehearse(e);
                    }
                }
            }
            long nominal = firstElement;
            long expectedStart = firstElement;
            boolean submittedAll = false;
            while (true) {
                while (!submittedAll && inFlight.size() < window) {
                    long from = nominal;
                    long to = nominal + chunkBytes;
                    boolean first = from == firstElement;
                    inFlight.add(pool.submit(() -> workers.get().scan(first, from, to)));
                    nominal = to;
                    submittedAll = to >= fileSize;
                }
                Future<Chunk> next = inFlight.poll();
                if (next == null) {
                    throw new Unsupported("the events array does not end before the end of the file");
                }
                Chunk c = get(next);
                if (c.start != expectedStart) {
                    throw new Resequence("chunk boundary at " + c.start + " was not an element start");
                }
                for (EventHolder e : c.events) {
                    if (e == NULL_EVENT) {
                        sink.nullEvent();
                    } else if (e == IGNORED) {
                        sink.ignoredEvent();
                    } else {
                        sink.event(e);
                    }
                }
                if (c.failure != null) {
                    throw c.failure; // a real one: this chunk's start is confirmed
                }
                if (c.arrayEnd >= 0) {
                    return c.arrayEnd;
                }
                if (!c.landed) {
                    throw new Resequence("chunk " + c.start + ".." + c.end + " overshot the next chunk's start");
                }
                expectedStart = c.end;
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /** A scanner over the rest of the file from {@code offset} (what follows the events array). */
    Utf8JsonScanner scannerAt(long offset) throws IOException {
        tail = FileChannel.open(file, StandardOpenOption.READ);
        tail.position(offset);
        return new Utf8JsonScanner(Channels.newInputStream(tail), offset);
    }

    @Override
    public void close() throws IOException {
        if (tail != null) {
            tail.close();
        }
    }

    private static Chunk get(Future<Chunk> f) throws IOException {
        try {
            return f.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while reading", e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof UncheckedIOException u) {
                throw u.getCause();
            }
            if (cause instanceof RuntimeException r) {
                throw r;
            }
            if (cause instanceof Error err) {
                throw err;
            }
            throw new IOException(cause);
        }
    }

    /** One pool thread's reusable state: its own name table, holder and search buffer. */
    private final class Worker {
        private final EventHolder holder = new EventHolder();
        private final byte[] probe = new byte[64 * 1024];
        private final Utf8NameTable names = new Utf8NameTable();

        Chunk scan(boolean first, long nominalStart, long nominalEnd) {
            try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
                long start = first ? nominalStart : elementStartAfter(ch, nominalStart);
                long end = nominalEnd >= fileSize ? -1 : elementStartAfter(ch, nominalEnd);
                // No element start near the next cut: this chunk runs to the array's end.
                Chunk c = new Chunk(start, end < 0 ? Long.MAX_VALUE : end);
                if (start < 0) {
                    return c; // never confirmed: the chunk before runs on past it
                }
                ch.position(start);
                InputStream in = Channels.newInputStream(ch);
                Utf8JsonScanner s = new Utf8JsonScanner(in, start);
                ByteEventReader reader = new ByteEventReader(s, null, holder, names);
                try {
                    scanElements(s, reader, c);
                } catch (RuntimeException e) {
                    c.failure = e;
                }
                return c;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }


        /** Elements from the chunk's start until the next chunk's start (or the array's end). */
        private void scanElements(Utf8JsonScanner s, ByteEventReader reader, Chunk c) throws IOException {
            for (;;) {
                int b = s.peek();
                long at = s.offset();
                if (at == c.end) {
                    c.landed = true;
                    return;
                }
                if (at > c.end) {
                    return; // overshot: the next chunk's guess was wrong
                }
                if (b == '{') {
                    reader.readEvent();
                    c.events.add(TraceCollector.ignores(holder) ? IGNORED : holder.copy());
                } else if (b == 'n') {
                    s.literal(Utf8JsonScanner.NULL);
                    c.events.add(NULL_EVENT);
                } else {
                    throw new Unsupported("a trace event that is not an object");
                }
                if (!s.nextElement()) {
                    c.arrayEnd = s.offset();
                    return;
                }
            }
        }

        /**
         * The offset of the first {@code {} after {@code from} that follows {@code }} and {@code ,}
         * (whitespace between), and is followed by a quote or {@code }}: what the start of an
         * element looks like in the events array. -1 when none is found in the next 4 MiB.
         */
        private long elementStartAfter(FileChannel ch, long from) throws IOException {
            long at = from;
            int state = 0; // 0: looking for '}', 1: saw '}', 2: saw '}' ','
            for (int round = 0; round < 64; round++) {
                ByteBuffer bb = ByteBuffer.wrap(probe);
                int n = ch.read(bb, at);
                if (n <= 0) {
                    return -1;
                }
                for (int i = 0; i < n; i++) {
                    int c = probe[i];
                    boolean ws = c == ' ' || c == '\n' || c == '\r' || c == '\t';
                    if (ws) {
                        continue;
                    }
                    if (state == 2 && c == '{') {
                        long brace = at + i;
                        if (followedByKeyOrEnd(ch, brace + 1)) {
                            return brace;
                        }
                        state = 0;
                    } else if (state == 1 && c == ',') {
                        state = 2;
                    } else {
                        state = c == '}' ? 1 : 0;
                    }
                }
                at += n;
            }
            return -1;
        }

        private boolean followedByKeyOrEnd(FileChannel ch, long from) throws IOException {
            ByteBuffer small = ByteBuffer.allocate(256);
            int n = ch.read(small, from);
            for (int i = 0; i < n; i++) {
                int c = small.get(i);
                if (c == ' ' || c == '\n' || c == '\r' || c == '\t') {
                    continue;
                }
                return c == '"' || c == '}';
            }
            return false;
        }
    }
}
