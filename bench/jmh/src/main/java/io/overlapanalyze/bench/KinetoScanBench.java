package io.overlapanalyze.bench;

import io.overlapanalyze.formats.json.Utf8JsonScanner;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.overlapanalyze.formats.kineto.KinetoReader;
import io.overlapanalyze.model.RankTrace;
import io.overlapanalyze.synth.KinetoScenarioWriter;
import io.overlapanalyze.synth.Scenario;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * JSON event scanning: {@code KinetoReader} on a 50-step trace of the benchmark scenario
 * (bench/scenarios/kineto-bench.scenario.json, ~18 MB, ~62 k events, in the page cache; under the
 * 32 MiB of the parallel chunk scan, so one thread), next to two floors: every token of the same
 * file pulled and dropped by Jackson (the floor of the reference path), and the whole document
 * skipped, validated, by the byte scanner (the floor of the fast path). Divide the file size
 * (printed at setup) by the score for MB/s.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgs = {"-Xmx1g", "-XX:+UseParallelGC"})
public class KinetoScanBench {
    private static final JsonFactory JSON = new JsonFactory();
    private Path file;

    @Setup(Level.Trial)
    public void setup() throws IOException {
        Path scenario = Path.of(System.getProperty("bench.scenario", "bench/scenarios/kineto-bench.scenario.json"));
        String text = Files.readString(scenario).replace("\"steps\": 10,", "\"steps\": 50,");
        Path tmp = Files.createTempFile("kineto-scan", ".scenario.json");
        Files.writeString(tmp, text);
        file = Files.createTempFile("kineto-scan", ".pt.trace.json");
        KinetoScenarioWriter.write(Scenario.parse(tmp), file);
        Files.delete(tmp);
        System.out.printf("%n[KinetoScanBench] %s: %.1f MB%n", file, Files.size(file) / 1e6);
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        Files.deleteIfExists(file);
    }

    @Benchmark
    public int kinetoReader() throws Exception {
        RankTrace t = new KinetoReader().read(file).get(0);
        return t.device().size();
    }

    @Benchmark
    public long byteScannerSkipOnly() throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            Utf8JsonScanner s = new Utf8JsonScanner(in);
            s.skipValue();
            return s.offset();
        }
    }

    @Benchmark
    public long jacksonTokensOnly() throws IOException {
        long n = 0;
        try (InputStream in = Files.newInputStream(file); JsonParser p = JSON.createParser(in)) {
            for (JsonToken t = p.nextToken(); t != null; t = p.nextToken()) {
                n++;
            }
        }
        return n;
    }
}
