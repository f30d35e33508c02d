package io.overlapanalyze.cli.reliability;

import io.overlapanalyze.cli.ExitCodes;
import io.overlapanalyze.synth.KinetoScenarioWriter;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.BiFunction;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * No command ever changes a byte of its input tree. For every command that writes (analyse
 * {@code -o}, {@code -f json -o} and {@code --html}, {@code summary -o}, {@code annotate -o},
 * {@code whatif -o}, {@code diff -o}, {@code gate --json/--junit/--markdown}) and for every file
 * of the input tree (a copy of each shared Ascend capture: timelines, profiler_info, CSVs,
 * databases; a Kineto trace given as a file), plus a new file inside a capture, a path through a
 * symbolic link into the capture and a hard link to an input outside it: exit 2 with one line, and
 * the whole tree (every path, type, link target and SHA-256) is what it was. A write outside the
 * tree succeeds, so the refusals are not some other failure.
 */
class InputTreeSafetyTest {
    @TempDir
    Path tmp;

    /** A writing command: its arguments given the input and the output file. */
    private record Writer(String name, BiFunction<Path, Path, String[]> args) {
    }

    private static final List<Writer> WRITERS = List.of(
            new Writer("analyse -o", (in, out) -> a(in, "-o", out)),
            new Writer("analyse -f json -o", (in, out) -> a("-f", "json", in, "-o", out)),
            new Writer("analyse --html", (in, out) -> a(in, "--html", out)),
            new Writer("summary -o", (in, out) -> a("summary", in, "-o", out)),
            new Writer("annotate -o", (in, out) -> a("annotate", in, "-o", out)),
            new Writer("whatif -o", (in, out) -> a("whatif", in, "-o", out)),
            new Writer("diff -o", (in, out) -> a("diff", in, in, "-o", out)),
            new Writer("gate --json", (in, out) -> a("gate", "--baseline", in, in, "--json", out)),
            new Writer("gate --junit", (in, out) -> a("gate", "--baseline", in, in, "--junit", out)),
            new Writer("gate --markdown", (in, out) -> a("gate", "--baseline", in, in, "--markdown", out)));

    private static String[] a(Object... parts) {
        return Arrays.stream(parts).map(Object::toString).toArray(String[]::new);
    }

    private static Path shared() {
        String prop = System.getProperty("overlap.sharedTraces");
        return prop != null ? Path.of(prop) : Path.of("..", "..", "shared", "traces");
    }

    @TestFactory
    Stream<DynamicTest> ascendCaptures() throws IOException {
        Path ascend = shared().resolve("ascend");
        Assumptions.assumeTrue(Files.isDirectory(ascend), "shared Ascend captures not found at "
                + ascend.toAbsolutePath().normalize() + ": skipping the capture part (the Kineto part still runs)");
        List<DynamicTest> tests = new ArrayList<>();
        try (Stream<Path> s = Files.list(ascend)) {
            for (Path capture : s.filter(Files::isDirectory).sorted().toList()) {
                Path rank0 = capture.resolve("rank0_ascend_pt");
                if (Files.isDirectory(rank0)) {
                    tests.add(DynamicTest.dynamicTest(capture.getFileName().toString(), () -> {
                        Path copy = tmp.resolve(capture.getFileName().toString());
                        copyTree(rank0, copy.resolve("rank0_ascend_pt"));
                        checkTree(copy, copy.resolve("rank0_ascend_pt"),
                                copy.resolve("rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/new-report.json"),
                                "ASCEND_PROFILER_OUTPUT");
                    }));
                }
            }
        }
        Assumptions.assumeFalse(tests.isEmpty(), "no shared Ascend capture with a rank0_ascend_pt");
        return tests.stream();
    }

    @Test
    void kinetoFile() throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("kineto"));
        Path trace = dir.resolve("rank0.pt.trace.json");
        KinetoScenarioWriter.write(HostileCorpus.scenario(), trace);
        // The input is the file: a new file next to it is allowed (checked by the control run).
        checkTree(dir, trace, null, null);
    }

    /**
     * @param tree     the whole input tree, hashed before and after
     * @param input    what the commands are given
     * @param newFile  a file that does not exist inside the input directory, or {@code null}
     * @param linkInto a sub-directory of {@code input} reached through a symbolic link, or {@code null}
     */
    private void checkTree(Path tree, Path input, Path newFile, String linkInto) throws IOException {
        Path outside = Files.createDirectories(tmp.resolve("outside-" + tree.getFileName()));
        List<Path> targets = new ArrayList<>(regularFiles(tree));
        if (newFile != null) {
            targets.add(newFile);
        }
        Path someInput = targets.stream().filter(p -> p.getFileName().toString().endsWith(".json")
                || p.getFileName().toString().endsWith(".db")).findFirst().orElseThrow();
        Path hardLink = Files.createLink(outside.resolve("hard-link-to-" + someInput.getFileName()), someInput);
        targets.add(hardLink);
        if (linkInto != null) {
            Path link = Files.createSymbolicLink(outside.resolve("link-into-capture"), input.resolve(linkInto));
            try (Stream<Path> s = Files.list(input.resolve(linkInto))) {
                s.filter(Files::isRegularFile).sorted().limit(3).forEach(p -> targets.add(link.resolve(p.getFileName())));
            }
            targets.add(link.resolve("another-new-file.json"));
        }
        Map<String, String> before = hashTree(tree);
        Map<String, String> outsideBefore = hashTree(outside);
        for (Writer w : WRITERS) {
            for (Path target : targets) {
                String what = w.name() + " -> " + tree.relativize(target.normalize()).toString().replace("../", "");
                Cli run = Cli.run(w.args().apply(input, target));
                run.assertOneLineError(target, what);
                assertTrue(run.err().contains("input"), what + ": says why: " + run.err());
            }
            assertEquals(before, hashTree(tree), w.name() + ": the input tree changed");
            assertEquals(outsideBefore, hashTree(outside), w.name() + ": the hard or symbolic link changed");
        }
        // Control: the same commands write outside the tree.
        for (Writer w : WRITERS) {
            Path target = tmp.resolve("elsewhere-" + w.name().replaceAll("[^a-z]+", "_") + ".out");
            Cli ok = Cli.run(w.args().apply(input, target));
            ok.assertNoCrash(w.name());
            assertTrue(ok.exitCode() == ExitCodes.OK || (w.name().startsWith("gate") && ok.exitCode() == ExitCodes.REGRESSION),
                    w.name() + " outside the tree: exit " + ok.exitCode() + ": " + ok.err());
            assertTrue(Files.size(target) > 0, w.name() + ": wrote the output");
        }
        if (newFile == null) {
            Path beside = input.resolveSibling("report-next-to-the-input.txt");
            Cli ok = Cli.run(input.toString(), "-o", beside.toString());
            assertEquals(ExitCodes.OK, ok.exitCode(), "a new file next to an input file is not an input: " + ok.err());
            Files.delete(beside);
        }
        assertEquals(before, hashTree(tree), "the input tree changed by a normal run");
    }

    private static List<Path> regularFiles(Path tree) throws IOException {
        try (Stream<Path> s = Files.walk(tree)) {
            return s.filter(p -> Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)).sorted().toList();
        }
    }

    /** Every path below {@code tree} with its type and content hash (files) or target (links). */
    static Map<String, String> hashTree(Path tree) throws IOException {
        Map<String, String> out = new TreeMap<>();
        try (Stream<Path> s = Files.walk(tree)) {
            for (Path p : s.toList()) {
                String rel = tree.relativize(p).toString();
                if (Files.isSymbolicLink(p)) {
                    out.put(rel, "link " + Files.readSymbolicLink(p));
                } else if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
                    out.put(rel, "dir");
                } else if (Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) {
                    out.put(rel, "file " + Files.size(p) + " " + sha256(p));
                } else {
                    out.put(rel, "special");
                }
            }
        }
        return out;
    }

    private static String sha256(Path p) throws IOException {
        try (InputStream in = Files.newInputStream(p)) {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            byte[] buf = new byte[1 << 16];
            for (int n; (n = in.read(buf)) > 0; ) {
                md.update(buf, 0, n);
            }
            return HexFormat.of().formatHex(md.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new AssertionError(e);
        }
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> s = Files.walk(from)) {
            for (Path p : s.toList()) {
                Path dest = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(dest);
                } else {
                    Files.copy(p, dest, StandardCopyOption.COPY_ATTRIBUTES);
                }
            }
        }
    }
}
