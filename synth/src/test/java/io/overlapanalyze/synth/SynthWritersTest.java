package io.overlapanalyze.synth;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The generator's registry: which writer takes a request, what it lists, and that a request's
 * options reach the writer. The files themselves are the writers' own tests' business.
 */
class SynthWritersTest {
    @TempDir
    Path dir;

    /** Keeps what the writers stream, in memory; whole files go to disk. */
    private static final class Recording implements SynthOutput {
        final List<Path> targets = new ArrayList<>();
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        int sqliteSetups;

        @Override
        public void stream(Path target, List<Path> inputs, StreamBody body) {
            targets.add(target);
            try {
                body.write(bytes);
            } catch (IOException e) {
                throw new AssertionError(e);
            }
        }

        @Override
        public void file(Path target, List<Path> inputs, FileBody body) throws IOException {
            targets.add(target);
            body.write(target);
        }

        @Override
        public void beforeSqlite() {
            sqliteSetups++;
        }
    }

    private static SynthRequest request(String scenario, Path output, String format, Integer ranks) {
        return new SynthRequest(scenario, output, format, ranks, false, null, 0, null, null, false, false, null);
    }

    @Test
    void theListShowsThePlainScenariosFirstThenTheParallelOnesThenAscendMc2() {
        List<String> lines = SynthWriters.standard().builtins();
        List<String> expected = new ArrayList<>();
        for (String name : BuiltinScenarios.names()) {
            expected.add(name + "  " + BuiltinScenarios.get(name).description());
        }
        for (String name : ParallelScenarioWriter.builtinNames()) {
            expected.add(name + "  " + ParallelScenarioWriter.description(name));
        }
        expected.add(AscendMc2Writer.NAME + "  " + AscendMc2Writer.DESCRIPTION);
        assertEquals(expected, lines);
    }

    @Test
    void aBuiltinScenarioIsOneKinetoTraceNamedAfterIt() throws IOException {
        Recording out = new Recording();
        Written w = SynthWriters.standard().write(request("seed-1ms", null, null, null), out);
        assertEquals(new Written(Path.of("seed-1ms.pt.trace.json"), 0), w);
        ByteArrayOutputStream direct = new ByteArrayOutputStream();
        KinetoScenarioWriter.write(BuiltinScenarios.get("seed-1ms"), direct, "seed-1ms.pt.trace.json");
        assertArrayEquals(direct.toByteArray(), out.bytes.toByteArray(), "the Kineto writer, unchanged");
        assertEquals(0, out.sqliteSetups, "no SQLite for a Kineto trace");
    }

    @Test
    void aSqliteOutputIsAnNsightExportWithTheSqliteSetFirst() throws IOException {
        Recording out = new Recording();
        Path target = dir.resolve("x.sqlite");
        Written w = SynthWriters.standard().write(request("seed-4ms", target, null, null), out);
        assertEquals(target, w.where());
        assertEquals(1, out.sqliteSetups);
        assertTrue(Files.size(target) > 0);
    }

    @Test
    void ranksMakeAJobOfThatManyRankFiles() throws IOException {
        Written w = SynthWriters.standard().write(request("seed-1ms", dir.resolve("job"), null, 3), new Recording());
        assertEquals(3, w.rankFiles());
        assertEquals(3, Files.list(dir.resolve("job")).count());
    }

    @Test
    void aParallelBuiltinGoesToItsWriter() throws IOException {
        String name = ParallelScenarioWriter.builtinNames().get(0);
        Recording out = new Recording();
        Written w = SynthWriters.standard().write(request(name, null, null, null), out);
        assertEquals(Path.of(ParallelScenarioWriter.name(name) + ".pt.trace.json"), w.where());
        assertTrue(out.bytes.size() > 0);
    }

    @Test
    void whatCannotBeWrittenAsAskedIsTheUsersToFix() {
        SynthInputException unknown = assertThrows(SynthInputException.class,
                () -> SynthWriters.standard().write(request("no-such-scenario", null, null, null), new Recording()));
        assertTrue(unknown.getMessage().startsWith("no-such-scenario: neither a scenario file nor a built-in scenario"),
                unknown.getMessage());
        SynthInputException format = assertThrows(SynthInputException.class,
                () -> SynthWriters.standard().write(request("seed-1ms", null, "csv", null), new Recording()));
        assertEquals("--format: expected kineto, nsys or ascend, got 'csv'", format.getMessage());
        SynthInputException mc2 = assertThrows(SynthInputException.class,
                () -> SynthWriters.standard().write(request(AscendMc2Writer.NAME, null, null, 2), new Recording()));
        assertTrue(mc2.getMessage().startsWith(AscendMc2Writer.NAME + ": written as a torch_npu capture only"));
    }
}
