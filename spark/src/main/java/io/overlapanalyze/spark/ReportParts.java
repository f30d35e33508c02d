package io.overlapanalyze.spark;

import io.overlapanalyze.report.RankReport;
import io.overlapanalyze.reportfile.ReportJson;
import org.apache.hadoop.conf.Configuration;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.function.Function;

/**
 * A rank's full report that a task wrote to a part file ({@link ReportJson#rankPart}), read back on
 * the driver from wherever Hadoop keeps it: the codec knows the form, this class the file system.
 */
final class ReportParts {
    private ReportParts() {
    }

    /** A rank's full report, read back from the part file a task wrote. */
    static RankReport read(String part, Configuration conf) {
        org.apache.hadoop.fs.Path p = new org.apache.hadoop.fs.Path(part);
        try (InputStream in = p.getFileSystem(conf).open(p)) {
            return ReportJson.readRankPart(in);
        } catch (IOException e) {
            throw new UncheckedIOException(part + ": cannot read the rank's report back: " + e.getMessage(), e);
        }
    }

    /** {@link #read} over {@code conf}, for {@link ReportJson#write}'s streaming form. */
    static Function<String, RankReport> reader(Configuration conf) {
        return part -> read(part, conf);
    }
}
