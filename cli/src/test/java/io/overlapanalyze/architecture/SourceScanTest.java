package io.overlapanalyze.architecture;

import io.overlapanalyze.architecture.SourceScan.Source;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The scanner and the rules on sources written here, so that each kind of violation is seen to be found. */
class SourceScanTest {
    private static Source source(String module, String pkg, String cls, String body) {
        return SourceScan.parse(module, cls + ".java", "package io.overlapanalyze." + pkg + ";\n" + body);
    }

    @Test
    void importsStaticImportsQualifiedNamesAndWildcardsAreReferences() {
        Source s = source("analyzer", "analysis", "A", """
                import io.overlapanalyze.model.RankTrace;
                import static io.overlapanalyze.report.StepReport.of;
                import io.overlapanalyze.crossrank.*;
                import java.util.List;
                class A {
                    Object x = new io.overlapanalyze.formats.nsys.NsysReader();
                    Object y = io.overlapanalyze.primitives.LongIntMap.MISSING;
                    io.overlapanalyze.analysis.Same same;
                }
                """);
        assertEquals(Set.of("model.RankTrace", "report.StepReport", "crossrank.*", "formats.nsys.NsysReader",
                "primitives.LongIntMap"), SourceScan.references(s));
    }

    @Test
    void commentsAndLiteralsAreNotReferences() {
        Source s = source("analyzer", "analysis", "A", """
                /** See {@link io.overlapanalyze.synth.Scenario}. */
                class A {
                    // io.overlapanalyze.cli.Main
                    String a = "io.overlapanalyze.cli.Main";
                    String b = \"""
                            io.overlapanalyze.synth.Job
                            \""";
                    char c = '"';
                    String d = "a \\" io.overlapanalyze.synth.Job";
                }
                """);
        assertEquals(Set.of(), SourceScan.references(s));
    }

    @Test
    void anImportUpTheLayersIsAViolationAndOneDownIsNot() {
        Source up = source("trace-formats", "formats.kineto", "Reader", "import io.overlapanalyze.analysis.IntervalSet;\nclass Reader {}");
        Source peer = source("trace-formats", "formats.nsys", "Other", "import io.overlapanalyze.formats.ascend.X;\nclass Other {}");
        Source down = source("analyzer", "analysis", "Fine", "import io.overlapanalyze.model.RankTrace;\nclass Fine {}");
        Source generator = source("trace-formats", "model", "Uses", "class Uses { io.overlapanalyze.synth.Scenario s; }");
        assertEquals(Set.of("formats.kineto.Reader -> analysis.IntervalSet", "formats.nsys.Other -> formats.ascend.X",
                        "model.Uses -> synth.Scenario"),
                ArchitectureTest.violations(List.of(up, peer, down, generator)));
    }

    @Test
    void commandsNamingEachOtherAreViolationsExceptTheSubcommandList() {
        Source root = source("cli", "cli", "RootCommand", """
                @Command(name = "x", subcommands = {OneCommand.class, TwoCommand.class})
                class RootCommand {}
                """);
        Source one = source("cli", "cli", "OneCommand", """
                @CommandLine.Command(name = "one")
                class OneCommand { void run() { RootCommand.analyse(); } }
                """);
        Source two = source("cli", "cli", "TwoCommand", """
                @Command(name = "two")
                class TwoCommand { String s = "OneCommand"; } // OneCommand in a comment
                """);
        Source helper = source("cli", "cli", "Helper", "class Helper { OneCommand c; }");
        assertEquals(Set.of("command cli.OneCommand -> cli.RootCommand"),
                ArchitectureTest.commandReferences(List.of(root, one, two, helper)));
    }

    @Test
    void benchmarksAndTheGeneratorInTheReadersModuleAreViolations() {
        Source bench = source("cli", "cli.bench", "ReadBenchmark", "class ReadBenchmark {}");
        Source synth = source("trace-formats", "synth", "Scenario", "class Scenario {}");
        Source synthElsewhere = source("synth", "synth", "Job", "class Job {}");
        Set<String> v = ArchitectureTest.violations(List.of(bench, synth, synthElsewhere));
        assertEquals(Set.of("cli holds a benchmark: cli.bench.ReadBenchmark", "trace-formats holds package synth"), v);
    }

    @Test
    void mentionsMatchesWholeIdentifiersOnly() {
        assertTrue(SourceScan.mentions("x = AnalyzeCommand.analyse();", "AnalyzeCommand"));
        assertFalse(SourceScan.mentions("x = MyAnalyzeCommand2.analyse();", "AnalyzeCommand"));
        assertFalse(SourceScan.mentions("x = AnalyzeCommand$1;", "AnalyzeCommand"));
    }

    @Test
    void aStaticFieldThatIsNotFinalIsFoundAndOnlyThat() {
        Source s = source("trace-formats", "formats.kernels", "Rules", """
                import static io.overlapanalyze.model.DeviceKind.COMPUTE;
                public final class Rules {
                    private static volatile Rules current = null;
                    @Deprecated static int calls;
                    static java.util.Map<String, java.util.List<Integer>> byName = new java.util.HashMap<>();
                    private static final Rules BUILT_IN = new Rules();
                    final static int ALSO_FINAL = 1;
                    private int perInstance;
                    static { System.out.println("static init"); }
                    static Rules current() { int local = 0; return current; }
                    static class Nested { private static String inNested; }
                    String text = "static int notAField;";
                    // static int inAComment;
                }
                """);
        assertEquals(Set.of("formats.kernels.Rules.current", "formats.kernels.Rules.calls",
                "formats.kernels.Rules.byName", "formats.kernels.Rules.inNested"), SourceScan.staticNonFinalFields(s));
    }

    @Test
    void theRuleFailsOnAStaticFieldOutsideTheAllowList() {
        Source bad = source("options", "options", "Settings", "class Settings { static String current; }");
        Source allowed = source("options", "options", "SafeOutput",
                "class SafeOutput { private static volatile java.io.OutputStream standardOutput; }");
        java.util.Set<String> found = ArchitectureTest.staticNonFinalFields(List.of(bad, allowed));
        found.removeAll(ArchitectureTest.PROCESS_WIDE.keySet());
        assertEquals(Set.of("options.Settings.current"), found);
    }
}
