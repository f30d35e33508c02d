package io.overlapanalyze.formats.input;

import java.util.concurrent.Callable;

/**
 * How many threads the reading of one input may use, when its caller shares the machine: a Spark
 * task owns {@code spark.task.cpus} cores of an executor that runs other tasks beside it, so a
 * reader that sized its pools by the machine's cores would oversubscribe it. The budget belongs to
 * the calling thread ({@link #within}); without one, readers use what they would by default.
 */
public final class ThreadBudget {
    private static final ThreadLocal<Integer> LIMIT = new ThreadLocal<>();

    private ThreadBudget() {
    }

    /** The calling thread's budget, or {@link Integer#MAX_VALUE} when it has none. */
    public static int limit() {
        Integer l = LIMIT.get();
        return l == null ? Integer.MAX_VALUE : l;
    }

    /** {@code wanted} threads within the budget, at least 1. */
    public static int cap(int wanted) {
        return Math.max(1, Math.min(wanted, limit()));
    }

    /** Runs {@code work} on this thread with a budget of {@code threads} (at least 1); the previous budget is restored. */
    public static <T> T within(int threads, Callable<T> work) throws Exception {
        Integer before = LIMIT.get();
        LIMIT.set(Math.max(1, threads));
        try {
            return work.call();
        } finally {
            if (before == null) {
                LIMIT.remove();
            } else {
                LIMIT.set(before);
            }
        }
    }
}
