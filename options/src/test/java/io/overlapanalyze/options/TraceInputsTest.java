package io.overlapanalyze.options;

import io.overlapanalyze.formats.TraceFormats;
import io.overlapanalyze.formats.input.FormatReader;
import io.overlapanalyze.formats.input.ReadOptions;
import io.overlapanalyze.formats.input.SniffedInput;
import io.overlapanalyze.model.RankTrace;
import io.overlapanalyze.pipeline.PipelineInput;
import io.overlapanalyze.pipeline.PipelineResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A command's inputs are expanded once: the files the output-safety check protects and the files
 * the pipeline reads come from one expansion, and what that expansion walked past (a job's
 * {@code config.json}, no trace) is protected too.
 */
class TraceInputsTest {
    private static final long MS = 1_000_000L;

    @TempDir
    Path dir;

    @Command(name = "reader")
    static final class Reader {
        @Mixin TraceInputs inputs;
    }

    /**
     * Files named *.fake hold, for this test, the seed's second worked example; every time an
     * expansion walks past one it asks the readers whether they take its name, so the asks of this
     * reader, the last in the registry, count the expansions.
     */
    private record CountingReader(RankTrace seed, AtomicInteger asked) implements FormatReader {
        @Override
        public boolean acceptsFileName(String fileName) {
            if (fileName.endsWith(".fake")) {
                asked.incrementAndGet();
                return true;
            }
            return false;
        }

        @Override
        public String inputNames() {
            return "*.fake";
        }

        @Override
        public boolean recognises(SniffedInput input) {
            return input.startsWith("FAKE");
        }

        @Override
        public List<RankTrace> read(SniffedInput input, ReadOptions options) {
            return List.of(seed);
        }
    }

    private static TraceInputs parse(String... args) {
        Reader r = new Reader();
        OptionParsing.configure(new CommandLine(r)).parseArgs(args);
        return r.inputs;
    }

    private static RankTrace seed() throws Exception {
        return TraceFormats.standard().read(Path.of("..", "samples", "seed-4ms.pt.trace.json")).get(0);
    }

    @Test
    void aDirectoryIsExpandedOnceForTheOutputCheckAndTheReadTogether() throws Exception {
        Path job = Files.createDirectory(dir.resolve("job"));
        Files.writeString(job.resolve("rank3.fake"), "FAKE");
        AtomicInteger asked = new AtomicInteger();
        TraceFormats formats = TraceFormats.standard().withReader(new CountingReader(seed(), asked));
        TraceInputs inputs = parse();

        PipelineInput in = inputs.pipeline(List.of(job)).withFormats(formats);
        TraceInputs.Expanded expanded = inputs.expand(in);
        expanded.check(dir.resolve("report.txt"));
        PipelineResult result = expanded.run(null);

        assertEquals(1, asked.get(), "one walk of the directory for the check and the read together");
        assertEquals(List.of(job.resolve("rank3.fake")), expanded.files().files());
        // The seed's second worked example: three 2 ms blocks, a 4 ms all-reduce each: step 14 ms.
        assertEquals(14 * MS, result.report().ranks().get(0).steps().get(0).stepTimeNs());
    }

    @Test
    void aFileTheGlobMatchedButThatIsNoTraceIsNeverOverwritten() throws Exception {
        Path job = Files.createDirectory(dir.resolve("job"));
        Files.writeString(job.resolve("rank3.fake"), "FAKE");
        Path config = Files.writeString(job.resolve("config.json"), "{\"world_size\": 2}");
        TraceFormats formats = TraceFormats.standard().withReader(new CountingReader(seed(), new AtomicInteger()));
        TraceInputs inputs = parse();

        TraceInputs.Expanded expanded = inputs.expand(inputs.pipeline(List.of(Path.of(job + "/*"))).withFormats(formats));

        assertEquals(List.of(job.resolve("rank3.fake")), expanded.files().files(), "config.json is no trace: not read");
        assertEquals(1, expanded.files().skipped().size(), expanded.files().skipped().toString());
        UserInputException e = assertThrows(UserInputException.class, () -> expanded.check(config));
        assertTrue(e.getMessage().contains("refusing to overwrite an input file"), e.getMessage());
        expanded.check(dir.resolve("elsewhere.json"));
    }

    @Test
    void theInputOptionsAreChecked() {
        UserInputException e = assertThrows(UserInputException.class,
                () -> parse("--comm-kernel", "(unclosed").pipeline(List.of(dir)));
        assertTrue(e.getMessage().startsWith("--comm-kernel: not a valid regular expression"), e.getMessage());
        e = assertThrows(UserInputException.class, () -> parse("--include", "[").pipeline(List.of(dir)));
        assertEquals("--include: not a valid glob: [", e.getMessage());
    }
}
