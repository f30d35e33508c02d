package io.overlapanalyze.cli.reliability;

import io.overlapanalyze.cli.ExitCodes;
import io.overlapanalyze.synth.KinetoScenarioWriter;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.BiFunction;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Output safety: every command and option that writes a file (analyse {@code -o} and
 * {@code --html}, {@code summary -o}, {@code diff -o}, {@code gate --markdown/--junit/--json},
 * {@code whatif -o}, {@code annotate -o}, {@code synth -o}):
 * <ul>
 *   <li>refuses to write over one of its inputs, named directly or through a symbolic link, with one
 *       line and exit 2, leaving the input byte-identical;</li>
 *   <li>refuses a directory, or a path under a regular file, with one line and exit 2;</li>
 *   <li>replaces an existing non-input file completely and leaves no temporary file behind (it
 *       writes a hidden temporary file in the same directory and moves it into place).</li>
 * </ul>
 */
class OutputSafetyTest {
    @TempDir
    Path tmp;

    /** A writing command: its arguments given the input trace and the output file. */
    private record Writer(String name, BiFunction<Path, Path, String[]> args) {
    }

    private static List<Writer> writers(Path scenario) {
        return List.of(
                new Writer("analyse -o", (in, out) -> a(in, "-o", out)),
                new Writer("analyse -f json -o", (in, out) -> a("-f", "json", in, "-o", out)),
                new Writer("analyse --html", (in, out) -> a(in, "--html", out)),
                new Writer("summary -o", (in, out) -> a("summary", in, "-o", out)),
                new Writer("diff -o", (in, out) -> a("diff", in, in, "-o", out)),
                new Writer("gate --markdown", (in, out) -> a("gate", "--baseline", in, in, "--markdown", out)),
                new Writer("gate --junit", (in, out) -> a("gate", "--baseline", in, in, "--junit", out)),
                new Writer("gate --json", (in, out) -> a("gate", "--baseline", in, in, "--json", out)),
                new Writer("whatif -o", (in, out) -> a("whatif", in, "-o", out)),
                new Writer("annotate -o", (in, out) -> a("annotate", in, "-o", out)),
                // synth's input is the scenario file; the trace plays no part.
                new Writer("synth -o", (in, out) -> a("synth", scenario, "-o", out)));
    }

    private static String[] a(Object... parts) {
        return Arrays.stream(parts).map(Object::toString).toArray(String[]::new);
    }

    @TestFactory
    Stream<DynamicTest> everyWriterIsSafe() throws IOException {
        Path scenario = Path.of(System.getProperty("overlap.projectRoot", ".."), "samples", "seed-1ms.scenario.json");
        Path scenarioCopy = Files.copy(scenario, tmp.resolve("seed-1ms.scenario.json"));
        List<DynamicTest> tests = new ArrayList<>();
        for (Writer w : writers(scenarioCopy)) {
            tests.add(DynamicTest.dynamicTest(w.name(), () -> check(w, scenarioCopy)));
        }
        return tests.stream();
    }

    private void check(Writer w, Path scenario) throws IOException {
        Path dir = Files.createDirectories(tmp.resolve(w.name().replaceAll("[^a-z]+", "_")));
        Path trace = dir.resolve("rank0.pt.trace.json");
        KinetoScenarioWriter.write(HostileCorpus.scenario(), trace);
        boolean synth = w.name().startsWith("synth");
        Path input = synth ? scenario : trace;
        byte[] before = Files.readAllBytes(input);

        // Over the input itself.
        Cli.run(w.args().apply(trace, input)).assertOneLineError(input, w.name() + " over its input");
        assertTrue(Arrays.equals(before, Files.readAllBytes(input)), w.name() + ": input changed");

        // Over the input through a symbolic link (another name for the same file).
        Path link = dir.resolve("link-to-input.json");
        Files.createSymbolicLink(link, input);
        Cli run = Cli.run(w.args().apply(trace, link));
        run.assertOneLineError(link, w.name() + " over a link to its input");
        assertTrue(Arrays.equals(before, Files.readAllBytes(input)), w.name() + ": input changed through a link");

        // A directory, and a path below a regular file.
        Path sub = Files.createDirectories(dir.resolve("a-directory"));
        Cli.run(w.args().apply(trace, sub)).assertOneLineError(sub, w.name() + " into a directory");
        Path belowFile = input.resolve("out.txt");
        Cli.run(w.args().apply(trace, belowFile)).assertOneLineError(belowFile, w.name() + " below a file");

        // An existing, unrelated file is replaced whole; nothing is left behind.
        Path target = dir.resolve("report.out");
        Files.writeString(target, "old content that is longer than nothing ".repeat(2000));
        List<Path> beforeFiles = list(dir);
        Cli ok = Cli.run(w.args().apply(trace, target));
        ok.assertNoCrash(w.name());
        assertTrue(ok.exitCode() == ExitCodes.OK || (w.name().startsWith("gate") && ok.exitCode() == ExitCodes.REGRESSION),
                w.name() + ": exit " + ok.exitCode() + ": " + ok.err());
        assertTrue(!Files.readString(target, java.nio.charset.StandardCharsets.ISO_8859_1).contains("old content"),
                w.name() + ": the old content is gone");
        assertTrue(Files.size(target) > 0, w.name() + ": wrote something");
        assertEquals(beforeFiles, list(dir), w.name() + ": no temporary or extra files left in the directory");
        assertTrue(Arrays.equals(before, Files.readAllBytes(input)), w.name() + ": input changed by a normal run");
    }

    private static List<Path> list(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(Path::getFileName).sorted().toList();
        }
    }
}
