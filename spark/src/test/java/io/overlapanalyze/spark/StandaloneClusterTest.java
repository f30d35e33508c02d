package io.overlapanalyze.spark;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * A real multi-process job: a standalone Master and Worker on 127.0.0.1, the job submitted with
 * spark-submit's own entry point ({@code SparkSubmit}, client mode) and run by an executor JVM the
 * Worker starts. The report is the CLI's, byte for byte. Skipped, with the reason, where the
 * cluster cannot start.
 */
class StandaloneClusterTest {
    private static final Duration CLUSTER_START = Duration.ofSeconds(60);
    private static final Duration JOB = Duration.ofSeconds(120);

    @TempDir
    static Path tmp;

    private static StandaloneCluster cluster;
    private static Path appJar;

    @BeforeAll
    static void startCluster() throws IOException, InterruptedException {
        String classPath = System.getProperty("java.class.path");
        try {
            cluster = StandaloneCluster.start(tmp.resolve("cluster"), StandaloneCluster.sparkJavaOptions(), classPath,
                    2, "1g", CLUSTER_START);
        } catch (StandaloneCluster.NotStarted e) {
            Assumptions.abort("no standalone Spark cluster on 127.0.0.1, so the multi-process job is not tested: "
                    + e.getMessage());
        }
        appJar = StandaloneCluster.appJar(StandaloneCluster.classesDirectory(), tmp.resolve("overlap-analyze-spark-app.jar"));
    }

    @AfterAll
    static void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    /** {@code spark-submit --master spark://… --class SparkAnalyze APP.jar -f json -o OUT INPUT}: the report it wrote. */
    private static String submit(String name, Path input) throws IOException, InterruptedException {
        Path out = tmp.resolve(name + ".json");
        Path log = tmp.resolve(name + ".submit.log");
        List<String> args = new ArrayList<>(List.of(
                "--master", cluster.masterUrl(),
                "--deploy-mode", "client",
                "--name", "overlap-analyze-" + name,
                "--class", SparkAnalyze.class.getName(),
                "--conf", "spark.executor.extraClassPath=" + cluster.executorClassPath(),
                "--conf", "spark.executor.memory=512m",
                "--conf", "spark.driver.host=127.0.0.1",
                "--conf", "spark.ui.enabled=false",
                appJar.toString(),
                "-f", "json", "-o", out.toString(), input.toString()));
        ProcessBuilder pb = new ProcessBuilder(cluster.javaCommand("org.apache.spark.deploy.SparkSubmit",
                List.of("-Xmx512m"), args));
        cluster.environment(pb.environment());
        pb.redirectErrorStream(true);
        pb.redirectOutput(log.toFile());
        Process p = pb.start();
        if (!p.waitFor(JOB.toSeconds(), TimeUnit.SECONDS)) {
            StandaloneCluster.stopTree(p.toHandle(), Duration.ofSeconds(5));
            fail("spark-submit did not finish within " + JOB.toSeconds() + " s; its log:\n" + StandaloneCluster.tail(log)
                    + "\nexecutors:\n" + cluster.executorLogs());
        }
        assertEquals(0, p.exitValue(), () -> "spark-submit failed; its log:\n" + StandaloneCluster.tail(log)
                + "\nexecutors:\n" + cluster.executorLogs());
        return Files.readString(out, StandardCharsets.UTF_8);
    }

    /** The applications the Worker has run: a directory each, holding a directory per executor. */
    private static List<Path> applications() throws IOException {
        try (Stream<Path> apps = Files.list(cluster.workDirectory())) {
            return apps.sorted().toList();
        }
    }

    /** The report of a job submitted to the cluster, after checking that the Worker ran its executor. */
    private static String submitToExecutors(String name, Path input) throws IOException, InterruptedException {
        List<Path> before = applications();
        String json = submit(name, input);
        List<Path> added = new ArrayList<>(applications());
        added.removeAll(before);
        assertEquals(1, added.size(), () -> "one new application on the Worker: " + added);
        try (Stream<Path> executors = Files.list(added.get(0))) {
            assertTrue(executors.anyMatch(Files::isDirectory), "the Worker started an executor for " + added.get(0));
        }
        return json;
    }

    @Test
    void aSixteenRankJobSubmittedToTheClusterGivesTheCliReport() throws IOException, InterruptedException {
        Path dir = SparkRuns.job(tmp.resolve("job16"), 16, 4, "\"slowRank\": 9, \"delayUs\": 250");
        assertEquals(SparkRuns.cliJson(dir), submitToExecutors("job16", dir));
    }

    /**
     * A relative path, as a user types it: the executors run in directories of their own, yet read
     * the files the driver's path names, and the report names them as typed (spark-submit runs in
     * this JVM's working directory, so the CLI's report here is of the same files).
     */
    @Test
    void theHealthySampleByARelativePathGivesTheCliReport() throws IOException, InterruptedException {
        Path cwd = Path.of("").toAbsolutePath();
        Path dir = cwd.relativize(SparkRuns.samples().resolve("job-healthy-4rank").toAbsolutePath().normalize());
        assertTrue(!dir.isAbsolute(), dir::toString);
        String json = submitToExecutors("healthy", dir);
        assertTrue(json.contains("\"source\" : \"" + dir + "/rank-0.pt.trace.json\""), "named as typed");
        assertEquals(SparkRuns.cliJson(dir), json);
    }
}
