package io.overlapanalyze.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * No command class refers to another (by import, by a static reference such as
 * {@code AnalyzeCommand.analyse}, or as a class literal): what commands share lives in mixins and
 * in the analyzer's {@code pipeline}, and only {@link Main} knows every command. A plain scan of the sources.
 */
class CommandImportsTest {
    private static final Path SOURCES = Path.of(System.getProperty("overlap.projectRoot", ".."))
            .resolve("cli/src/main/java");

    @Test
    void noCommandClassRefersToAnother() throws IOException {
        List<Path> commands;
        try (Stream<Path> files = Files.walk(SOURCES)) {
            commands = files.filter(f -> f.getFileName().toString().endsWith("Command.java")).sorted().toList();
        }
        assertTrue(commands.size() >= 7, "analyze, synth, summary, diff, gate, whatif, annotate: " + commands);
        List<String> found = new ArrayList<>();
        for (Path file : commands) {
            String self = file.getFileName().toString().replace(".java", "");
            String text = Files.readString(file);
            for (Path other : commands) {
                String name = other.getFileName().toString().replace(".java", "");
                if (!name.equals(self) && Pattern.compile("\\b" + name + "\\b").matcher(text).find()) {
                    found.add(self + " refers to " + name);
                }
            }
        }
        assertEquals(List.of(), found);
    }

    @Test
    void thePipelineIsNoCommandAndUsesNone() throws IOException {
        List<String> found = new ArrayList<>();
        Path pipeline = Path.of(System.getProperty("overlap.projectRoot", ".."))
                .resolve("analyzer/src/main/java/io/overlapanalyze/pipeline");
        try (Stream<Path> files = Files.walk(pipeline)) {
            List<Path> sources = files.filter(Files::isRegularFile).toList();
            assertTrue(sources.size() >= 3, "the pipeline's sources: " + sources);
            for (Path f : sources) {
                String text = Files.readString(f);
                if (Pattern.compile("\\b\\w+Command\\b(?!Line)").matcher(text.replace("CommandLine", "")).find()
                        || text.contains("picocli")) {
                    found.add(f.getFileName().toString());
                }
            }
        }
        assertEquals(List.of(), found, "pipeline classes must not know commands or picocli");
    }
}
