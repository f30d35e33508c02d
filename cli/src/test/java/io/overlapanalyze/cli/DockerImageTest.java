package io.overlapanalyze.cli;

import org.junit.jupiter.api.Test;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.startupcheck.OneShotStartupCheckStrategy;
import org.testcontainers.images.builder.ImageFromDockerfile;
import org.testcontainers.junit.jupiter.Testcontainers;

import java.nio.file.Path;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Builds the project's Dockerfile and runs the image on a bundled sample. Skipped where no
 * Docker engine runs (our CI machines have none); must pass where one does.
 */
@Testcontainers(disabledWithoutDocker = true)
class DockerImageTest {
    @Test
    void imageAnalysesABundledSample() {
        Path root = Path.of(System.getProperty("overlap.projectRoot", "..")).toAbsolutePath().normalize();
        ImageFromDockerfile image = new ImageFromDockerfile("overlap-analyze-test", true)
                .withFileFromPath(".", root);
        try (GenericContainer<?> container = new GenericContainer<>(image)
                .withCommand("/opt/overlap-analyze/samples/seed-4ms.pt.trace.json")
                .withStartupCheckStrategy(new OneShotStartupCheckStrategy().withTimeout(Duration.ofMinutes(2)))) {
            container.start();
            String logs = container.getLogs();
            assertTrue(logs.contains("COMM_BOUND"), "the 4 ms seed sample is COMM_BOUND: " + logs);
        }
    }
}
