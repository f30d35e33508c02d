package io.overlapanalyze.spark;

import io.overlapanalyze.analysis.AnalysisOptions;
import io.overlapanalyze.formats.input.InputLimits;
import io.overlapanalyze.pipeline.PipelineInput;
import io.overlapanalyze.reportfile.ReportJson;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A big job: every task writes its rank's full report to a part file and sends back only the
 * digest; the driver copies the parts into the JSON report, which is still the CLI's, byte for byte.
 */
class ReportPartsTest {
    @TempDir
    Path tmp;

    @Test
    void reportsWrittenByTheTasksAreCopiedIntoTheCliReport() throws IOException {
        Path dir = SparkRuns.job(tmp.resolve("job16"), 16, 4, "\"slowRank\": 3, \"delayUs\": 250");
        Path parts = tmp.resolve("parts");
        PipelineInput in = PipelineInput.of(List.of(dir));
        JobSettings settings = new JobSettings(null, null, null, AnalysisOptions.defaults(), InputLimits.DEFAULT,
                List.of(), parts.toUri().toString(), 0, 0, null);
        SparkConf conf = new SparkConf().setMaster("local[2]").setAppName("report-parts-test");
        try (JavaSparkContext sc = new JavaSparkContext(conf)) {
            sc.setLogLevel("WARN");
            InputLocations.Expanded inputs = InputLocations.expand(List.of(dir.toString()), in, sc.hadoopConfiguration());
            SparkJob.Result result = SparkJob.run(sc, inputs, settings);
            assertEquals(16, result.parts().size(), "every report went to a part file");
            try (Stream<Path> written = Files.list(parts)) { // beside them, the local file system's .crc files
                assertEquals(16, written.filter(p -> p.getFileName().toString().endsWith(".json")).count());
            }
            ByteArrayOutputStream json = new ByteArrayOutputStream();
            ReportJson.write(json, result.pipeline().report(), result.parts(), result.pipeline().findings(), false,
                    ReportParts.reader(sc.hadoopConfiguration()));
            assertEquals(SparkRuns.cliJson(dir), json.toString(StandardCharsets.UTF_8));
        }
    }
}
