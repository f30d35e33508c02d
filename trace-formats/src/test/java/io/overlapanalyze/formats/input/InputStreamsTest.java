package io.overlapanalyze.formats.input;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPOutputStream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class InputStreamsTest {
    @TempDir
    Path dir;

    @Test
    void detectsGzipByContentNotName() throws IOException {
        Path gz = dir.resolve("trace.json");
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(gz))) {
            out.write("{\"traceEvents\": []}".getBytes(StandardCharsets.UTF_8));
        }
        Path plain = dir.resolve("trace.json.gz");
        Files.writeString(plain, "{\"a\": 1}");
        assertTrue(InputStreams.isGzip(gz));
        assertFalse(InputStreams.isGzip(plain));
        try (InputStream in = InputStreams.open(gz)) {
            assertEquals("{\"traceEvents\": []}", new String(in.readAllBytes(), StandardCharsets.UTF_8));
        }
        try (InputStream in = InputStreams.open(plain)) {
            assertEquals("{\"a\": 1}", new String(in.readAllBytes(), StandardCharsets.UTF_8));
        }
    }

    @Test
    void headOfEmptyAndShortFiles() throws IOException {
        Path empty = dir.resolve("empty");
        Files.write(empty, new byte[0]);
        assertArrayEquals(new byte[0], InputStreams.head(empty, 100));
        Path one = dir.resolve("one");
        Files.write(one, new byte[] {0x1f});
        assertArrayEquals(new byte[] {0x1f}, InputStreams.head(one, 100));
    }
}
