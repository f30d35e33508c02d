package io.overlapanalyze.formats.nsys;

import io.overlapanalyze.formats.input.FormatDetector;
import io.overlapanalyze.formats.input.FormatReader;
import io.overlapanalyze.formats.input.ReadOptions;
import io.overlapanalyze.formats.input.SniffedInput;
import io.overlapanalyze.formats.input.TraceFormatException;
import io.overlapanalyze.formats.kernels.KernelClassifier;
import io.overlapanalyze.model.RankTrace;

import java.io.IOException;
import java.util.List;

/**
 * Nsight Systems' SQLite export: any SQLite database no other format claims (the reader says which
 * tables are missing when it is none), so it is a fallback.
 */
public final class NsysFormat implements FormatReader {
    @Override
    public boolean acceptsFileName(String fileName) {
        return fileName.endsWith(".sqlite");
    }

    @Override
    public String formatName() {
        return "an Nsight Systems SQLite export";
    }

    @Override
    public String inputNames() {
        return "*.sqlite";
    }

    @Override
    public boolean isFallback() {
        return true;
    }

    @Override
    public boolean recognises(SniffedInput input) {
        return input.content() == FormatDetector.Content.SQLITE;
    }

    @Override
    public List<RankTrace> read(SniffedInput input, ReadOptions options) throws TraceFormatException, IOException {
        return new NsysReader(options.stepPattern(), new KernelClassifier(options.rules()), options.limits()).read(input.path());
    }
}
