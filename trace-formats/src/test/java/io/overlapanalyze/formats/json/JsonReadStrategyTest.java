package io.overlapanalyze.formats.json;

import io.overlapanalyze.formats.input.TraceFormatException;
import io.overlapanalyze.formats.json.Utf8JsonScanner.Unsupported;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The two-path strategy with fake paths that record which ran, in which order. */
class JsonReadStrategyTest {
    private final List<String> calls = new ArrayList<>();

    private JsonReadStrategy.Read<String> path(String name, RuntimeException thrown) {
        return () -> {
            calls.add(name);
            if (thrown != null) {
                throw thrown;
            }
            return name;
        };
    }

    @Test
    void fastPathAloneReadsAFileItTakesOn() throws Exception {
        JsonReadStrategy s = JsonReadStrategy.of("strategy-test-default");
        assertTrue(s.byteScanner());
        assertEquals("fast", s.read(path("fast", null), path("reference", null)));
        assertEquals(List.of("fast"), calls);
    }

    @Test
    void onUnsupportedTheReferencePathDecides() throws Exception {
        JsonReadStrategy s = JsonReadStrategy.of("strategy-test-default");
        assertEquals("reference", s.read(path("fast", new Unsupported("damage")), path("reference", null)));
        assertEquals(List.of("fast", "reference"), calls);
    }

    @Test
    void theReferencePathsErrorIsTheReadsError() {
        JsonReadStrategy s = JsonReadStrategy.of("strategy-test-default");
        TraceFormatException error = new TraceFormatException("f.json: bad");
        JsonReadStrategy.Read<String> failing = () -> {
            calls.add("reference");
            throw error;
        };
        assertSame(error, assertThrows(TraceFormatException.class,
                () -> s.read(path("fast", new Unsupported("damage")), failing)));
        assertEquals(List.of("fast", "reference"), calls);
    }

    @Test
    void otherFastPathFailuresAreNotSwallowed() {
        JsonReadStrategy s = JsonReadStrategy.of("strategy-test-default");
        IllegalStateException bug = new IllegalStateException("bug");
        assertSame(bug, assertThrows(IllegalStateException.class,
                () -> s.read(path("fast", bug), path("reference", null))));
        assertEquals(List.of("fast"), calls);
    }

    @Test
    void propertySwitchesTheFastPathOff() throws Exception {
        String key = "overlap.strategy-test-off.scanner";
        System.setProperty(key, "jackson");
        try {
            JsonReadStrategy s = JsonReadStrategy.of("strategy-test-off");
            assertFalse(s.byteScanner());
            assertEquals("reference", s.read(path("fast", null), path("reference", null)));
            assertEquals(List.of("reference"), calls);
        } finally {
            System.clearProperty(key);
        }
    }

    @Test
    void anyOtherPropertyValueKeepsTheFastPath() {
        String key = "overlap.strategy-test-other.scanner";
        System.setProperty(key, "bytes");
        try {
            assertTrue(JsonReadStrategy.of("strategy-test-other").byteScanner());
        } finally {
            System.clearProperty(key);
        }
    }

    @Test
    void threadsComeFromTheFormatsProperty() {
        String key = "overlap.strategy-test-threads.threads";
        System.setProperty(key, "3");
        try {
            assertEquals(3, JsonReadStrategy.of("strategy-test-threads").threads());
        } finally {
            System.clearProperty(key);
        }
    }

    @Test
    void parallelScanThatResequencesIsReadAgainOnOneThread() throws IOException {
        List<Integer> chunks = new ArrayList<>();
        String result = JsonReadStrategy.scan(1024, chunk -> {
            chunks.add(chunk);
            if (chunk > 0) {
                throw new ParallelArrayScan.Resequence("cut inside an element");
            }
            return "sequential";
        });
        assertEquals("sequential", result);
        assertEquals(List.of(1024, 0), chunks);
    }

    @Test
    void parallelScanThatSucceedsIsReadOnce() throws IOException {
        List<Integer> chunks = new ArrayList<>();
        assertEquals("parallel", JsonReadStrategy.scan(1024, chunk -> {
            chunks.add(chunk);
            return chunk > 0 ? "parallel" : "sequential";
        }));
        assertEquals(List.of(1024), chunks);
    }

    @Test
    void noChunkSizeReadsOnOneThreadOnly() throws IOException {
        List<Integer> chunks = new ArrayList<>();
        assertEquals("sequential", JsonReadStrategy.scan(0, chunk -> {
            chunks.add(chunk);
            return "sequential";
        }));
        assertEquals(List.of(0), chunks);
    }

    @Test
    void unsupportedOnTheParallelScanIsNotRetriedHere() {
        List<Integer> chunks = new ArrayList<>();
        assertThrows(Unsupported.class, () -> JsonReadStrategy.scan(1024, chunk -> {
            chunks.add(chunk);
            throw new Unsupported("damage");
        }));
        assertEquals(List.of(1024), chunks);
    }
}
