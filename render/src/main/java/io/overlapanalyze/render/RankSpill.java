package io.overlapanalyze.render;

import io.overlapanalyze.formats.input.Temporaries;
import io.overlapanalyze.report.RankReport;
import io.overlapanalyze.reportfile.ReportJson;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Where the job path puts the ranks' full reports of a big job while the job is assembled (the
 * cross-rank step holds digests only), until {@link io.overlapanalyze.reportfile.ReportJson} copies each into the output:
 * a private temporary directory, deleted on {@link #close()} and, when the process is ended first
 * (Ctrl-C, SIGTERM), by {@link Temporaries}' exit hook. One compact JSON file per rank, as a Spark task's part file ({@link
 * io.overlapanalyze.reportfile.ReportJson#rankPart}): a report read back is the report written.
 */
public final class RankSpill implements AutoCloseable {
    private final Path dir;
    private final AtomicInteger written = new AtomicInteger();

    private RankSpill(Path dir) {
        this.dir = dir;
    }

    /** A new spill directory under the system's temporary directory. */
    public static RankSpill create() {
        try {
            return new RankSpill(Temporaries.create(() -> Files.createTempDirectory("overlap-analyze-ranks-")));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a temporary directory for the ranks' reports: "
                    + e.getMessage(), e);
        }
    }

    /** Writes one rank's full report (from any thread); returns the file it is in. */
    public Path write(RankReport full) {
        Path file = dir.resolve("rank-" + written.getAndIncrement() + ".json");
        try {
            Files.write(file, ReportJson.rankPart(full));
        } catch (IOException e) {
            throw new UncheckedIOException(file + ": cannot write the rank's report: " + e.getMessage(), e);
        }
        return file;
    }

    /** A rank's full report, read back from the file {@link #write} put it in. */
    public RankReport read(Path file) {
        try (InputStream in = Files.newInputStream(file)) {
            return ReportJson.readRankPart(in);
        } catch (IOException e) {
            throw new UncheckedIOException(file + ": cannot read the rank's report back: " + e.getMessage(), e);
        }
    }

    /** The directory the reports are in. */
    public Path directory() {
        return dir;
    }

    /** How many reports were written. */
    public int count() {
        return written.get();
    }

    /** Deletes the directory with every report in it. */
    @Override
    public void close() {
        Temporaries.delete(dir);
    }
}
