package io.overlapanalyze.cli.docs;

import io.overlapanalyze.cli.CliRun;
import io.overlapanalyze.cli.Main;
import io.overlapanalyze.cli.SharedTraces;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.command.BuildImageResultCallback;
import com.github.dockerjava.api.command.InspectContainerResponse;
import com.github.dockerjava.api.command.PullImageResultCallback;
import com.github.dockerjava.api.exception.NotFoundException;
import com.github.dockerjava.api.model.AccessMode;
import com.github.dockerjava.api.model.Bind;
import com.github.dockerjava.api.model.BuildResponseItem;
import com.github.dockerjava.api.model.Volume;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.output.OutputFrame.OutputType;
import org.testcontainers.containers.startupcheck.StartupCheckStrategy;
import org.testcontainers.utility.DockerImageName;
import org.testcontainers.utility.DockerStatus;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Builds the image from the project's Dockerfile and runs it as the README tells users to: on a
 * sample bundled in the image, and on a real trace mounted read-only. The container's report must
 * be the launcher's, field for field (the tool's version string aside).
 *
 * <p>The base images come from OVERLAP_DOCKER_BUILD_IMAGE and OVERLAP_DOCKER_RUNTIME_IMAGE (what
 * docker/local-base-images.sh builds where no registry is reachable), else the Dockerfile's
 * defaults. Without a Docker engine or base images the test skips with the reason, unless
 * OVERLAP_DOCKER_TEST=required (set by .ci/run once it has both): then that is a failure.
 * Ryuk, Testcontainers' clean-up container, comes from a registry: run with
 * TESTCONTAINERS_RYUK_DISABLED=true where there is none; containers are removed when closed.
 * With a daemon that has no default bridge (.ci/run's), TESTCONTAINERS_HOST_OVERRIDE=localhost
 * spares Testcontainers looking for the host's address on it.
 */
class DockerImageTest {
    /** Kept between runs so that the next build reuses its layers; replaced by each build. */
    private static final String IMAGE = "overlap-analyze-test:latest";
    private static final String SAMPLE = "samples/seed-4ms.pt.trace.json";
    private static final String SHARED_TRACE = "hta_nccl_data_resnet_ddp_rank0of2_a100.json.gz";
    /** PROVENANCE.md's checksum of the shared trace: the file as it was published. */
    private static final String SHARED_TRACE_SHA256 = "c1cf9c575fdcd7bdc6326ceab834f94b351f81ae55577a7471aa9e328fb8b58e";
    /** The user the Dockerfile creates: the image must not run as root. */
    private static final String IMAGE_USER = "10001:10001";
    private static final Duration RUN_TIMEOUT = Duration.ofMinutes(2);

    private static final Pattern ANSI_ESCAPE = Pattern.compile("\u001B\\[[0-9;]*[A-Za-z]");
    private static final ObjectMapper JSON = new ObjectMapper();
    private static Path root;
    /** Why the image cannot be built here; null when it was. */
    private static String skipReason;

    @BeforeAll
    static void buildImage() throws InterruptedException {
        root = Path.of(System.getProperty("overlap.projectRoot", "..")).toAbsolutePath().normalize();
        boolean available;
        String why = "no Docker engine answers (DOCKER_HOST or /var/run/docker.sock); .ci/run starts one on Debian";
        try {
            available = DockerClientFactory.instance().isDockerAvailable();
        } catch (RuntimeException e) {
            // An engine without the default bridge, seen from a machine Testcontainers takes for a
            // container (/.dockerenv): it looks for the host's address on that bridge.
            available = false;
            why = "Testcontainers cannot use the Docker engine (" + String.valueOf(e.getMessage()).strip()
                    + "); with dockerd --bridge=none set TESTCONTAINERS_HOST_OVERRIDE=localhost";
        }
        if (!usable(available, why)) {
            return;
        }
        DockerClient docker = DockerClientFactory.instance().client();
        String buildImage = baseImage(docker, "OVERLAP_DOCKER_BUILD_IMAGE", "maven:3.9-eclipse-temurin-17");
        String runtimeImage = baseImage(docker, "OVERLAP_DOCKER_RUNTIME_IMAGE", "eclipse-temurin:17-jre");
        if (buildImage == null || runtimeImage == null) {
            return;
        }

        // Built through Testcontainers' Docker client rather than ImageFromDockerfile, which keeps
        // the build's output to its debug log: here every step shows in the test log, and a failed
        // build's Maven errors come with the failure.
        String previous = imageId(docker, IMAGE);
        List<String> output = new ArrayList<>();
        long started = System.nanoTime();
        System.out.printf("DockerImageTest: docker build %s (BUILD_IMAGE=%s, RUNTIME_IMAGE=%s, network host)%n",
                root.resolve("Dockerfile"), buildImage, runtimeImage);
        String id;
        try {
            id = docker.buildImageCmd()
                    .withDockerfile(root.resolve("Dockerfile").toFile())
                    .withBaseDirectory(root.toFile())
                    .withBuildArg("BUILD_IMAGE", buildImage)
                    .withBuildArg("RUNTIME_IMAGE", runtimeImage)
                    .withNetworkMode("host") // the Maven stage downloads from Maven Central
                    .withPull(false)
                    .withForcerm(true) // no container left behind by a failed step
                    .withTags(Set.of(IMAGE))
                    .exec(new BuildImageResultCallback() {
                        @Override
                        public void onNext(BuildResponseItem item) {
                            super.onNext(item);
                            String text = item.getStream() != null ? item.getStream()
                                    : item.getErrorDetail() != null ? item.getErrorDetail().getMessage() : null;
                            if (text == null) {
                                return;
                            }
                            // Debian's Maven colours its output even in batch mode.
                            String line = ANSI_ESCAPE.matcher(text).replaceAll("").stripTrailing();
                            if (!line.isBlank()) {
                                output.add(line);
                                System.out.println("[docker build] " + line);
                            }
                        }
                    })
                    .awaitImageId(30, TimeUnit.MINUTES);
        } catch (RuntimeException e) {
            throw new AssertionError("docker build failed: " + e.getMessage() + "\n"
                    + String.join("\n", output.subList(Math.max(0, output.size() - 40), output.size())), e);
        }
        System.out.printf("DockerImageTest: built %s (%s) in %.1f s%n", IMAGE, id, (System.nanoTime() - started) / 1e9);
        if (previous != null && !previous.equals(imageId(docker, IMAGE))) {
            try {
                docker.removeImageCmd(previous).exec();
            } catch (RuntimeException e) {
                // Another container or tag still uses it: it stays, nothing is lost.
            }
        }
    }

    @BeforeEach
    void skipWithoutImage() {
        Assumptions.assumeTrue(skipReason == null, skipReason);
    }

    @Test
    void imageRunsAsAnUnprivilegedUserInData() {
        var config = DockerClientFactory.instance().client().inspectImageCmd(IMAGE).exec().getConfig();
        assertEquals(IMAGE_USER, config.getUser(), "the image's user");
        assertEquals("/data", config.getWorkingDir(), "the image's working directory");
        assertEquals("/opt/overlap-analyze/overlap-analyze.jar", config.getEntrypoint()[config.getEntrypoint().length - 1],
                "the entry point runs the CLI's jar");
    }

    @Test
    void bundledSampleGivesTheLaunchersReport() throws Exception {
        ContainerRun run = runImage(c -> c.withWorkingDirectory("/opt/overlap-analyze"), List.of(), "-f", "json", SAMPLE);
        assertEquals(0, run.exitCode(), "exit code; stderr: " + run.err());
        JsonNode report = JSON.readTree(run.out());
        // seed-4ms.scenario.json by hand: three 2 ms backward blocks, each bucket's 4 ms all-reduce
        // starts when its block ends or the previous all-reduce does (2-6, 6-10, 10-14 ms): the
        // step takes 14 ms and ends on communication.
        JsonNode step = report.path("ranks").path(0).path("steps").path(0);
        assertEquals(14_000_000L, step.path("stepTimeNs").asLong(), "step time of the 4 ms seed");
        assertEquals("COMM_BOUND", step.path("attribution").path("kind").asText(), "attribution of the 4 ms seed");
        assertEquals(withoutTool(launcher(root, "-f", "json", SAMPLE).out()), withoutTool(run.out()),
                "the container's report is the launcher's");
    }

    @Test
    void mountedRealTraceGivesTheLaunchersReportAndStaysUnchanged() throws Exception {
        Path dir = sharedKinetoDir();
        Path trace = dir.resolve(SHARED_TRACE);
        FileTime modifiedBefore = Files.getLastModifiedTime(trace);
        assertEquals(SHARED_TRACE_SHA256, sha256(trace), "the shared trace before the run");

        // As the README: the folder mounted at /data (read-only here), the trace named relative to it.
        ContainerRun run = runImage(c -> { }, List.of(readOnly(dir, "/data")), "-f", "json", SHARED_TRACE);
        assertEquals(0, run.exitCode(), "exit code; stderr: " + run.err());
        JsonNode report = JSON.readTree(run.out());
        // PROVENANCE.md: steps ProfilerStep#4, #5 and #6.
        List<String> steps = new ArrayList<>();
        report.path("ranks").path(0).path("steps").forEach(s -> steps.add(s.path("name").asText()));
        assertEquals(List.of("ProfilerStep#4", "ProfilerStep#5", "ProfilerStep#6"), steps);
        assertEquals(withoutTool(launcher(dir, "-f", "json", SHARED_TRACE).out()), withoutTool(run.out()),
                "the container's report is the launcher's");

        assertEquals(SHARED_TRACE_SHA256, sha256(trace), "the mounted trace after the run");
        assertEquals(modifiedBefore, Files.getLastModifiedTime(trace), "the mounted trace's modification time");
    }

    @Test
    void reportWrittenToTheMountedFolderBelongsToTheCallingUser(@TempDir Path out) throws Exception {
        Path dir = sharedKinetoDir();
        Object uid = Files.getAttribute(out, "unix:uid");
        Object gid = Files.getAttribute(out, "unix:gid");
        // The README's `docker run -u "$(id -u):$(id -g)"`, with the output folder mounted too.
        ContainerRun run = runImage(c -> c.withCreateContainerCmdModifier(cmd -> cmd.withUser(uid + ":" + gid)),
                List.of(readOnly(dir, "/data"), new Bind(out.toString(), new Volume("/out"), AccessMode.rw)),
                "-f", "json", "-o", "/out/report.json", SHARED_TRACE);
        assertEquals(0, run.exitCode(), "exit code; stderr: " + run.err());
        Path report = out.resolve("report.json");
        assertTrue(Files.isRegularFile(report), "report written to the mounted folder; stderr: " + run.err());
        assertEquals(uid, Files.getAttribute(report, "unix:uid"), "owner of the report");
        assertEquals(withoutTool(launcher(dir, "-f", "json", SHARED_TRACE).out()),
                withoutTool(Files.readString(report)), "the written report is the launcher's");
    }

    @Test
    void missingFileExitsWithTwoAndOneLineOnStderr() throws Exception {
        ContainerRun run = runImage(c -> { }, List.of(), "-f", "json", "missing.pt.trace.json");
        assertEquals(2, run.exitCode(), "exit code; stderr: " + run.err());
        List<String> lines = run.err().lines().filter(l -> !l.isBlank()).toList();
        assertEquals(1, lines.size(), "one line on stderr: " + run.err());
        assertTrue(lines.get(0).contains("missing.pt.trace.json"), "the line names the file: " + lines.get(0));
        assertEquals("", run.out().strip(), "nothing on stdout");
        CliRun local = launcher(root, "-f", "json", "missing.pt.trace.json");
        assertEquals(local.exitCode(), run.exitCode(), "the launcher's exit code");
        assertEquals(local.errLines(), lines, "the launcher's message");
    }

    private record ContainerRun(long exitCode, String out, String err) {
    }

    /**
     * Runs the image once with the README's isolation (no network) and waits for it to exit. The
     * folders are mounted through the create command rather than withFileSystemBind, which would
     * first check that mounts work by running an alpine image pulled from Docker Hub.
     */
    private static ContainerRun runImage(Consumer<GenericContainer<?>> setup, List<Bind> mounts, String... args) {
        try (GenericContainer<?> container = new GenericContainer<>(DockerImageName.parse(IMAGE))) {
            container.withNetworkMode("none")
                    .withCommand(args)
                    .withCreateContainerCmdModifier(cmd -> cmd.getHostConfig().withBinds(mounts))
                    .withStartupCheckStrategy(new ExitedStartupCheck().withTimeout(RUN_TIMEOUT));
            setup.accept(container);
            container.start();
            InspectContainerResponse.ContainerState state = container.getCurrentContainerInfo().getState();
            String out = container.getLogs(OutputType.STDOUT);
            String err = container.getLogs(OutputType.STDERR);
            System.out.printf("DockerImageTest: docker run %s %s -> exit %d%n", IMAGE, String.join(" ", args),
                    state.getExitCodeLong());
            return new ContainerRun(state.getExitCodeLong(), out, err);
        }
    }

    /** Started is finished: the CLI is a one-shot process, whatever its exit code. */
    private static final class ExitedStartupCheck extends StartupCheckStrategy {
        @Override
        public StartupStatus checkStartupState(DockerClient dockerClient, String containerId) {
            InspectContainerResponse.ContainerState state = getCurrentState(dockerClient, containerId);
            return DockerStatus.isContainerStopped(state) ? StartupStatus.SUCCESSFUL : StartupStatus.NOT_YET_KNOWN;
        }
    }

    /**
     * The CLI as ./overlap-analyze runs it: its main class in a JVM of its own, started in
     * {@code dir}, so that the relative paths it reports are the ones the container reports.
     */
    private static CliRun launcher(Path dir, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), Main.class.getName()));
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).directory(dir.toFile()).start();
        process.getOutputStream().close();
        var err = new java.util.concurrent.CompletableFuture<String>();
        Thread errReader = new Thread(() -> err.complete(readAll(process.getErrorStream())));
        errReader.start();
        String out = readAll(process.getInputStream());
        int code = process.waitFor();
        errReader.join();
        return new CliRun(code, out, err.join());
    }

    private static String readAll(InputStream in) {
        try (in) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "(unreadable: " + e.getMessage() + ")";
        }
    }

    /** The report less its "tool" field (the version string, which names the build). */
    private static JsonNode withoutTool(String report) throws IOException {
        JsonNode node = JSON.readTree(report);
        Assertions.assertTrue(node instanceof ObjectNode, "a JSON report: " + report);
        ((ObjectNode) node).remove("tool");
        return node;
    }

    private static Bind readOnly(Path hostDir, String containerDir) {
        return new Bind(hostDir.toString(), new Volume(containerDir), AccessMode.ro);
    }

    private static Path sharedKinetoDir() {
        return SharedTraces.kineto(SHARED_TRACE).toAbsolutePath().normalize().getParent();
    }

    private static String sha256(Path file) throws IOException, NoSuchAlgorithmException {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file)));
    }

    /** The image named by {@code variable}, or the Dockerfile's default; pulled if missing. */
    private static String baseImage(DockerClient docker, String variable, String dockerfileDefault)
            throws InterruptedException {
        String configured = System.getenv(variable);
        String image = configured == null || configured.isBlank() ? dockerfileDefault : configured;
        if (imageId(docker, image) != null) {
            return image;
        }
        boolean pulled;
        String why = "";
        try {
            pulled = docker.pullImageCmd(image).exec(new PullImageResultCallback()).awaitCompletion(10, TimeUnit.MINUTES);
        } catch (RuntimeException e) {
            pulled = false;
            why = ": " + e.getMessage();
        }
        return usable(pulled, "base image " + image + " is not on this Docker engine and cannot be pulled" + why
                + "; docker/local-base-images.sh builds local ones, named in " + variable) ? image : null;
    }

    private static String imageId(DockerClient docker, String image) {
        try {
            return docker.inspectImageCmd(image).exec().getId();
        } catch (NotFoundException e) {
            return null;
        }
    }

    /**
     * A missing prerequisite skips every test with the reason (an assumption failed here would hide
     * them from the counts), or fails them where CI has promised a Docker engine.
     */
    private static boolean usable(boolean available, String reason) {
        if (available) {
            return true;
        }
        if ("required".equals(System.getenv("OVERLAP_DOCKER_TEST"))) {
            throw new AssertionError(reason + " (OVERLAP_DOCKER_TEST=required)");
        }
        skipReason = reason + ": skipping";
        System.out.println("DockerImageTest: " + skipReason);
        return false;
    }
}
