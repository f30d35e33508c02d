package io.overlapanalyze.formats.kineto;

import io.overlapanalyze.formats.input.FormatDetector;
import io.overlapanalyze.formats.input.FormatReader;
import io.overlapanalyze.formats.input.ReadOptions;
import io.overlapanalyze.formats.input.SniffedInput;
import io.overlapanalyze.formats.input.TraceFormatException;
import io.overlapanalyze.formats.kernels.KernelClassifier;
import io.overlapanalyze.model.RankTrace;

import java.io.IOException;
import java.util.List;

/** PyTorch profiler (Kineto / Chrome trace) JSON, optionally gzip-compressed: a JSON object. */
public final class KinetoFormat implements FormatReader {
    @Override
    public boolean acceptsFileName(String fileName) {
        return fileName.endsWith(".json") || fileName.endsWith(".json.gz");
    }

    @Override
    public String formatName() {
        return "PyTorch profiler (Kineto) JSON, optionally gzip-compressed";
    }

    @Override
    public String inputNames() {
        return "*.json, *.json.gz";
    }

    @Override
    public boolean recognises(SniffedInput input) {
        return input.content() == FormatDetector.Content.JSON_OBJECT;
    }

    @Override
    public List<RankTrace> read(SniffedInput input, ReadOptions options) throws TraceFormatException, IOException {
        return new KinetoReader(new KernelClassifier(options.rules()), options.limits()).read(input.path());
    }
}
