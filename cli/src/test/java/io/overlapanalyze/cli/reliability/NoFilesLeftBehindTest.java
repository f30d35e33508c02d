package io.overlapanalyze.cli.reliability;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A run on an SQLite input leaves nothing behind: not in the working directory, not in the
 * temporary directory (sqlite-jdbc's native library is extracted into a private directory of the
 * process, removed at exit). A fresh JVM, so that the library is loaded by this run.
 */
class NoFilesLeftBehindTest {
    @TempDir
    Path dir;

    private static List<String> list(Path d) throws IOException {
        try (Stream<Path> s = Files.list(d)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void anSqliteRunLeavesTheWorkingAndTemporaryDirectoriesAsTheyWere() throws Exception {
        Path export = HostileCorpus.nsysSeed(Files.createDirectories(dir.resolve("in")).resolve("export.sqlite"));
        Path cwd = Files.createDirectories(dir.resolve("cwd"));
        Path tmp = Files.createDirectories(dir.resolve("tmp"));
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), "-Djava.io.tmpdir=" + tmp,
                "io.overlapanalyze.cli.Main", "-f", "json", export.toString())
                .directory(cwd.toFile())
                .redirectOutput(dir.resolve("out.json").toFile())
                .redirectError(dir.resolve("err.txt").toFile())
                .start();
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "the run did not end");
        assertEquals(0, p.exitValue(), Files.readString(dir.resolve("err.txt")));
        assertTrue(Files.readString(dir.resolve("out.json")).contains("\"steps\""), "a report was written");
        assertEquals(List.of(), list(cwd), "files left in the working directory");
        assertEquals(List.of(), list(tmp), "files left in the temporary directory");
    }
}
