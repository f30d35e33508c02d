package io.overlapanalyze.synth;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * A data-parallel job of {@code ranks} ranks all running one {@link Scenario}, with what makes
 * ranks differ: per-rank clock offsets, a slow rank, deliberate collective mismatches.
 * {@link JobWriter} writes one Kineto trace per rank ({@code rank-<r>.pt.trace.json}).
 *
 * <h2>File format (JSON; {@code //} comments allowed; unknown fields are errors)</h2>
 * <pre>{@code
 * {
 *   "name": "job-healthy-4rank",
 *   "description": "...",
 *   "ranks": 4,
 *   "scenario": "seed-1ms",              // a built-in name, or a scenario object (rank/worldSize ignored)
 *   "steps": 3,                           // optional: overrides the scenario's step count
 *   "clockOffsetUs": [0, 37, -120, 83],   // optional, one per rank: added to every timestamp of that rank
 *   "slowRank": 2, "delayUs": 250,        // optional: that rank starts every step delayUs late
 *   "bucketTypes": ["allreduce", "reducescatter", "allreduce"],  // optional, one per bucket
 *   "sequenceNumbers": false,             // optional: write Kineto's "Seq" on every collective
 *   "perturbations": [                    // optional
 *     {"kind": "reorder", "rank": 2, "step": 2, "bucket": 2},   // issues buckets 2 and 3 swapped
 *     {"kind": "skip", "rank": 1, "step": 3, "bucket": 3},      // never issues that collective
 *     {"kind": "size", "rank": 3, "step": 1, "bucket": 1, "elements": 1000},  // default: twice the elements
 *     {"kind": "dtype", "rank": 3, "step": 1, "bucket": 2, "dtype": "BFloat16"},
 *     {"kind": "type", "rank": 0, "step": 1, "bucket": 1, "collective": "broadcast"}
 *   ]
 * }
 * }</pre>
 *
 * <h2>Timing semantics</h2>
 * Every rank plans the scenario as a single rank would, except: (1) a collective is synchronous:
 * on every rank it starts at that rank's own arrival (data ready, stream free) but ends at the
 * latest arrival over the ranks plus the transfer time ({@code commUs}), so all ranks end it at the
 * same true instant; (2) the slow rank starts each step {@code delayUs} late (device and host);
 * (3) clock offsets only change the written timestamps (the header's {@code baseTimeNanoseconds}),
 * not the true timeline. Perturbations change what a rank writes for a bucket slot; the timing
 * still pairs slots by position (a skipped collective leaves its slot idle on that rank).
 *
 * @param clockOffsetsNs one per rank (ns); all zero when not given
 * @param slowRank       the delayed rank, or {@code -1}
 * @param slowDelayNs    its per-step delay (ns)
 * @param bucketTypes    one collective type per bucket, or empty for all-reduce everywhere
 */
public record Job(String name, String description, int ranks, Scenario scenario, List<Long> clockOffsetsNs,
                  int slowRank, long slowDelayNs, List<String> bucketTypes, boolean sequenceNumbers,
                  List<Perturbation> perturbations) {

    public Job {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(scenario, "scenario");
        description = description == null ? "" : description;
        if (ranks < 2) {
            throw new IllegalArgumentException("ranks must be >= 2, got " + ranks);
        }
        clockOffsetsNs = clockOffsetsNs == null || clockOffsetsNs.isEmpty()
                ? java.util.Collections.nCopies(ranks, 0L) : List.copyOf(clockOffsetsNs);
        if (clockOffsetsNs.size() != ranks) {
            throw new IllegalArgumentException("clockOffsetUs needs one value per rank (" + ranks + "), got "
                    + clockOffsetsNs.size());
        }
        if (slowRank < -1 || slowRank >= ranks) {
            throw new IllegalArgumentException("slowRank must be in [0, " + ranks + "), got " + slowRank);
        }
        if (slowDelayNs < 0) {
            throw new IllegalArgumentException("delayUs must be >= 0");
        }
        bucketTypes = List.copyOf(bucketTypes == null ? List.of() : bucketTypes);
        int buckets = scenario.bucketCount();
        if (!bucketTypes.isEmpty() && bucketTypes.size() != buckets) {
            throw new IllegalArgumentException("bucketTypes needs one type per bucket (" + buckets + "), got "
                    + bucketTypes.size());
        }
        for (String t : bucketTypes) {
            if (!CollectiveSpec.isKnownType(t)) {
                throw new IllegalArgumentException("bucketTypes: unknown collective type '" + t
                        + "' (known: allreduce, reducescatter, allgather, broadcast)");
            }
        }
        perturbations = List.copyOf(perturbations == null ? List.of() : perturbations);
        for (Perturbation p : perturbations) {
            p.check(ranks, scenario, buckets);
        }
    }

    /** A healthy job: no offsets, no slow rank, all-reduce everywhere, no perturbation. */
    public static Job healthy(String name, int ranks, Scenario scenario) {
        return new Job(name, "", ranks, scenario, List.of(), -1, 0, List.of(), false, List.of());
    }

    public Job withClockOffsetsNs(List<Long> offsets) {
        return new Job(name, description, ranks, scenario, offsets, slowRank, slowDelayNs, bucketTypes,
                sequenceNumbers, perturbations);
    }

    public Job withSlowRank(int rank, long delayNs) {
        return new Job(name, description, ranks, scenario, clockOffsetsNs, rank, delayNs, bucketTypes,
                sequenceNumbers, perturbations);
    }

    public Job withBucketTypes(List<String> types) {
        return new Job(name, description, ranks, scenario, clockOffsetsNs, slowRank, slowDelayNs, types,
                sequenceNumbers, perturbations);
    }

    public Job withSequenceNumbers(boolean on) {
        return new Job(name, description, ranks, scenario, clockOffsetsNs, slowRank, slowDelayNs, bucketTypes,
                on, perturbations);
    }

    public Job withPerturbation(Perturbation p) {
        List<Perturbation> all = new ArrayList<>(perturbations);
        all.add(p);
        return new Job(name, description, ranks, scenario, clockOffsetsNs, slowRank, slowDelayNs, bucketTypes,
                sequenceNumbers, all);
    }

    /** The scenario as rank {@code r} runs it (its rank id; its own jitter stream when jitter is on). */
    public Scenario rankScenario(int r) {
        Scenario s = scenario.withRank(r, ranks);
        return s.jitterPct() > 0 ? s.withJitter(s.jitterPct(), s.seed() + r) : s;
    }

    /** True when the file is a job description (has "ranks"), not a single-rank scenario. */
    public static boolean isJobFile(Path file) {
        try {
            return JobParser.looksLikeJob(java.nio.file.Files.readString(file));
        } catch (java.io.IOException e) {
            return false;
        }
    }

    /** Reads a job file; errors are one-line {@link ScenarioException}s naming the file and field. */
    public static Job parse(Path file) {
        return JobParser.parse(file);
    }

    /** Reads job JSON text; errors name {@code source}. */
    public static Job parse(String json, String source) {
        return JobParser.parse(json, source);
    }

    /**
     * A deliberate difference on one rank at one bucket slot of one step.
     *
     * @param step   the step number N of {@code ProfilerStep#N}
     * @param bucket 1-based bucket within the step
     * @param value  {@code elements} for SIZE (null: twice the elements), {@code dtype} for DTYPE (null:
     *               BFloat16), {@code collective} for TYPE (null: broadcast); unused otherwise
     */
    public record Perturbation(Kind kind, int rank, int step, int bucket, String value) {
        public enum Kind {
            /** The rank never issues this collective (a hang in a real job). */
            SKIP,
            /** The rank issues this bucket and the next in swapped order. */
            REORDER,
            /** The rank's element counts differ. */
            SIZE,
            /** The rank's dtype differs. */
            DTYPE,
            /** The rank issues another collective type. */
            TYPE;

            static Kind parse(String s) {
                try {
                    return valueOf(s.toUpperCase(Locale.ROOT));
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException("unknown perturbation kind '" + s
                            + "' (known: skip, reorder, size, dtype, type)");
                }
            }
        }

        public Perturbation {
            Objects.requireNonNull(kind, "kind");
        }

        void check(int ranks, Scenario s, int buckets) {
            if (rank < 0 || rank >= ranks) {
                throw new IllegalArgumentException(kind.name().toLowerCase(Locale.ROOT) + ": rank must be in [0, "
                        + ranks + "), got " + rank);
            }
            if (step < s.firstStep() || step >= s.firstStep() + s.steps()) {
                throw new IllegalArgumentException(kind.name().toLowerCase(Locale.ROOT) + ": step must be in ["
                        + s.firstStep() + ", " + (s.firstStep() + s.steps()) + "), got " + step);
            }
            int max = kind == Kind.REORDER ? buckets - 1 : buckets;
            if (bucket < 1 || bucket > max) {
                throw new IllegalArgumentException(kind.name().toLowerCase(Locale.ROOT) + ": bucket must be in [1, "
                        + max + "], got " + bucket);
            }
            if (kind == Kind.TYPE && value != null && !CollectiveSpec.isKnownType(value)) {
                throw new IllegalArgumentException("type: unknown collective type '" + value + "'");
            }
            if (kind == Kind.SIZE && value != null) {
                try {
                    if (Long.parseLong(value) <= 0) {
                        throw new NumberFormatException();
                    }
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("size: elements must be a positive integer, got " + value);
                }
            }
        }
    }
}
