package io.overlapanalyze.cli.docs;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The launcher's first build (the repository's {@code overlap-analyze}, copied into a temporary
 * root with no jar) says what it is doing, on stderr only, and leaves no temporary file behind:
 * Maven is a stand-in script on the {@code PATH} that prints reactor lines as Maven 3 does
 * ({@code [INFO] Building <name> <version> [i/n]}, and a {@code Building jar:} line that is no
 * module), and java a stand-in that prints one line, so what the launcher adds is all there is.
 */
class LauncherBuildProgressTest {
    private static final Path ROOT = Path.of(System.getProperty("overlap.projectRoot", ".."))
            .toAbsolutePath().normalize();
    private static final String FAKE_MVN = """
            #!/usr/bin/env bash
            echo $$ > "$FAKE_MVN_PID"
            echo "$*" > "$FAKE_MVN_ARGS"
            echo "[INFO] Scanning for projects..."
            echo "[INFO] Building overlap-analyze 0.1.0-SNAPSHOT                                  [1/3]"
            if [[ -n "${FAKE_MVN_HANG:-}" ]]; then
              sleep 60 & s=$!
              trap 'kill $s; echo stopped > "$FAKE_MVN_PID.stopped"; exit 143' TERM
              wait $s
            fi
            sleep 1.2
            echo "[INFO] Building jar: /somewhere/trace-formats.jar"
            echo "[INFO] Building overlap-analyze trace formats 0.1.0-SNAPSHOT                    [2/3]"
            if [[ -n "${FAKE_MVN_FAIL:-}" ]]; then
              echo "[ERROR] COMPILATION ERROR: Broken.java:[1,24] illegal start of expression"
              exit 1
            fi
            echo "[INFO] Building overlap-analyze CLI 0.1.0-SNAPSHOT                              [3/3]"
            mkdir -p cli/target && echo jar > cli/target/overlap-analyze.jar
            """;

    @TempDir
    Path tmp;
    Path root;
    Path temps;

    @BeforeEach
    void copyTheLauncher() throws IOException {
        assumeTrue(Files.isExecutable(Path.of("/bin/bash")) || Files.isExecutable(Path.of("/usr/bin/bash")),
                "no bash: the launcher is a bash script");
        root = Files.createDirectories(tmp.resolve("repo"));
        Files.copy(ROOT.resolve("overlap-analyze"), root.resolve("overlap-analyze"));
        Path bin = Files.createDirectories(tmp.resolve("bin"));
        script(bin.resolve("mvn"), FAKE_MVN);
        script(bin.resolve("fake-java"), "#!/usr/bin/env bash\necho \"the tool ran\"\n");
        temps = Files.createDirectories(tmp.resolve("tmpdir"));
    }

    private static void script(Path p, String text) throws IOException {
        Files.writeString(p, text);
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    private ProcessBuilder launcher(Map<String, String> extra) {
        ProcessBuilder pb = new ProcessBuilder("bash", root.resolve("overlap-analyze").toString(), "--version");
        Map<String, String> env = pb.environment();
        env.put("PATH", tmp.resolve("bin") + ":" + env.getOrDefault("PATH", "/usr/bin:/bin"));
        env.put("JAVA", tmp.resolve("bin/fake-java").toString());
        env.put("OVERLAP_ANALYZE_JAVA_OPTS", "-Dno.prescan=1");
        env.put("OVERLAP_ANALYZE_CDS", "0");
        env.put("TMPDIR", temps.toString());
        env.put("FAKE_MVN_PID", tmp.resolve("mvn.pid").toString());
        env.put("FAKE_MVN_ARGS", tmp.resolve("mvn.args").toString());
        env.putAll(extra);
        return pb.redirectOutput(tmp.resolve("stdout").toFile()).redirectError(tmp.resolve("stderr").toFile());
    }

    private int run(Map<String, String> extra) throws IOException, InterruptedException {
        Process p = launcher(extra).start();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the launcher ended");
        return p.exitValue();
    }

    private String out() throws IOException {
        return Files.readString(tmp.resolve("stdout"), StandardCharsets.UTF_8);
    }

    private List<String> err() throws IOException {
        return Files.readAllLines(tmp.resolve("stderr"), StandardCharsets.UTF_8);
    }

    private List<String> leftInTmp() throws IOException {
        try (Stream<Path> s = Files.list(temps)) {
            return s.map(p -> p.getFileName().toString()).toList();
        }
    }

    @Test
    void theBuildSaysAModuleALineOnStderrAndTheReportAloneGoesToStdout() throws Exception {
        assertEquals(0, run(Map.of()), String.join("\n", err()));
        assertEquals("the tool ran\n", out(), "nothing of the build on stdout");
        List<String> progress = err().stream().filter(l -> l.startsWith("overlap-analyze: building ")
                && !l.contains("the jar")).map(l -> l.replaceFirst(" \\(\\d+ s\\)$", "")).toList();
        assertEquals(List.of("overlap-analyze: building 1/3: overlap-analyze",
                "overlap-analyze: building 2/3: trace formats", "overlap-analyze: building 3/3: CLI"), progress);
        assertTrue(err().get(0).startsWith("overlap-analyze: building the jar with Maven"), err().get(0));
        assertTrue(err().get(err().size() - 1).startsWith("overlap-analyze: built in "), String.join("\n", err()));
        assertFalse(String.join("\n", err()).contains("[INFO]"), "Maven's log is not shown when the build works");
        assertEquals(List.of(), leftInTmp());
        String args = Files.readString(tmp.resolve("mvn.args")).strip();
        assertTrue(args.matches(".*-pl cli -am.*") && args.endsWith("package") && args.contains("-DskipTests"), args);
    }

    @Test
    void aFailedBuildShowsMavensWholeLogAndExits3() throws Exception {
        assertEquals(3, run(Map.of("FAKE_MVN_FAIL", "1")));
        assertEquals("", out());
        List<String> err = err();
        int log = err.indexOf("[INFO] Scanning for projects...");
        assertTrue(log > 0, String.join("\n", err));
        assertTrue(err.contains("[ERROR] COMPILATION ERROR: Broken.java:[1,24] illegal start of expression"), String.join("\n", err));
        assertEquals("overlap-analyze: build failed (Maven output above)", err.get(err.size() - 1));
        assertEquals(List.of(), leftInTmp());
    }

    @Test
    void aKilledBuildStopsMavenAndLeavesNoTemporaryFile() throws Exception {
        Process p = launcher(Map.of("FAKE_MVN_HANG", "1")).start();
        Path pidFile = tmp.resolve("mvn.pid");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!(Files.exists(pidFile) && Files.size(pidFile) > 0) && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        assertTrue(Files.exists(pidFile), "Maven started");
        assertEquals(1, leftInTmp().size(), "the build's log, while it runs: " + leftInTmp());
        Thread.sleep(1500); // the launcher has shown the first module
        p.destroy(); // SIGTERM, as a supervisor or `kill` sends it
        assertTrue(p.waitFor(20, TimeUnit.SECONDS), "the launcher ended on SIGTERM");
        assertEquals(143, p.exitValue());
        assertEquals("", out());
        assertTrue(err().contains("overlap-analyze: build stopped"), String.join("\n", err()));
        assertEquals(List.of(), leftInTmp());
        Path stopped = tmp.resolve("mvn.pid.stopped");
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!Files.exists(stopped) && System.nanoTime() < until) {
            Thread.sleep(50);
        }
        assertTrue(Files.exists(stopped), "Maven was sent SIGTERM too (it would build on for a minute)");
    }
}
