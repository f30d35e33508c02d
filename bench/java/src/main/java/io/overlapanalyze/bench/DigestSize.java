package io.overlapanalyze.bench;

import io.overlapanalyze.formats.TraceFormats;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.overlapanalyze.analysis.AnalysisOptions;
import io.overlapanalyze.crossrank.RankInput;
import io.overlapanalyze.crossrank.digest.RankDigest;
import io.overlapanalyze.model.RankTrace;
import io.overlapanalyze.pipeline.AnalysisPipeline;
import io.overlapanalyze.render.JsonRenderer;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What one rank sends to the Spark driver (not a test; run by {@code bench/spark-bench.sh}): reads
 * a rank file, analyses it as a Spark task does ({@link AnalysisPipeline#analyseRank}), builds its
 * cross-rank digest ({@link RankDigest#of}) and prints the digest's bytes (encoded, and under Java
 * serialization, which is what a task result carries), the device intervals it keeps of the
 * rank's total, and, for comparison, the rank's full report as compact JSON (what a task writes to
 * a part file) and under Java serialization (what an inline report costs).
 *
 * <p>Usage (after {@code mvn -Pbench -pl bench/java -am -DskipTests package}): {@code java -cp
 * cli/target/overlap-analyze.jar:bench/java/target/overlap-analyze-bench.jar
 * io.overlapanalyze.bench.DigestSize FILE}
 */
public final class DigestSize {
    private DigestSize() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 1) {
            System.err.println("usage: DigestSize FILE");
            System.exit(2);
        }
        Path file = Path.of(args[0]);
        List<RankTrace> traces = TraceFormats.standard().read(file);
        RankTrace trace = traces.get(0);
        RankInput full = AnalysisPipeline.analyseRank(trace, null, AnalysisOptions.defaults(), new ArrayList<>());
        long t0 = System.nanoTime();
        RankDigest digest = RankDigest.of(full);
        double ms = (System.nanoTime() - t0) / 1e6;
        RankInput back = digest.toInput();
        byte[] json = JsonRenderer.mapper().writer().without(SerializationFeature.INDENT_OUTPUT)
                .writeValueAsBytes(full.report());
        long reportSerialized = RankDigest.serializedBytes(full.report());
        System.out.printf(Locale.ROOT, "file=%s bytes=%d rank=%d steps=%d%n", file.getFileName(), Files.size(file),
                full.rank(), full.report().steps().size());
        System.out.printf(Locale.ROOT, "digest: encodedBytes=%d serializedBytes=%d buildMs=%.1f%n",
                digest.encodedBytes(), digest.serializedBytes(), ms);
        System.out.printf(Locale.ROOT, "intervals: kept=%d total=%d (%.1f %%) collectives=%d digestSteps=%d%n",
                back.trace().device().size(), trace.device().size(),
                100.0 * back.trace().device().size() / Math.max(1, trace.device().size()),
                back.trace().collectives().size(), back.report().steps().size());
        System.out.printf(Locale.ROOT, "fullReport: compactJsonBytes=%d javaSerializedBytes=%d%n",
                json.length, reportSerialized);
    }
}
