package io.overlapanalyze.synth;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPOutputStream;

/**
 * Writes a {@link Job}: one Kineto trace per rank, {@code rank-<r>.pt.trace.json} (or
 * {@code .json.gz}), each with its own {@code distributedInfo.rank}.
 */
public final class JobWriter {
    private JobWriter() {
    }

    /** The job's exact timeline (true time; each rank's base carries its clock offset). Deterministic. */
    public static JobTimeline plan(Job job) {
        return JobPlanner.plan(job);
    }

    /** The file name of rank {@code r}. */
    public static String fileName(int rank, boolean gzip) {
        return "rank-" + rank + ".pt.trace.json" + (gzip ? ".gz" : "");
    }

    /** Writes rank {@code r}'s trace to {@code out} (not closed); the job must have been planned by {@link #plan}. */
    public static void writeRank(JobTimeline plan, int rank, OutputStream out, String traceName) throws IOException {
        Job job = plan.job();
        Scenario s = job.rankScenario(rank);
        SyntheticTimeline t = plan.ranks().get(rank);
        KinetoScenarioWriter.write(s, t, new TraceEventBuilder(s, JobPlanner.specs(job, rank, t)), out, traceName);
    }

    /** Writes every rank into {@code dir} (created); returns the written files, by rank, and the plan. */
    public static List<Path> write(Job job, Path dir, boolean gzip) throws IOException {
        JobTimeline plan = plan(job);
        Files.createDirectories(dir);
        List<Path> files = new ArrayList<>();
        for (int r = 0; r < job.ranks(); r++) {
            Path f = dir.resolve(fileName(r, gzip));
            try (OutputStream raw = new BufferedOutputStream(Files.newOutputStream(f), 1 << 16)) {
                if (gzip) {
                    try (GZIPOutputStream gz = new GZIPOutputStream(raw, 1 << 16)) {
                        writeRank(plan, r, gz, fileName(r, false));
                        gz.finish();
                    }
                } else {
                    writeRank(plan, r, raw, fileName(r, false));
                }
            }
            files.add(f);
        }
        return files;
    }
}
