package io.overlapanalyze.cli;

import org.junit.jupiter.api.Assumptions;

import java.nio.file.Files;
import java.nio.file.Path;

/** Locates the real traces of ../shared/traces; tests that need them skip with a clear message. */
public final class SharedTraces {
    private SharedTraces() {
    }

    public static Path root() {
        String prop = System.getProperty("overlap.sharedTraces");
        Path dir = prop != null ? Path.of(prop) : Path.of("..", "..", "shared", "traces");
        Assumptions.assumeTrue(Files.isDirectory(dir),
                "shared real traces not found at " + dir.toAbsolutePath().normalize()
                        + ": skipping (CI has them; a user's clone may not)");
        return dir;
    }

    public static Path kineto(String name) {
        return file("kineto", name);
    }

    public static Path nsys(String name) {
        return file("nsys", name);
    }

    private static Path file(String family, String name) {
        Path p = root().resolve(family).resolve(name);
        Assumptions.assumeTrue(Files.isRegularFile(p), "shared trace " + p + " not found: skipping");
        return p;
    }
}
