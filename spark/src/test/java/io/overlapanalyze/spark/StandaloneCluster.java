package io.overlapanalyze.spark;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A Spark standalone cluster on 127.0.0.1: a Master and one Worker, each its own JVM started from
 * this JVM's classpath, as {@code sbin/start-master.sh} and {@code start-worker.sh} would start
 * them from a Spark installation. {@code bench/spark-standalone.sh} starts the same two from the
 * module's jar.
 *
 * <p>The Worker starts executors with Spark's launcher, which looks for {@code $SPARK_HOME/jars}
 * and needs {@code SPARK_SCALA_VERSION}: the cluster gets a {@code SPARK_HOME} of its own with an
 * empty {@code jars/}, and an application gives its executors their classpath with
 * {@code spark.executor.extraClassPath} ({@link #executorClassPath}). Ports are the system's
 * choice (0); the master URL is read from the Master's log. Everything has a timeout.
 */
final class StandaloneCluster implements AutoCloseable {
    private static final Pattern MASTER_URL = Pattern.compile("Starting Spark master at (spark://\\S+)");
    private static final String REGISTERED = "Successfully registered with master";

    private final Path dir;
    private final List<String> jvmOptions;
    private final String classPath;
    private final List<Process> processes = new ArrayList<>();
    private String masterUrl;

    /** Why the cluster did not come up: a reason to skip, not a failure of the job under test. */
    static final class NotStarted extends Exception {
        private static final long serialVersionUID = 1L;

        NotStarted(String message) {
            super(message);
        }
    }

    private StandaloneCluster(Path dir, List<String> jvmOptions, String classPath) {
        this.dir = dir;
        this.jvmOptions = List.copyOf(jvmOptions);
        this.classPath = classPath;
    }

    /**
     * Starts a Master and a Worker ({@code cores} cores, {@code memory} such as "1g") in {@code dir}
     * (logs, work directory, SPARK_HOME) and waits, at most {@code timeout}, until the Worker is
     * registered. On any failure the processes already started are stopped.
     */
    static StandaloneCluster start(Path dir, List<String> jvmOptions, String classPath, int cores, String memory,
                                   Duration timeout) throws NotStarted, IOException, InterruptedException {
        StandaloneCluster c = new StandaloneCluster(dir, jvmOptions, classPath);
        try {
            c.startBoth(cores, memory, System.nanoTime() + timeout.toNanos());
            return c;
        } catch (NotStarted | IOException | InterruptedException | RuntimeException e) {
            c.close();
            throw e;
        }
    }

    /** The JVM options Spark needs on Java 17, as the module's build wrote them for the launcher. */
    static List<String> sparkJavaOptions() throws IOException {
        Path classes = classesDirectory();
        Path file = classes.getParent().resolve("spark-java-options.txt");
        return List.of(Files.readString(file, StandardCharsets.UTF_8).trim().split("\\s+"));
    }

    /** The module's compiled classes ({@code spark/target/classes}). */
    static Path classesDirectory() {
        try {
            return Path.of(SparkAnalyze.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (java.net.URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** {@code java} of this JVM. */
    static String java() {
        return ProcessHandle.current().info().command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    }

    private void startBoth(int cores, String memory, long deadline) throws NotStarted, IOException, InterruptedException {
        Path sparkHome = dir.resolve("spark-home");
        Files.createDirectories(sparkHome.resolve("jars"));
        Path work = Files.createDirectories(dir.resolve("work"));
        Path logConfig = dir.resolve("log4j2-cluster.properties");
        // The daemons log at INFO (to their own files): the master URL and the registration are read there.
        Files.writeString(logConfig, String.join("\n",
                "rootLogger.level = warn",
                "rootLogger.appenderRef.stderr.ref = console",
                "appender.console.type = Console",
                "appender.console.name = console",
                "appender.console.target = SYSTEM_ERR",
                "appender.console.layout.type = PatternLayout",
                "appender.console.layout.pattern = %d{HH:mm:ss} %p %c{1}: %m%n%ex",
                "logger.deploy.name = org.apache.spark.deploy",
                "logger.deploy.level = info",
                ""), StandardCharsets.UTF_8);
        List<String> daemon = List.of("-Xmx256m", "-Dlog4j2.configurationFile=" + logConfig.toUri());

        Path masterLog = dir.resolve("master.log");
        processes.add(launch("org.apache.spark.deploy.master.Master", daemon,
                List.of("--host", "127.0.0.1", "--port", "0", "--webui-port", "0"), masterLog));
        Matcher m = waitFor(masterLog, MASTER_URL, deadline, "the Master to start");
        masterUrl = m.group(1);

        Path workerLog = dir.resolve("worker.log");
        processes.add(launch("org.apache.spark.deploy.worker.Worker", daemon,
                List.of("--host", "127.0.0.1", "--port", "0", "--webui-port", "0", "--cores", Integer.toString(cores),
                        "--memory", memory, "--work-dir", work.toString(), masterUrl), workerLog));
        waitFor(workerLog, Pattern.compile(Pattern.quote(REGISTERED)), deadline, "the Worker to register with " + masterUrl);
    }

    /** {@code spark://127.0.0.1:PORT}. */
    String masterUrl() {
        return masterUrl;
    }

    /** Where the Worker keeps each application's executors' stdout and stderr. */
    Path workDirectory() {
        return dir.resolve("work");
    }

    /** The classpath executors need: every jar and class directory of the JVMs that started the cluster. */
    String executorClassPath() {
        return classPath;
    }

    /** The command of a JVM with this cluster's classpath and Spark's options running {@code mainClass}. */
    List<String> javaCommand(String mainClass, List<String> extraOptions, List<String> args) {
        List<String> cmd = new ArrayList<>();
        cmd.add(java());
        cmd.addAll(jvmOptions);
        cmd.addAll(extraOptions);
        cmd.add("-cp");
        cmd.add(classPath);
        cmd.add(mainClass);
        cmd.addAll(args);
        return cmd;
    }

    /**
     * The environment every process of the cluster and its applications gets: this cluster's
     * SPARK_HOME and Scala version for the launcher, everything bound to the loopback.
     */
    void environment(Map<String, String> env) {
        env.put("SPARK_HOME", dir.resolve("spark-home").toString());
        env.put("SPARK_SCALA_VERSION", scalaBinaryVersion());
        env.put("SPARK_LOCAL_IP", "127.0.0.1");
        env.put("SPARK_LOCAL_HOSTNAME", "127.0.0.1");
        env.remove("SPARK_CONF_DIR");
    }

    /** The Scala binary version Spark was built with ("2.12", "2.13"), for the launcher's jar lookup. */
    static String scalaBinaryVersion() {
        String v = scala.util.Properties.versionNumberString();
        int second = v.indexOf('.', v.indexOf('.') + 1);
        return second < 0 ? v : v.substring(0, second);
    }

    private Process launch(String mainClass, List<String> options, List<String> args, Path log) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(javaCommand(mainClass, options, args));
        environment(pb.environment());
        pb.redirectErrorStream(true);
        pb.redirectOutput(log.toFile());
        pb.directory(dir.toFile());
        return pb.start();
    }

    private Matcher waitFor(Path log, Pattern line, long deadline, String what)
            throws NotStarted, IOException, InterruptedException {
        while (true) {
            if (Files.exists(log)) {
                Matcher m = line.matcher(Files.readString(log, StandardCharsets.ISO_8859_1));
                if (m.find()) {
                    return m;
                }
            }
            for (Process p : processes) {
                if (!p.isAlive()) {
                    throw new NotStarted("a cluster process exited (" + p.exitValue() + ") while waiting for " + what
                            + "; its log: " + tail(log));
                }
            }
            if (System.nanoTime() > deadline) {
                throw new NotStarted("timed out waiting for " + what + "; log: " + tail(log));
            }
            Thread.sleep(100);
        }
    }

    /** The last lines of a log, for a message. */
    static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log, StandardCharsets.ISO_8859_1);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    /** The executors' stderr files of every application, for a failure's message. */
    String executorLogs() {
        StringBuilder sb = new StringBuilder();
        try (Stream<Path> files = Files.walk(workDirectory())) {
            for (Path f : files.filter(p -> p.getFileName().toString().equals("stderr")).toList()) {
                sb.append("--- ").append(f).append('\n').append(tail(f)).append('\n');
            }
        } catch (IOException e) {
            sb.append("(no executor logs: ").append(e.getMessage()).append(')');
        }
        return sb.toString();
    }

    /** Stops the Worker (and its executors), then the Master; whole process trees, forcibly after a grace period. */
    @Override
    public void close() {
        for (int i = processes.size() - 1; i >= 0; i--) {
            stopTree(processes.get(i).toHandle(), Duration.ofSeconds(10));
        }
        processes.clear();
    }

    /** Destroys a process and everything it started; forcibly where they outlive {@code grace}. */
    static void stopTree(ProcessHandle root, Duration grace) {
        List<ProcessHandle> all = new ArrayList<>(root.descendants().toList());
        all.add(root);
        for (ProcessHandle h : all) {
            h.destroy();
        }
        long deadline = System.nanoTime() + grace.toNanos();
        for (ProcessHandle h : all) {
            long left = deadline - System.nanoTime();
            try {
                h.onExit().get(Math.max(1, left), TimeUnit.NANOSECONDS);
            } catch (Exception e) {
                h.destroyForcibly();
            }
        }
    }

    /**
     * A jar of the class directory {@code classes}: the primary resource spark-submit needs (it
     * ships it to the executors; the rest of the classpath is already theirs).
     */
    static Path appJar(Path classes, Path jar) throws IOException {
        java.util.jar.Manifest manifest = new java.util.jar.Manifest();
        manifest.getMainAttributes().put(java.util.jar.Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.getMainAttributes().put(java.util.jar.Attributes.Name.MAIN_CLASS, SparkAnalyze.class.getName());
        try (java.util.jar.JarOutputStream out = new java.util.jar.JarOutputStream(Files.newOutputStream(jar), manifest);
             Stream<Path> files = Files.walk(classes)) {
            for (Path f : files.filter(Files::isRegularFile).sorted().toList()) {
                String name = classes.relativize(f).toString().replace(java.io.File.separatorChar, '/');
                out.putNextEntry(new java.util.jar.JarEntry(name));
                Files.copy(f, out);
                out.closeEntry();
            }
        }
        return jar;
    }
}
