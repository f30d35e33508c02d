package io.overlapanalyze.formats.json;

import io.overlapanalyze.formats.input.InputStreams;
import io.overlapanalyze.formats.input.ThreadBudget;
import io.overlapanalyze.formats.json.Utf8JsonScanner.Unsupported;

import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
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
import java.util.function.Supplier;

/**
 * Scans the array of trace events of an uncompressed file on several threads, and hands the
 * elements to the reader in file order, so that the reader sees exactly what a sequential read
 * would give it. Format-blind: a per-thread {@link ElementParser} turns each element into the
 * reader's own record.
 *
 * <p>The array is cut into chunks of about {@code chunkBytes} bytes. A chunk starts at the first
 * place after its nominal offset that looks like the start of an element ({@code }, {}), and
 * ends where the next chunk starts. Each chunk is scanned on its own (a pool thread), keeping the
 * parsed elements. Whether a chunk really started at an element is only known once the chunk
 * before it has been scanned: its last element must end exactly where the next begins. The first
 * chunk starts at the array's first element, which the reader's sequential scan of the header
 * found; so by induction every chunk whose start was confirmed this way is what a sequential scan
 * would have read. Elements are replayed only from confirmed chunks.
 *
 * <p>When a guess was wrong (a {@code }, {} inside a string, or inside an element's nested
 * objects), the chunk before it does not land on it: the scan throws {@link Resequence} and the
 * reader reads the file again sequentially. An {@link Unsupported} in a confirmed chunk is a real
 * one (damaged or unusual JSON), for the reader's reference path to deal with.
 *
 * <p>A chunk keeps what its elements parsed to in a batch of the reader's own ({@link BatchParser}:
 * the Kineto reader packs its events into primitive columns, not an object per event), or, through
 * {@link #run(long, Supplier, Replay)}, in a list of one object per element.
 *
 * <p>Memory: at most twice as many chunks as threads are in flight, each holding what its elements
 * parsed to (a parser keeps nothing but a count for elements the reader ignores), so memory is
 * bounded by the chunk size, not by the file.
 */
public final class ParallelArrayScan implements Closeable {
    /** A chunk's guessed start was not an element start: read the file sequentially. */
    public static final class Resequence extends RuntimeException {
        Resequence(String why) {
            super(why, null, false, false);
        }
    }

    /** Parses one element; one instance per pool thread (it may keep thread-confined state). */
    public interface ElementParser<E> {
        /** Parses the element that comes next in {@code s} (whitespace before it is skipped). */
        E parse(Utf8JsonScanner s) throws IOException;
    }

    /**
     * Parses elements into a batch of the reader's own (one batch per chunk); one instance per pool
     * thread (it may keep thread-confined state).
     */
    public interface BatchParser<B> {
        /** An empty batch for the next chunk. */
        B newBatch();

        /** Parses the element that comes next in {@code s} (whitespace before it is skipped) into {@code batch}. */
        void parse(Utf8JsonScanner s, B batch) throws IOException;
    }

    /** Where confirmed chunks' batches go, in file order. */
    public interface BatchReplay<B> {
        /** A confirmed chunk's elements, in file order. */
        void replay(B batch) throws IOException;

        /** A sample's elements taken to warm up the JIT (see {@link #REHEARSALS}): only for scratch state. */
        void rehearse(B batch);
    }

    /** Where confirmed elements go, in file order. */
    public interface Replay<E> {
        void element(E element) throws IOException;

        /**
         * An element from a sample taken to warm up the JIT (see {@link #REHEARSALS}); it is not
         * part of the result and must only feed scratch state.
         */
        void rehearse(E element);
    }

    /**
     * Before the real scan, small samples spread over the array are parsed and handed to
     * {@link Replay#rehearse}, then thrown away. Profilers write events grouped by kind (CPU ops,
     * then kernels, then flows), so without this the JIT compiles the hot code for the first kind
     * only and recompiles it, after a slow spell, each time the next kind begins. The samples cost
     * about 0.2 % of a 1 GB file.
     */
    private static final int REHEARSALS = 16;
    private static final int REHEARSAL_BYTES = 128 << 10;
    /** Plain files this large (uncompressed) have their event array scanned in parallel. */
    public static final long MIN_FILE_BYTES = 32L << 20;
    /** About 100,000 events per chunk in a typical trace. */
    public static final int CHUNK_BYTES = 16 << 20;

    /**
     * The chunk size for a reader's {@code file}: {@link #CHUNK_BYTES} for a plain file of at
     * least {@link #MIN_FILE_BYTES} when {@code threads} ≥ 2, else 0 (read it on one thread).
     */
    public static int chunkBytesFor(Path file, int threads) throws IOException {
        boolean parallel = threads >= 2 && Files.size(file) >= MIN_FILE_BYTES && !InputStreams.isGzip(file);
        return parallel ? CHUNK_BYTES : 0;
    }

    /**
     * Scan threads: the system property {@code property} if set, else the cores (at most 4); never
     * more than the caller's {@link ThreadBudget}.
     */
    public static int threads(String property) {
        return ThreadBudget.cap(Integer.getInteger(property, Math.min(4, Runtime.getRuntime().availableProcessors())));
    }

    /** How far past a nominal cut to look for an element start. */
    private static final int SEARCH_BYTES = 4 << 20;

    /** What one chunk found. */
    private static final class Chunk<B> {
        final long start;
        final long end;
        final B elements;
        /** True when the scan reached {@link #end} exactly at an element start. */
        boolean landed;
        /** The offset just after the array's closing bracket, when this chunk reached it; else -1. */
        long arrayEnd = -1;
        RuntimeException failure;

        Chunk(long start, long end, B elements) {
            this.start = start;
            this.end = end;
            this.elements = elements;
        }
    }

    private final Path file;
    private final long fileSize;
    private final int chunkBytes;
    private final int threads;
    private FileChannel tail;
    private boolean strictEscapes;

    /** A scan of {@code file} (plain, {@code fileSize} bytes) in chunks of {@code chunkBytes} on {@code threads} threads. */
    public ParallelArrayScan(Path file, long fileSize, int chunkBytes, int threads) {
        this.file = file;
        this.fileSize = fileSize;
        this.chunkBytes = chunkBytes;
        this.threads = threads;
    }

    /** The chunks' scanners take only the escapes JSON defines ({@link Utf8JsonScanner#strictEscapes()}). */
    public ParallelArrayScan strictEscapes() {
        strictEscapes = true;
        return this;
    }

    /**
     * Scans the array whose first element starts at {@code firstElement}, replaying its elements
     * in order; returns the offset just after the array's closing bracket.
     */
    public <E> long run(long firstElement, Supplier<ElementParser<E>> parsers, Replay<E> replay) throws IOException {
        return runBatches(firstElement, () -> {
            ElementParser<E> parser = parsers.get();
            return new BatchParser<List<E>>() {
                @Override
                public List<E> newBatch() {
                    return new ArrayList<>();
                }

                @Override
                public void parse(Utf8JsonScanner s, List<E> batch) throws IOException {
                    batch.add(parser.parse(s));
                }
            };
        }, new BatchReplay<List<E>>() {
            @Override
            public void replay(List<E> batch) throws IOException {
                for (E e : batch) {
                    replay.element(e);
                }
            }

            @Override
            public void rehearse(List<E> batch) {
                for (E e : batch) {
                    replay.rehearse(e);
                }
            }
        });
    }

    /**
     * As {@link #run(long, Supplier, Replay)}, each chunk's elements parsed into one batch of the
     * reader's own, replayed a batch at a time in file order.
     */
    public <B> long runBatches(long firstElement, Supplier<BatchParser<B>> parsers, BatchReplay<B> replay)
            throws IOException {
        AtomicInteger names = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, "overlap-analyze-scan-" + names.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        ThreadLocal<Worker<B>> workers = ThreadLocal.withInitial(() -> new Worker<>(parsers.get()));
        try {
            rehearse(firstElement, pool, workers, replay);
            ArrayDeque<Future<Chunk<B>>> inFlight = new ArrayDeque<>();
            long nominal = firstElement;
            long expectedStart = firstElement;
            boolean submittedAll = false;
            while (true) {
                while (!submittedAll && inFlight.size() < 2 * threads) {
                    long from = nominal;
                    long to = nominal + chunkBytes;
                    boolean first = from == firstElement;
                    inFlight.add(pool.submit(() -> workers.get().scan(first, from, to)));
                    nominal = to;
                    submittedAll = to >= fileSize;
                }
                Future<Chunk<B>> next = inFlight.poll();
                if (next == null) {
                    throw new Unsupported("the array does not end before the end of the file");
                }
                Chunk<B> c = get(next);
                if (c.start != expectedStart) {
                    throw new Resequence("the cut at " + c.start + " was not an element start");
                }
                replay.replay(c.elements);
                if (c.failure != null) {
                    throw c.failure; // a real one: this chunk's start is confirmed
                }
                if (c.arrayEnd >= 0) {
                    return c.arrayEnd;
                }
                if (!c.landed) {
                    throw new Resequence("the chunk " + c.start + ".." + c.end + " ran past the next cut");
                }
                expectedStart = c.end;
            }
        } finally {
            pool.shutdownNow();
        }
    }

    private <B> void rehearse(long firstElement, ExecutorService pool, ThreadLocal<Worker<B>> workers,
            BatchReplay<B> replay) throws IOException {
        long span = fileSize - firstElement;
        if (span < (long) REHEARSALS * REHEARSAL_BYTES * 8) {
            return;
        }
        List<Future<Chunk<B>>> samples = new ArrayList<>();
        for (int i = 0; i < REHEARSALS; i++) {
            long from = firstElement + span * (2L * i + 1) / (2L * REHEARSALS);
            samples.add(pool.submit(() -> workers.get().scan(false, from, from + REHEARSAL_BYTES)));
        }
        for (Future<Chunk<B>> f : samples) {
            replay.rehearse(get(f).elements);
        }
    }

    /** A scanner over the rest of the file from {@code offset} (what follows the array). */
    public Utf8JsonScanner scannerAt(long offset) throws IOException {
        tail = FileChannel.open(file, StandardOpenOption.READ);
        tail.position(offset);
        return scanner(new Utf8JsonScanner(Channels.newInputStream(tail), offset));
    }

    private Utf8JsonScanner scanner(Utf8JsonScanner s) {
        return strictEscapes ? s.strictEscapes() : s;
    }

    @Override
    public void close() throws IOException {
        if (tail != null) {
            tail.close();
        }
    }

    private static <T> T get(Future<T> f) throws IOException {
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

    /** One pool thread's reusable state: its parser and search buffer. */
    private final class Worker<B> {
        private final BatchParser<B> parser;
        private final byte[] probe = new byte[64 * 1024];
        /** The last chunk's scanner buffer, for the next chunk's scanner. */
        private byte[] scanBuffer;

        Worker(BatchParser<B> parser) {
            this.parser = parser;
        }

        Chunk<B> scan(boolean first, long nominalStart, long nominalEnd) {
            try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
                long start = first ? nominalStart : elementStartAfter(ch, nominalStart);
                long end = nominalEnd >= fileSize ? -1 : elementStartAfter(ch, nominalEnd);
                // No element start near the next cut: this chunk runs to the array's end.
                Chunk<B> c = new Chunk<>(start, end < 0 ? Long.MAX_VALUE : end, parser.newBatch());
                if (start < 0) {
                    return c; // never confirmed: the chunk before runs on past it
                }
                ch.position(start);
                Utf8JsonScanner s = scanner(new Utf8JsonScanner(Channels.newInputStream(ch), start, scanBuffer));
                scanBuffer = null;
                try {
                    scanElements(s, c);
                } catch (RuntimeException e) {
                    c.failure = e;
                }
                scanBuffer = s.reusableBuffer(); // the batch keeps no slice of it
                return c;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        /** Elements from the chunk's start until the next chunk's start (or the array's end). */
        private void scanElements(Utf8JsonScanner s, Chunk<B> c) throws IOException {
            for (;;) {
                s.peek();
                long at = s.offset();
                if (at == c.end) {
                    c.landed = true;
                    return;
                }
                if (at > c.end) {
                    return; // ran past the next cut: that guess was wrong
                }
                parser.parse(s, c.elements);
                if (!s.nextElement()) {
                    c.arrayEnd = s.offset();
                    return;
                }
            }
        }

        /**
         * The offset of the first {@code {} after {@code from} that follows {@code }} and {@code ,}
         * (whitespace between) and is followed by a quote or {@code }}: what the start of an
         * element looks like in an array of events. -1 when there is none in {@link #SEARCH_BYTES}.
         */
        private long elementStartAfter(FileChannel ch, long from) throws IOException {
            long at = from;
            int state = 0; // 0: looking for '}', 1: after '}', 2: after '}' ','
            while (at - from < SEARCH_BYTES) {
                int n = ch.read(ByteBuffer.wrap(probe), at);
                if (n <= 0) {
                    return -1;
                }
                for (int i = 0; i < n; i++) {
                    int c = probe[i];
                    if (c == ' ' || c == '\n' || c == '\r' || c == '\t') {
                        continue;
                    }
                    if (state == 2 && c == '{' && followedByKeyOrEnd(ch, at + i + 1)) {
                        return at + i;
                    }
                    if (state == 1 && c == ',') {
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
                if (c != ' ' && c != '\n' && c != '\r' && c != '\t') {
                    return c == '"' || c == '}';
                }
            }
            return false;
        }
    }
}
