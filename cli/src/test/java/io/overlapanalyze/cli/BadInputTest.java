package io.overlapanalyze.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.zip.GZIPOutputStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Acceptance: a missing file, an empty file, a truncated gzip, truncated JSON, a file that is not
 * a trace and JSON with unexpected types each give one clear line naming the file, exit code 2,
 * and no stack trace.
 */
class BadInputTest {
    @TempDir
    Path tmp;

    private static final String VALID = "{\"traceEvents\":[{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"k\",\"pid\":0,"
            + "\"tid\":7,\"ts\":100.000,\"dur\":5.000,\"args\":{\"stream\":7,\"correlation\":1}}]}";

    private void assertOneLineError(Path file, String... args) {
        CliRun run = CliRun.of(args.length == 0 ? new String[] {file.toString()} : args);
        assertEquals(ExitCodes.BAD_INPUT, run.exitCode(), "exit code; stderr: " + run.err());
        assertEquals(1, run.errLines().size(), "exactly one line on stderr, got: " + run.err());
        String line = run.errLines().get(0);
        assertTrue(line.contains(file.getFileName().toString()), "names the file: " + line);
        assertFalse(line.contains("Exception") || line.contains("\tat "), "no stack trace or class names: " + line);
        assertTrue(run.out().isEmpty(), "nothing on stdout: " + run.out());
    }

    @Test
    void missingFile() {
        assertOneLineError(tmp.resolve("nope.json"));
    }

    @Test
    void emptyFile() throws IOException {
        Path f = Files.writeString(tmp.resolve("empty.json"), "");
        assertOneLineError(f);
    }

    @Test
    void whitespaceOnly() throws IOException {
        Path f = Files.writeString(tmp.resolve("blank.json"), "  \n\t ");
        assertOneLineError(f);
    }

    @Test
    void truncatedGzipHeader() throws IOException {
        byte[] gz = gzip(VALID.getBytes(StandardCharsets.UTF_8));
        Path f = Files.write(tmp.resolve("cut.json.gz"), Arrays.copyOf(gz, 12));
        assertOneLineError(f);
    }

    @Test
    void truncatedJsonBeforeAnyEvent() throws IOException {
        Path f = Files.writeString(tmp.resolve("cut.json"), "{\"schemaVersion\":1,\"traceEv");
        assertOneLineError(f);
    }

    @Test
    void truncatedJsonInsideFirstEvent() throws IOException {
        Path f = Files.writeString(tmp.resolve("cut2.json"), VALID.substring(0, 60));
        assertOneLineError(f);
    }

    @Test
    void notATrace() throws IOException {
        Path f = Files.writeString(tmp.resolve("notes.json"), "hello, this is not a trace\n");
        assertOneLineError(f);
    }

    @Test
    void jsonWithoutTraceEvents() throws IOException {
        Path f = Files.writeString(tmp.resolve("other.json"), "{\"name\": \"package\", \"version\": \"1.0\"}");
        assertOneLineError(f);
    }

    @Test
    void traceEventsOfWrongType() throws IOException {
        Path f = Files.writeString(tmp.resolve("types.json"), "{\"traceEvents\": 5}");
        assertOneLineError(f);
    }

    @Test
    void timestampOfWrongType() throws IOException {
        Path f = Files.writeString(tmp.resolve("ts.json"), VALID.replace("\"ts\":100.000", "\"ts\":\"abc\""));
        assertOneLineError(f);
    }

    @Test
    void topLevelArrayOfNumbers() throws IOException {
        Path f = Files.writeString(tmp.resolve("array.json"), "[1, 2, 3]");
        assertOneLineError(f);
    }

    @Test
    void debugAddsTheStackTrace() throws IOException {
        Path f = Files.writeString(tmp.resolve("empty2.json"), "");
        CliRun run = CliRun.of("--debug", f.toString());
        assertEquals(ExitCodes.BAD_INPUT, run.exitCode());
        assertTrue(run.errLines().size() > 1, "stack trace expected with --debug: " + run.err());
    }

    @Test
    void unknownOptionIsAUsageError() {
        CliRun run = CliRun.of("--no-such-option", "x.json");
        assertEquals(ExitCodes.BAD_INPUT, run.exitCode());
        assertTrue(run.err().contains("--no-such-option"), run.err());
    }

    @Test
    void noPathIsAUsageError() {
        CliRun run = CliRun.of();
        assertEquals(ExitCodes.BAD_INPUT, run.exitCode());
        assertTrue(run.err().contains("PATH"), run.err());
    }

    @Test
    void truncatedInTheMiddleIsAnalysedWithAWarning() throws IOException {
        // Two complete events, then the file stops: partly readable, so analysed with a warning.
        String two = "{\"traceEvents\":[" + VALID.substring(VALID.indexOf('[') + 1, VALID.lastIndexOf(']'))
                + "," + VALID.substring(VALID.indexOf('[') + 1, VALID.lastIndexOf(']')).replace("100.000", "200.000")
                + ",{\"ph\":\"X\",\"cat\":\"ker";
        Path f = Files.writeString(tmp.resolve("partial.json"), two);
        CliRun run = CliRun.of(f.toString());
        assertEquals(ExitCodes.OK, run.exitCode(), run.err());
        assertTrue(run.out().contains("warning"), "warning in the report: " + run.out());
    }

    @Test
    void outputNeverOverwritesAnInput() throws IOException {
        Path f = Files.writeString(tmp.resolve("in.json"), VALID);
        CliRun run = CliRun.of(f.toString(), "-o", f.toString());
        assertEquals(ExitCodes.BAD_INPUT, run.exitCode());
        assertEquals(VALID, Files.readString(f), "input unchanged");
    }

    private static byte[] gzip(byte[] data) throws IOException {
        ByteArrayOutputStream bos = new ByteArrayOutputStream();
        try (OutputStream gz = new GZIPOutputStream(bos)) {
            gz.write(data);
        }
        return bos.toByteArray();
    }
}
