package io.overlapanalyze.spark;

import com.fasterxml.jackson.databind.JsonNode;
import io.overlapanalyze.render.JsonRenderer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Inputs and outputs on {@code hdfs://}, served by an in-process {@code MiniDFSCluster}: the
 * report is the CLI's report of the same files read locally, except that every {@code source}
 * names the file's URI (rank naming and the numbers come from the same bytes).
 */
class HdfsInputTest {
    @TempDir
    static Path tmp;

    private static MiniDFSCluster cluster;
    private static FileSystem fs;
    /** {@code hdfs://127.0.0.1:PORT}, no trailing slash. */
    private static String hdfs;
    private static Path job16;
    private static Path orderMismatch;
    private static Path oneUnreadable;

    @BeforeAll
    static void startHdfs() throws IOException {
        Configuration conf = new Configuration();
        conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, tmp.resolve("minidfs").toString());
        try {
            cluster = new MiniDFSCluster.Builder(conf).numDataNodes(1).format(true).build();
            cluster.waitActive();
        } catch (IOException | RuntimeException | LinkageError e) {
            Assumptions.abort("MiniDFSCluster did not start on this machine, so hdfs:// is not tested: "
                    + io.overlapanalyze.formats.input.Messages.oneLine(e));
        }
        hdfs = "hdfs://127.0.0.1:" + cluster.getNameNodePort();
        fs = FileSystem.get(URI.create(hdfs + "/"), new Configuration());

        job16 = SparkRuns.job(tmp.resolve("job16"), 16, 4, "\"slowRank\": 5, \"delayUs\": 250");
        orderMismatch = SparkRuns.samples().resolve("job-order-mismatch").toAbsolutePath().normalize();
        // Four healthy ranks but one whose bytes are no trace at all.
        oneUnreadable = tmp.resolve("one-unreadable");
        Files.createDirectories(oneUnreadable);
        try (Stream<Path> files = Files.list(SparkRuns.samples().resolve("job-healthy-4rank"))) {
            for (Path f : files.toList()) {
                Files.copy(f, oneUnreadable.resolve(f.getFileName()));
            }
        }
        Files.write(oneUnreadable.resolve("rank-2.pt.trace.json"), new byte[] {0x1f, 0x00, (byte) 0xff, 0x42, 0x13, 0x37, '{', 0});

        for (Path dir : List.of(job16, orderMismatch, oneUnreadable)) {
            fs.copyFromLocalFile(false, true, new org.apache.hadoop.fs.Path(dir.toUri()),
                    new org.apache.hadoop.fs.Path(hdfs + "/" + dir.getFileName()));
        }
    }

    @AfterAll
    static void stopHdfs() throws IOException {
        if (fs != null) {
            fs.close();
        }
        if (cluster != null) {
            cluster.shutdown(true);
        }
    }

    /** The JSON report the Spark command wrote locally for ARGS, after checking that it succeeded. */
    private static String sparkJson(String... args) throws IOException {
        Path out = tmp.resolve("spark-" + System.nanoTime() + ".json");
        List<String> all = new ArrayList<>(List.of("-f", "json", "-o", out.toString()));
        all.addAll(List.of(args));
        SparkRuns.Run run = SparkRuns.spark(all.toArray(String[]::new));
        assertEquals(0, run.code(), run.err());
        return Files.readString(out, StandardCharsets.UTF_8);
    }

    /**
     * The CLI's report of {@code local}, with the URI of its HDFS copy in place of its local path
     * wherever the report names a file; also checks that the Spark report names URIs, not
     * local copies, so the replacement is the only difference.
     */
    private static void assertCliReportOverHdfs(Path local, String sparkJson) throws IOException {
        String uri = hdfs + "/" + local.getFileName();
        JsonNode ranks = JsonRenderer.mapper().readTree(sparkJson).get("ranks");
        assertTrue(ranks.size() > 0, "ranks in the report");
        for (JsonNode r : ranks) {
            assertTrue(r.get("source").asText().startsWith(uri + "/"), "source names the URI: " + r.get("source"));
        }
        assertFalse(sparkJson.contains("overlap-analyze-task-"), "no task-local copy is named");
        String expected = SparkRuns.cliJson(local).replace(local.toString(), uri);
        assertEquals(JsonRenderer.mapper().readTree(expected), JsonRenderer.mapper().readTree(sparkJson));
        assertEquals(expected, sparkJson, "byte for byte, once the sources name the same place");
    }

    @Test
    void anHdfsDirectoryGivesTheCliReportOfTheSameFiles() throws IOException {
        assertCliReportOverHdfs(job16, sparkJson(hdfs + "/job16"));
        String mismatch = sparkJson(hdfs + "/job-order-mismatch");
        assertCliReportOverHdfs(orderMismatch, mismatch);
        assertTrue(JsonRenderer.mapper().readTree(mismatch).get("crossRank").get("mismatches").size() > 0,
                "the sample's reordered collective is found in HDFS too");
    }

    @Test
    void aGlobUriReadsTheFilesItMatches() throws IOException {
        assertCliReportOverHdfs(job16, sparkJson(hdfs + "/job16/rank-*.pt.trace.json"));
    }

    @Test
    void theReportCanBeWrittenToHdfs() throws IOException {
        String target = hdfs + "/reports/job16/report.json";
        SparkRuns.Run run = SparkRuns.spark("-f", "json", "-o", target, hdfs + "/job16");
        assertEquals(0, run.code(), run.err());
        assertEquals("", run.out(), "the report went to HDFS, not standard output");
        String written;
        try (FSDataInputStream in = fs.open(new org.apache.hadoop.fs.Path(target))) {
            written = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        assertCliReportOverHdfs(job16, written);
        // The report parts' directory beside it is gone: only the report is left.
        org.apache.hadoop.fs.FileStatus[] left = fs.listStatus(new org.apache.hadoop.fs.Path(hdfs + "/reports/job16"));
        assertEquals(1, left.length, () -> "left in the output directory: " + List.of(left));
    }

    @Test
    void aMissingUriIsOneLineAndExitTwo() {
        String missing = hdfs + "/no-such-job";
        SparkRuns.Run run = SparkRuns.spark("-f", "json", missing);
        assertEquals(2, run.code(), run.err());
        assertEquals("", run.out());
        List<String> lines = run.err().lines().toList();
        assertEquals(1, lines.size(), () -> "one line on stderr, got:\n" + run.err());
        assertTrue(lines.get(0).startsWith("overlap-analyze-spark: "), lines.get(0));
        assertTrue(lines.get(0).contains(missing), lines.get(0));
        assertFalse(run.err().contains("Exception") || run.err().contains("\tat "), run.err());
    }

    @Test
    void reportPartsWhereNoDirectoryCanBeIsOneLineAndExitTwo() throws IOException {
        String file = hdfs + "/job16/rank-0.pt.trace.json";
        long size = fs.getFileStatus(new org.apache.hadoop.fs.Path(file)).getLen();
        SparkRuns.Run run = SparkRuns.spark("-f", "json", "-o", tmp.resolve("never.json").toString(),
                "--report-parts", file, hdfs + "/job16");
        assertEquals(2, run.code(), run.err());
        List<String> lines = run.err().lines().toList();
        assertEquals(1, lines.size(), () -> "one line on stderr, got:\n" + run.err());
        assertTrue(lines.get(0).startsWith("overlap-analyze-spark: " + file + "/overlap-analyze-parts-"), lines.get(0));
        assertFalse(Files.exists(tmp.resolve("never.json")), "no report");
        assertTrue(fs.getFileStatus(new org.apache.hadoop.fs.Path(file)).isFile(), "the input is untouched");
        assertEquals(size, fs.getFileStatus(new org.apache.hadoop.fs.Path(file)).getLen(), "the input is untouched");
    }

    @Test
    void anUnreadableRankIsNamedAndTheOthersAreAnalysed() throws IOException {
        String bad = hdfs + "/one-unreadable/rank-2.pt.trace.json";
        Path out = tmp.resolve("unreadable.json");
        SparkRuns.Run run = SparkRuns.spark("-f", "json", "-o", out.toString(), hdfs + "/one-unreadable");
        assertEquals(0, run.code(), run.err());
        List<String> named = run.err().lines().filter(l -> l.contains(bad)).toList();
        assertEquals(1, named.size(), () -> "stderr names the unreadable rank once:\n" + run.err());
        assertFalse(run.err().contains("overlap-analyze-task-"), "the message names the URI, not the task's copy");
        String json = Files.readString(out, StandardCharsets.UTF_8);
        JsonNode report = JsonRenderer.mapper().readTree(json);
        assertEquals(3, report.get("ranks").size(), "the three readable ranks are analysed");
        JsonNode problems = report.get("crossRank").get("inputProblems");
        assertEquals(1, problems.size(), problems::toString);
        assertTrue(problems.get(0).toString().contains(bad), problems::toString);
        assertCliReportOverHdfs(oneUnreadable, json);
    }
}
