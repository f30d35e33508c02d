package io.overlapanalyze.cli.options;

import io.overlapanalyze.cli.CliRun;
import io.overlapanalyze.cli.ExitCodes;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.Deflater;
import java.util.zip.GZIPOutputStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A gzip bomb is refused with one clear line; size limits are configurable. */
class InputLimitsTest {
    @TempDir
    Path tmp;

    /** 1 GiB of JSON whitespace inside a trace object, gzip-compressed to about 1 MB. */
    private Path gzipBomb() throws IOException {
        Path bomb = tmp.resolve("bomb.json.gz");
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(bomb), 1 << 16) {
            {
                def.setLevel(Deflater.BEST_SPEED);
            }
        }) {
            out.write("{\"traceEvents\":[".getBytes(StandardCharsets.US_ASCII));
            byte[] spaces = new byte[1 << 20];
            java.util.Arrays.fill(spaces, (byte) ' ');
            for (int i = 0; i < 1024; i++) {
                out.write(spaces);
            }
            out.write("]}".getBytes(StandardCharsets.US_ASCII));
        }
        return bomb;
    }

    @Test
    void gzipBombIsRefusedWithOneLine() throws IOException {
        Path bomb = gzipBomb();
        assertTrue(Files.size(bomb) < 8 << 20, "the bomb is small on disk: " + Files.size(bomb));
        CliRun run = CliRun.of(bomb.toString());
        assertEquals(ExitCodes.BAD_INPUT, run.exitCode(), run.err());
        assertEquals(1, run.errLines().size(), run.err());
        assertTrue(run.err().contains("bomb.json.gz") && run.err().contains("--max-ratio"), run.err());
    }

    @Test
    void sizeLimitIsConfigurable() throws IOException {
        Path f = Files.writeString(tmp.resolve("t.json"), "{\"traceEvents\":[]}" + " ".repeat(2000));
        CliRun run = CliRun.of("--max-input-size", "1k", f.toString());
        assertEquals(ExitCodes.BAD_INPUT, run.exitCode(), run.err());
        assertTrue(run.err().contains("--max-input-size"), run.err());
        CliRun bad = CliRun.of("--max-input-size", "lots", f.toString());
        assertEquals(ExitCodes.BAD_INPUT, bad.exitCode());
    }
}
