package io.overlapanalyze.crossrank.digest;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.overlapanalyze.analysis.rank.RankAnalyzer;
import io.overlapanalyze.crossrank.CrossRankAnalyzer;
import io.overlapanalyze.crossrank.RankInput;
import io.overlapanalyze.formats.kineto.KinetoReader;
import io.overlapanalyze.model.RankTrace;
import io.overlapanalyze.pipeline.AnalysisPipeline;
import io.overlapanalyze.pipeline.PipelineInput;
import io.overlapanalyze.pipeline.PipelineResult;
import io.overlapanalyze.report.CrossRankReport;
import io.overlapanalyze.report.InputProblem;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Runs the cross-rank analysis over full inputs and over serialised digests, and compares the JSON. */
final class DigestCheck {
    /** Configured as the CLI's JSON renderer: every field, nulls included. */
    static final ObjectMapper MAPPER = new ObjectMapper()
            .enable(SerializationFeature.INDENT_OUTPUT)
            .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS)
            .setSerializationInclusion(JsonInclude.Include.ALWAYS);

    private DigestCheck() {
    }

    /** What the comparison saw: the full answer, and the digests' sizes. */
    record Outcome(CrossRankReport full, int fullIntervals, int keptIntervals, long digestBytes, int ranks) {
        long bytesPerRank() {
            return digestBytes / ranks;
        }
    }

    static String json(Object o) {
        try {
            return MAPPER.writeValueAsString(o);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    @SuppressWarnings("unchecked")
    static <T extends Serializable> T roundTrip(T o) {
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
                out.writeObject(o);
            }
            try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
                return (T) in.readObject();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Asserts that the digests after a serialisation round trip give the full inputs' cross-rank JSON. */
    static Outcome assertSameCrossRank(List<RankInput> full, List<InputProblem> problems) {
        CrossRankAnalyzer.Result expectedWithWaits = CrossRankAnalyzer.analyzeWithWaits(full, problems);
        CrossRankReport expected = expectedWithWaits.report();
        List<RankInput> digests = new ArrayList<>();
        int fullIntervals = 0;
        int kept = 0;
        long bytes = 0;
        for (RankInput in : full) {
            RankDigest d = RankDigest.of(in);
            bytes += d.serializedBytes();
            RankInput back = roundTrip(d).toInput();
            digests.add(back);
            fullIntervals += in.trace().device().size();
            kept += back.trace().device().size();
        }
        CrossRankAnalyzer.Result actualWithWaits = CrossRankAnalyzer.analyzeWithWaits(digests, problems);
        CrossRankReport actual = actualWithWaits.report();
        assertEquals(json(expected), json(actual), "cross-rank JSON from the digests");
        assertEquals(json(expectedWithWaits.waits()), json(actualWithWaits.waits()),
                "the transfer/waiting split evidence from the digests");
        return new Outcome(expected, fullIntervals, kept, bytes, full.size());
    }

    /** Every file of the job read with the Kineto reader and analysed alone, in file order. */
    static List<RankInput> readKineto(List<Path> files) throws Exception {
        List<RankInput> inputs = new ArrayList<>();
        for (Path f : files) {
            for (RankTrace t : new KinetoReader().read(f)) {
                inputs.add(new RankInput(t, RankAnalyzer.analyze(t)));
            }
        }
        return inputs;
    }

    /** The pipeline's reading of the paths (any format, rank naming as the CLI does it). */
    static PipelineResult pipeline(List<Path> paths) {
        return AnalysisPipeline.run(PipelineInput.of(paths));
    }
}
