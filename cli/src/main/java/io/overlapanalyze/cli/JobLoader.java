package io.overlapanalyze.cli;

import io.overlapanalyze.analysis.AnalysisOptions;
import io.overlapanalyze.analysis.RankAnalyzer;
import io.overlapanalyze.crossrank.RankInput;
import io.overlapanalyze.model.RankTrace;
import io.overlapanalyze.report.InputProblem;
import io.overlapanalyze.report.RankReport;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;
import java.util.regex.Pattern;

/**
 * Reads and analyses every input file, in parallel, collecting per-file failures instead of
 * stopping at the first: in a multi-rank run one bad rank file must not hide the others.
 *
 * <p>Parallelism is bounded by the cores and by memory: each worker holds one file's model while
 * it parses. The model of a trace is estimated at half its JSON size (gzip counted ×10, a typical
 * ratio for profiler JSON), and as many workers run as fit in 70 % of the maximum heap with the
 * largest file's estimate each (always at least one). Results come back in input order.
 */
public final class JobLoader {
    /** Progress is shown on a terminal only when the inputs are at least this large together... */
    private static final long PROGRESS_BYTES = 200L << 20;
    /** ...or this many files. */
    private static final int PROGRESS_FILES = 16;

    private JobLoader() {
    }

    /**
     * @param files    the expanded input files, in the order given
     * @param inputs   every rank read, with its report, in input order
     * @param problems files that could not be read, one line each
     */
    public record Loaded(List<Path> files, List<RankInput> inputs, List<InputProblem> problems) {
    }

    public static List<Path> expand(List<Path> paths, PathMatcher nameFilter) {
        LinkedHashSet<Path> files = new LinkedHashSet<>();
        for (Path p : paths) {
            files.addAll(TraceLoader.expand(p, nameFilter));
        }
        return new ArrayList<>(files);
    }

    public static Loaded load(List<Path> files, RankNaming naming, AnalysisOptions options, Pattern stepPattern,
                       UnaryOperator<RankReport> select, PrintWriter progressOut) {
        int threads = workers(files);
        boolean progress = progressOut != null && System.console() != null && isLarge(files);
        AtomicInteger done = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, "overlap-analyze-reader");
            t.setDaemon(true);
            return t;
        });
        try {
            List<Future<List<RankInput>>> futures = new ArrayList<>();
            for (Path f : files) {
                futures.add(pool.submit(() -> {
                    List<RankInput> out = new ArrayList<>();
                    List<RankTrace> traces = TraceLoader.load(f, stepPattern);
                    for (RankTrace t : traces) {
                        RankTrace named = traces.size() == 1 ? naming.apply(t, f) : t;
                        out.add(new RankInput(named, select.apply(RankAnalyzer.analyze(named, options))));
                    }
                    if (progress) {
                        synchronized (progressOut) {
                            progressOut.print("\roverlap-analyze: read " + done.incrementAndGet() + " of "
                                    + files.size() + " files");
                            progressOut.flush();
                        }
                    }
                    return out;
                }));
            }
            List<RankInput> inputs = new ArrayList<>();
            List<InputProblem> problems = new ArrayList<>();
            List<UserInputException> failures = new ArrayList<>();
            for (int i = 0; i < files.size(); i++) {
                try {
                    inputs.addAll(futures.get(i).get());
                } catch (ExecutionException e) {
                    if (e.getCause() instanceof UserInputException u) {
                        failures.add(u);
                        problems.add(new InputProblem(files.get(i).toString(), null, InputProblem.UNREADABLE,
                                u.getMessage()));
                    } else if (e.getCause() instanceof RuntimeException re) {
                        throw re;
                    } else if (e.getCause() instanceof Error err) {
                        throw err;
                    } else {
                        throw new IllegalStateException(e.getCause());
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new UserInputException("interrupted while reading " + files.get(i));
                }
            }
            if (progress) {
                progressOut.println();
            }
            if (inputs.isEmpty() && !failures.isEmpty()) {
                // Nothing readable: one line naming the (first) file, as for a single unreadable file.
                UserInputException first = failures.get(0);
                throw failures.size() == 1 ? first : new UserInputException(first.getMessage() + " (and "
                        + (failures.size() - 1) + " more unreadable input" + (failures.size() == 2 ? "" : "s") + ")",
                        first);
            }
            return new Loaded(files, inputs, problems);
        } finally {
            pool.shutdownNow();
        }
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
