package io.overlapanalyze.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.overlapanalyze.formats.TraceFormats;
import io.overlapanalyze.formats.input.FormatReader;
import io.overlapanalyze.formats.input.ReadOptions;
import io.overlapanalyze.formats.input.SniffedInput;
import io.overlapanalyze.model.RankTrace;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A library caller's own format goes through the whole pipeline: the readers of
 * {@link PipelineInput#formats()} find, read and name its files, and the analysis is the usual one.
 */
class PipelineFormatsTest {
    private static final long MS = 1_000_000L;

    @TempDir
    Path dir;

    /** Files that start with "FAKE" hold, for this test, the seed's second worked example. */
    private record SeedInDisguise(RankTrace seed) implements FormatReader {
        @Override
        public boolean acceptsFileName(String fileName) {
            return fileName.endsWith(".fake");
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

    @Test
    void aCallersOwnReaderFeedsThePipeline() throws Exception {
        RankTrace seed = TraceFormats.standard().read(Path.of("..", "samples", "seed-4ms.pt.trace.json")).get(0);
        Path job = Files.createDirectory(dir.resolve("job"));
        Files.writeString(job.resolve("rank3.fake"), "FAKE");

        PipelineInput in = PipelineInput.of(List.of(job));
        assertThrows(PipelineInputException.class, () -> AnalysisPipeline.run(in),
                "the standard readers find no trace in the directory");

        PipelineResult r = AnalysisPipeline.run(in.withFormats(TraceFormats.standard().withReader(new SeedInDisguise(seed))));
        assertEquals(1, r.report().ranks().size());
        assertEquals(0, r.report().ranks().get(0).rank(), "the trace's own rank metadata wins over the file name");
        // The seed's second worked example: three 2 ms blocks, a 4 ms all-reduce each: step 14 ms, tail 8 ms.
        assertEquals(14 * MS, r.report().ranks().get(0).steps().get(0).stepTimeNs());
        assertEquals(8 * MS, r.report().ranks().get(0).steps().get(0).tailNs());
    }
}
