package io.overlapanalyze.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Acceptance (Ascend issue, point 4): bad Ascend input gives one line naming the file and what is
 * wrong, and exit code 2. A timeline cut after usable events is analysed with a warning instead,
 * as for Kineto (ascend.md §9: truncated trace_view.json occurs in the wild; report a partial parse).
 */
class AscendBadInputTest {
    @TempDir
    Path tmp;

    private static final String META = "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":3170820512,\"tid\":0,"
            + "\"args\":{\"name\":\"Ascend Hardware\"}},\n"
            + "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":3170820512,\"tid\":2,\"args\":{\"name\":\"Stream 2\"}},\n";

    private static String task(String ts) {
        return "{\"name\":\"k\",\"pid\":3170820512,\"tid\":2,\"ts\":" + ts + ",\"dur\":53.7410625,"
                + "\"args\":{\"Task Type\":\"AI_CORE\"},\"ph\":\"X\"}";
    }

    private void assertOneLineError(Path input, String mustContain) {
        CliRun run = CliRun.of(input.toString());
        assertEquals(ExitCodes.BAD_INPUT, run.exitCode(), "exit code; stderr: " + run.err());
        assertEquals(1, run.errLines().size(), "exactly one line on stderr, got: " + run.err());
        String line = run.errLines().get(0);
        assertTrue(line.contains(input.getFileName().toString()), "names the input: " + line);
        assertTrue(line.contains(mustContain), "says what is wrong (" + mustContain + "): " + line);
        assertFalse(line.contains("Exception") || line.contains("\tat "), "no stack trace: " + line);
        assertTrue(run.out().isEmpty(), "nothing on stdout: " + run.out());
    }

    @Test
    void captureDirectoryWithoutTimeline() throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("host_123_ascend_pt"));
        Files.writeString(dir.resolve("profiler_info_0.json"), "{\"rank_id\": 0}");
        Files.createDirectories(dir.resolve("ASCEND_PROFILER_OUTPUT"));
        assertOneLineError(dir, "no Ascend timeline");
    }

    @Test
    void truncatedArrayBeforeAnyCompleteEvent() throws IOException {
        Path f = Files.writeString(tmp.resolve("trace_view.json"), "[{\"ph\":\"M\",\"name\":\"process_na");
        assertOneLineError(f, "ends early");
    }

    @Test
    void truncatedArrayBeforeTheLaneMetadata() throws IOException {
        Path f = Files.writeString(tmp.resolve("trace_view.json"),
                "[{\"ph\":\"X\",\"name\":\"a\",\"pid\":1,\"tid\":1,\"ts\":\"1.000\",\"dur\":1},\n{\"ph\":\"X\",\"na");
        assertOneLineError(f, "nothing to analyse");
    }

    /** issue 29 item 7: an unreadable ts skips its event; when no device event is left, nothing is analysed. */
    @Test
    void timestampThatIsNotANumber() throws IOException {
        Path f = Files.writeString(tmp.resolve("trace_view.json"), "[" + META + task("\"1736408883704643.2x2\"") + "]");
        assertOneLineError(f, "no device event with a readable time");
    }

    /** One unreadable ts among readable ones: analysed, with one warning that counts and quotes it. */
    @Test
    void oneTimestampThatIsNotANumberIsSkippedWithAWarning() throws IOException {
        Path f = Files.writeString(tmp.resolve("trace_view.json"), "[" + META + task("\"1736408883704643.212\"") + ",\n"
                + task("\"1736408883704643.2x2\"") + ",\n" + task("\"1736408883704743.212\"") + "]");
        CliRun run = CliRun.of(f.toString());
        assertEquals(ExitCodes.OK, run.exitCode(), run.err());
        assertTrue(run.err().contains("\"Ascend Hardware\" events without a readable \"ts\" skipped")
                && run.err().contains("1736408883704643.2x2"), run.err());
    }

    @Test
    void arrayThatIsNotAnAscendTimeline() throws IOException {
        Path f = Files.writeString(tmp.resolve("other.json"), "[{\"ph\":\"X\",\"name\":\"a\",\"pid\":1,\"tid\":1,\"ts\":1}]");
        assertOneLineError(f, "not an Ascend timeline");
    }

    @Test
    void truncatedAfterUsableEventsIsAnalysedWithAWarning() throws IOException {
        Path f = Files.writeString(tmp.resolve("trace_view.json"),
                "[" + META + task("\"1736408883704643.212\"") + ",\n" + task("\"1736408883704743.212\"") + ",\n{\"name\":\"k");
        CliRun run = CliRun.of(f.toString());
        assertEquals(ExitCodes.OK, run.exitCode(), run.err());
        assertTrue(run.out().contains("warning: truncated"), run.out());
    }
}
