package io.overlapanalyze.architecture;

import io.overlapanalyze.architecture.SourceScan.Source;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Which way the imports of the main sources run (every module's {@code src/main/java}, read as
 * text by {@link SourceScan}; package names below are relative to {@code io.overlapanalyze}):
 *
 * <ul>
 *   <li><b>Layers</b> ({@link #LAYERS}, lowest first): a package may name classes of lower layers
 *       only. Packages of one layer are peers that do not name each other (the readers, the
 *       analyses over reports), so there is no package cycle anywhere.</li>
 *   <li><b>Commands</b>: no picocli command class (annotated {@code @Command}) names another one,
 *       by import, qualified name or simple name ({@code AnalyzeCommand.analyse} counts): what two
 *       commands share belongs in a class of its own. The root command's {@code subcommands = {…}}
 *       list is how picocli is told the command tree, and is not counted.</li>
 *   <li><b>Generator</b>: the scenario generator ({@code synth}) sits above the readers and the
 *       analyses, so neither may use it; and it is a module of its own ({@code synth/}), not part of
 *       the readers' module.</li>
 *   <li><b>Shared by launchers</b>: the renderers ({@code render}, module {@code render/}) name no
 *       picocli ({@link #NO_LIBRARY}); neither {@code render/} nor {@code options/} holds a
 *       {@code cli} package, so a second launcher can depend on them without the CLI.</li>
 *   <li><b>Benchmarks</b>: no main source is in a {@code bench} package (they live in
 *       {@code bench/}, outside the product modules).</li>
 *   <li><b>Settings are values</b>: no {@code static} field that is not {@code final} in any main
 *       source (a run's settings travel in values such as {@code ReadOptions} and
 *       {@code PipelineInput}, never in process-wide state), except those in
 *       {@link #PROCESS_WIDE}, each with the reason it belongs to the process.</li>
 * </ul>
 *
 * <p>{@link #KNOWN} lists the violations the code has today, each exactly. A violation not in it
 * fails the test, and so does an entry that no longer happens: when one is fixed, its line is
 * removed, so the list only shrinks.
 */
class ArchitectureTest {
    /** Lowest first; a package names only packages of earlier entries. */
    static final List<List<String>> LAYERS = List.of(
            // The model and the primitive collections: leaves, neither names the other.
            List.of("model", "primitives"),
            // What a kernel is, for every reader.
            List.of("formats.kernels"),
            // What every reader is given and gives back: streams with limits, sniffing, the reader
            // interface, one-line errors, warnings.
            List.of("formats.input"),
            List.of("formats.json", "formats.sqlite"),
            // One package per format; a reader does not use another reader.
            List.of("formats.kineto", "formats.nsys", "formats.ascend", "formats.flightrecorder"),
            // The front door: expansion, dispatch to the readers' registry, rank naming.
            List.of("formats"),
            List.of("report"),
            List.of("analysis"),
            List.of("analysis.patterns"),
            // The single-rank orchestrator: runs the building blocks and the beyond-DDP analyses.
            List.of("analysis.rank"),
            List.of("crossrank", "compare", "whatif"),
            // One rank's input pruned to what the cross-rank analysis reads, and its wire form.
            List.of("crossrank.digest"),
            // What to change, ranked: read the reports and the cross-rank section, never a trace.
            List.of("findings"),
            // Load, analyse, cross-rank: what every command runs, and no command; a library call.
            List.of("pipeline"),
            // Above every reader and analysis: they must not depend on the generator.
            List.of("synth"),
            // The renderers (module render/): every launcher's output, so below every launcher.
            // One escaper per output kind (terminal, markdown, XML, HTML) for every name from an input.
            List.of("render.escape"),
            // The report's files (module render/, for the JSON escaper every output shares): its JSON
            // codec, summaries, this tool's other results told apart, and a diff or gate side loaded
            // from traces (through the pipeline) or summaries.
            List.of("reportfile"),
            // Human formatting of nanoseconds, bytes and rates, for every renderer and picture.
            List.of("render.units"),
            List.of("render.timeline"),
            // The job at a glance (what every human format opens with) and which ranks to detail.
            List.of("render.overview"),
            List.of("render"),
            // The HTML report.
            List.of("render.html"),
            // The option mixins every launcher that reads traces shares (module options/): they
            // name the pipeline, the readers and the renderers, never a launcher.
            List.of("options"),
            List.of("cli.annotate", "cli.compare", "cli.history", "cli.whatif"),
            // The two launchers: the CLI, and the job on Spark (module spark/), which shares the
            // options and renderers with it and never names it.
            List.of("cli", "spark"));

    /** Modules and the packages they must not hold. */
    static final Map<String, List<String>> NOT_IN_MODULE = Map.of(
            "trace-formats", List.of("synth"),
            "render", List.of("cli", "options"),
            "options", List.of("cli"),
            "spark", List.of("cli"));

    /**
     * Packages (and their subpackages) that must not name a library: the renderers are shared by
     * launchers that parse their command lines differently (or not at all), so picocli stays out.
     */
    static final Map<String, List<String>> NO_LIBRARY = Map.of("render", List.of("picocli"));

    /**
     * The {@code static} non-{@code final} fields main code may hold, each with why it is the
     * process's and no run's setting. An entry whose field is gone fails the test: remove it.
     */
    static final Map<String, String> PROCESS_WIDE = Map.of(
            "options.SafeOutput.standardOutput",
            "the process's standard output (the stream that remembers write errors), set once by cli.Main"
                    + " before any command runs; one per process, as System.out is",
            "formats.sqlite.NativeLibraryHome.done",
            "sqlite-jdbc loads its native library once per JVM, from the directory set before the first load",
            "formats.input.Temporaries.hookAdded",
            "the shutdown hook that deletes temporary files belongs to the process; added once",
            "formats.input.Temporaries.shuttingDown",
            "set by that shutdown hook, so that nothing is created once it has swept");

    /** The violations of today, exactly; remove a line when it is fixed. */
    static final Set<String> KNOWN = Set.of();

    private static List<Source> sources;

    @BeforeAll
    static void scan() {
        Path root = Path.of(System.getProperty("overlap.projectRoot", "..")).toAbsolutePath().normalize();
        assertTrue(Files.isRegularFile(root.resolve("pom.xml")), "project root not found: " + root);
        sources = SourceScan.mainSources(root);
        assertTrue(sources.size() > 100, "too few sources found under " + root + ": " + sources.size());
    }

    @Test
    void everyPackageHasItsPlaceInTheLayers() {
        Set<String> unplaced = new TreeSet<>();
        Map<String, Integer> rank = ranks();
        for (Source s : sources) {
            if (!rank.containsKey(s.pkg())) {
                unplaced.add(s.pkg() + " (" + s.name() + ")");
            }
        }
        assertEquals(Set.of(), unplaced, "packages missing from ArchitectureTest.LAYERS: add each where it belongs");
    }

    @Test
    void theViolationsAreExactlyTheKnownOnes() {
        Set<String> found = violations(sources);
        Set<String> fresh = new TreeSet<>(found);
        fresh.removeAll(KNOWN);
        Set<String> gone = new TreeSet<>(KNOWN);
        gone.removeAll(found);
        if (!fresh.isEmpty() || !gone.isEmpty()) {
            fail("architecture rules (see ArchitectureTest's class comment)"
                    + (fresh.isEmpty() ? "" : "\nnew violations:\n  " + String.join("\n  ", fresh))
                    + (gone.isEmpty() ? "" : "\nfixed, remove from KNOWN:\n  " + String.join("\n  ", gone)));
        }
    }

    /** Every rule's violations as one line each: {@code "from -> to"} or a module/package finding. */
    static Set<String> violations(List<Source> sources) {
        Map<String, Integer> rank = ranks();
        Set<String> out = new TreeSet<>();
        for (Source s : sources) {
            Integer from = rank.get(s.pkg());
            for (String ref : SourceScan.references(s)) {
                Integer to = rank.get(SourceScan.packageOf(ref));
                // Unplaced packages are reported by everyPackageHasItsPlaceInTheLayers.
                if (from != null && to != null && to >= from) {
                    out.add(s.name() + " -> " + ref);
                }
            }
            for (String segment : s.pkg().split("\\.")) {
                if (segment.equals("bench")) {
                    out.add(s.module() + " holds a benchmark: " + s.name());
                }
            }
            for (Map.Entry<String, List<String>> e : NO_LIBRARY.entrySet()) {
                if (s.pkg().equals(e.getKey()) || s.pkg().startsWith(e.getKey() + ".")) {
                    for (String library : e.getValue()) {
                        Pattern named = Pattern.compile("(?<![\\w$.])" + Pattern.quote(library) + "\\s*\\.");
                        if (named.matcher(s.code()).find()) {
                            out.add(s.name() + " -> " + library);
                        }
                    }
                }
            }
            for (String banned : NOT_IN_MODULE.getOrDefault(s.module(), List.of())) {
                if (s.pkg().equals(banned) || s.pkg().startsWith(banned + ".")) {
                    out.add(s.module() + " holds package " + banned);
                }
            }
        }
        out.addAll(commandReferences(sources));
        return out;
    }

    @Test
    void noStaticMutableFieldOutsideTheProcessWideList() {
        for (Map.Entry<String, String> e : PROCESS_WIDE.entrySet()) {
            assertTrue(!e.getValue().isBlank(), e.getKey() + ": an allowed static field needs its reason");
        }
        Set<String> found = staticNonFinalFields(sources);
        Set<String> fresh = new TreeSet<>(found);
        fresh.removeAll(PROCESS_WIDE.keySet());
        Set<String> gone = new TreeSet<>(PROCESS_WIDE.keySet());
        gone.removeAll(found);
        if (!fresh.isEmpty() || !gone.isEmpty()) {
            fail("static fields that are not final hold process-wide state: pass a value instead (ReadOptions, "
                    + "PipelineInput), or add the field to PROCESS_WIDE with why it is the process's"
                    + (fresh.isEmpty() ? "" : "\nnot allowed:\n  " + String.join("\n  ", fresh))
                    + (gone.isEmpty() ? "" : "\ngone, remove from PROCESS_WIDE:\n  " + String.join("\n  ", gone)));
        }
    }

    /** Every main source's static non-final fields, as {@code pkg.Class.field}. */
    static Set<String> staticNonFinalFields(List<Source> sources) {
        Set<String> out = new TreeSet<>();
        for (Source s : sources) {
            out.addAll(SourceScan.staticNonFinalFields(s));
        }
        return out;
    }

    @Test
    void aRendererThatNamesPicocliIsAViolation() {
        Source bad = SourceScan.parse("render", "Bad.java",
                "package io.overlapanalyze.render.html;\nimport picocli.CommandLine;\nclass Bad {}\n");
        Source fine = SourceScan.parse("options", "Fine.java",
                "package io.overlapanalyze.options;\nimport picocli.CommandLine.Option;\nclass Fine {}\n");
        assertEquals(Set.of("render.html.Bad -> picocli"), violations(List.of(bad, fine)));
    }

    @Test
    void aCliPackageInTheSharedModulesIsAViolation() {
        Source inRender = SourceScan.parse("render", "A.java", "package io.overlapanalyze.cli.render;\nclass A {}\n");
        Source inOptions = SourceScan.parse("options", "B.java", "package io.overlapanalyze.cli;\nclass B {}\n");
        assertEquals(Set.of("render holds package cli", "options holds package cli"),
                violations(List.of(inRender, inOptions)));
    }

    private static final Pattern COMMAND_ANNOTATION = Pattern.compile("@\\s*(?:CommandLine\\s*\\.\\s*)?Command\\b(?!\\w)");
    private static final Pattern SUBCOMMANDS = Pattern.compile("\\bsubcommands\\s*=\\s*\\{[^}]*}");

    static Set<String> commandReferences(List<Source> sources) {
        List<Source> commands = new ArrayList<>();
        for (Source s : sources) {
            if (COMMAND_ANNOTATION.matcher(s.code()).find()) {
                commands.add(s);
            }
        }
        Set<String> out = new TreeSet<>();
        for (Source c : commands) {
            String code = SUBCOMMANDS.matcher(c.code()).replaceAll("subcommands = {}");
            for (Source other : commands) {
                if (other != c && SourceScan.mentions(code, other.cls())) {
                    out.add("command " + c.name() + " -> " + other.name());
                }
            }
        }
        return out;
    }

    private static Map<String, Integer> ranks() {
        Map<String, Integer> rank = new HashMap<>();
        for (int i = 0; i < LAYERS.size(); i++) {
            for (String p : LAYERS.get(i)) {
                rank.put(p, i);
            }
        }
        return rank;
    }
}
