package io.overlapanalyze.formats;

import io.overlapanalyze.formats.input.ReadOptions;
import io.overlapanalyze.formats.input.SniffedInput;
import io.overlapanalyze.formats.input.TraceFormatException;
import io.overlapanalyze.model.RankTrace;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * Reads every input file of a job, in parallel, collecting per-file failures instead of stopping
 * at the first: in a multi-rank run one bad rank file must not hide the others.
 *
 * <p>Parallelism is bounded by the cores and by memory: each worker holds one file's model while
 * it parses. The model of a trace is estimated at half its JSON size (gzip counted ×10, a typical
 * ratio for profiler JSON), and as many workers run as fit in 70 % of the maximum heap with the
 * largest file's estimate each (always at least one); {@code -Doverlap.readers=N} sets the count.
 * Results come back in input order.
 */
public final class JobReader {
    /** Progress is shown on a terminal only when the inputs are at least this large together... */
    private static final long PROGRESS_BYTES = 200L << 20;
    /** ...or this many files. */
    private static final int PROGRESS_FILES = 16;

    private JobReader() {
    }

    /**
     * A file that could not be read.
     *
     * @param file    the file
     * @param message the one line for the user, naming the file
     */
    public record Unreadable(Path file, String message) {
    }

    /**
     * What a job's files gave.
     *
     * @param files      the files, in the order given
     * @param results    what {@code then} made of every rank read, in input order
     * @param unreadable the files that could not be read, in input order
     */
    public record Read<T>(List<Path> files, List<T> results, List<Unreadable> unreadable) {
        public Read {
            files = List.copyOf(files);
            results = List.copyOf(results);
            unreadable = List.copyOf(unreadable);
        }
    }

    /**
     * One input of a job: its rank traces, each handed to {@code then}; the rank is named from
     * {@code namedAs} when the file holds one rank. {@code namedAs} is the path the user knows the
     * file by: {@code file} itself, or the remote location a local copy was made from.
     */
    public static <T> List<T> readOne(TraceFormats formats, Path file, Path namedAs, ReadOptions options,
                                      RankNaming naming, Function<RankTrace, T> then) throws TraceFormatException {
        return readOne(formats, file, null, namedAs, options, naming, then);
    }

    /** As {@link #readOne(TraceFormats, Path, Path, ReadOptions, RankNaming, Function)}, {@code file} already sniffed when {@code sniffed} is given. */
    public static <T> List<T> readOne(TraceFormats formats, Path file, SniffedInput sniffed, Path namedAs, ReadOptions options,
                               RankNaming naming, Function<RankTrace, T> then) throws TraceFormatException {
        List<T> out = new ArrayList<>();
        List<RankTrace> traces = formats.read(file, options, sniffed);
        for (RankTrace t : traces) {
            out.add(then.apply(traces.size() == 1 ? naming.apply(t, namedAs) : t));
        }
        return out;
    }

    static <T> Read<T> read(TraceFormats formats, List<Path> files, Map<Path, SniffedInput> sniffed, ReadOptions options,
                            RankNaming naming, Function<RankTrace, T> then, PrintWriter progressOut)
            throws TraceFormatException {
        int threads = workers(files);
        boolean progress = progressOut != null && System.console() != null && isLarge(files);
        AtomicInteger done = new AtomicInteger();
        AtomicInteger ranks = new AtomicInteger();
        long started = System.nanoTime();
        ExecutorService pool = Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, "overlap-analyze-reader");
            t.setDaemon(true);
            return t;
        });
        try {
            List<Future<List<T>>> futures = new ArrayList<>();
            for (Path f : files) {
                futures.add(pool.submit(() -> {
                    List<T> out = readOne(formats, f, sniffed.get(f), f, options, naming, then);
                    if (progress) {
                        synchronized (progressOut) {
                            progressOut.print("\r" + progressLine(done.incrementAndGet(), files.size(),
                                    ranks.addAndGet(out.size()), System.nanoTime() - started) + "   ");
                            progressOut.flush();
                        }
                    }
                    return out;
                }));
            }
            List<T> results = new ArrayList<>();
            List<Unreadable> unreadable = new ArrayList<>();
            List<TraceFormatException> failures = new ArrayList<>();
            for (int i = 0; i < files.size(); i++) {
                try {
                    results.addAll(futures.get(i).get());
                } catch (ExecutionException e) {
                    if (e.getCause() instanceof TraceFormatException u) {
                        failures.add(u);
                        unreadable.add(new Unreadable(files.get(i), u.getMessage()));
                    } else if (e.getCause() instanceof RuntimeException re) {
                        throw re;
                    } else if (e.getCause() instanceof Error err) {
                        throw err;
                    } else {
                        throw new IllegalStateException(e.getCause());
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new TraceFormatException("interrupted while reading " + files.get(i));
                }
            }
            if (progress) {
                progressOut.println();
            }
            if (results.isEmpty() && !failures.isEmpty()) {
                throw nothingReadable(failures);
            }
            return new Read<>(files, results, unreadable);
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * The progress of a long read on a terminal: files read of all, the ranks they held (a file may hold
     * several, so the job's rank count is known only at the end), and the time left.
     */
    static String progressLine(int filesDone, int files, int ranksDone, long elapsedNs) {
        return "overlap-analyze: read " + filesDone + " of " + files + " files, " + ranksDone
                + (ranksDone == 1 ? " rank" : " ranks") + estimate(elapsedNs, filesDone, files);
    }

    /**
     * How long the rest of a read will take at the pace so far (", about 2 min left"), or "" until a
     * few inputs are done: a line for a person at a terminal, never in a report.
     */
    static String estimate(long elapsedNs, int done, int total) {
        if (done < 2 || done >= total) {
            return "";
        }
        long leftS = (long) ((double) elapsedNs / done * (total - done) / 1e9);
        if (leftS < 60) {
            return ", about " + Math.max(1, leftS) + " s left";
        }
        return ", about " + (leftS + 30) / 60 + " min left";
    }

    /**
     * Nothing of a job could be read: as for a single file, one line naming the (first) file, and
     * how many more failed; {@code failures} in input order, not empty.
     */
    public static TraceFormatException nothingReadable(List<TraceFormatException> failures) {
        TraceFormatException first = failures.get(0);
        return failures.size() == 1 ? first : new TraceFormatException(first.getMessage() + " (and "
                + (failures.size() - 1) + " more unreadable input" + (failures.size() == 2 ? "" : "s") + ")", first);
    }

    private static boolean isLarge(List<Path> files) {
        return files.size() >= PROGRESS_FILES || totalBytes(files) >= PROGRESS_BYTES;
    }

    private static long totalBytes(List<Path> files) {
        long sum = 0;
        for (Path f : files) {
            sum += sizeOf(f);
        }
        return sum;
    }

    private static long sizeOf(Path f) {
        try {
            return Files.size(f);
        } catch (IOException e) {
            return 0;
        }
    }

    /** Workers: min(files, cores, how many largest-file models fit in 70 % of the heap), at least 1. */
    static int workers(List<Path> files) {
        Integer forced = Integer.getInteger("overlap.readers"); // -Doverlap.readers=1: the serial baseline (bench)
        if (forced != null && forced > 0) {
            return Math.min(forced, Math.max(1, files.size()));
        }
        int cores = Runtime.getRuntime().availableProcessors();
        long largest = 1;
        for (Path f : files) {
            long s = sizeOf(f);
            largest = Math.max(largest, f.getFileName().toString().endsWith(".gz") ? s * 10 : s);
        }
        long perWorker = Math.max(1, largest / 2);
        long fit = (long) (Runtime.getRuntime().maxMemory() * 0.7) / perWorker;
        return (int) Math.max(1, Math.min(Math.min(files.size(), cores), fit));
    }
}
