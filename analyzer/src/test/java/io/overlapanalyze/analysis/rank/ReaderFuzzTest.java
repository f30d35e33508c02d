package io.overlapanalyze.analysis.rank;

import io.overlapanalyze.formats.TraceFormats;
import io.overlapanalyze.analysis.AnalysisOptions;
import io.overlapanalyze.model.RankTrace;
import io.overlapanalyze.formats.input.TraceFormatException;
import io.overlapanalyze.synth.AscendScenarioWriter;
import io.overlapanalyze.synth.BuiltinScenarios;
import io.overlapanalyze.synth.KinetoScenarioWriter;
import io.overlapanalyze.synth.NsysScenarioWriter;
import io.overlapanalyze.synth.Scenario;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.zip.GZIPOutputStream;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * Seeded mutation fuzzing of every reader, followed by the analysis. Valid traces from
 * the scenario generator (Kineto JSON, Kineto gzip, Ascend {@code trace_view.json}, Nsight SQLite)
 * are mutated (bit flips, deleted/duplicated/inserted bytes, numbers and strings replaced by hostile
 * values, cuts; for SQLite also corrupt or cut pages and random SQL updates of the columns the reader
 * uses) and read through the front door ({@link TraceFormats#read(Path)}) then analysed with
 * {@link RankAnalyzer}. The only acceptable failure is a {@link TraceFormatException} (one line for
 * the user: the launchers print its message and exit 2); any other
 * exception, or a read taking more than 20 s, is a finding: the input is saved under
 * {@code target/fuzz-findings/} and the test fails with the seed that reproduces it.
 *
 * <p>Bounded in the normal suite ({@code overlap.fuzz.iterations}, default 150 per seed kind); the
 * {@code -Pfuzz} profile runs each kind for {@code overlap.fuzz.seconds} instead. The master seed is
 * {@code overlap.fuzz.seed}; case {@code i} of kind {@code k} uses {@code seed ^ hash(k) + i}.
 */
class ReaderFuzzTest {
    private static final long SEED = Long.getLong("overlap.fuzz.seed", 20240909L);
    private static final int ITERATIONS = Integer.getInteger("overlap.fuzz.iterations", 150);
    private static final long SECONDS = Long.getLong("overlap.fuzz.seconds", 0);
    private static final long HANG_SECONDS = 20;

    @TempDir
    static Path work;

    private static ExecutorService executor;
    private static final Map<String, Integer> OUTCOMES = new LinkedHashMap<>();

    @BeforeAll
    static void start() {
        executor = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "fuzz-target");
            t.setDaemon(true);
            return t;
        });
    }

    @AfterAll
    static void stop() {
        executor.shutdownNow();
        System.out.println("fuzz outcomes (seed " + SEED + "): " + OUTCOMES);
    }

    @Test
    void kinetoJson() throws Exception {
        byte[] seed = Seeds.kineto();
        fuzz("kineto", r -> write("kineto.json", JsonMutator.mutate(seed, r)));
    }

    @Test
    void kinetoGzip() throws Exception {
        byte[] seed = Seeds.kineto();
        fuzz("kineto-gz", r -> {
            byte[] gz = Seeds.gzip(JsonMutator.mutate(seed, r));
            if (r.nextInt(4) == 0) {
                gz = JsonMutator.bytes(gz, r); // damage the compressed stream itself
            }
            return write("kineto.json.gz", gz);
        });
    }

    @Test
    void ascendTimeline() throws Exception {
        byte[] seed = Seeds.ascend();
        fuzz("ascend", r -> write("trace_view.json", JsonMutator.mutate(seed, r)));
    }

    @Test
    void nsysSqlite() throws Exception {
        Path seed = Seeds.nsys(work.resolve("nsys-seed.sqlite"));
        byte[] bytes = Files.readAllBytes(seed);
        fuzz("nsys", r -> {
            Path p = work.resolve("nsys.sqlite");
            Files.deleteIfExists(p);
            if (r.nextBoolean()) {
                Files.write(p, SqliteMutator.pages(bytes, r));
            } else {
                Files.copy(seed, p);
                SqliteMutator.sql(p, r);
            }
            return p;
        });
    }

    private interface Input {
        Path make(SplittableRandom r) throws Exception;
    }

    private static Path write(String name, byte[] bytes) throws IOException {
        return Files.write(work.resolve(name), bytes);
    }

    private static void fuzz(String kind, Input input) throws Exception {
        long deadline = SECONDS > 0 ? System.nanoTime() + SECONDS * 1_000_000_000L : Long.MAX_VALUE;
        List<String> findings = new ArrayList<>();
        int n = 0;
        for (long i = 0; SECONDS > 0 ? System.nanoTime() < deadline : i < ITERATIONS; i++, n++) {
            long caseSeed = (SEED ^ kind.hashCode()) + i;
            Path file = input.make(new SplittableRandom(caseSeed));
            String finding = runOne(file);
            OUTCOMES.merge(kind + ":" + (finding == null ? lastOutcome : "FINDING"), 1, Integer::sum);
            if (finding != null) {
                Path saved = save(kind, caseSeed, file);
                findings.add(kind + " case " + i + " (seed " + caseSeed + ", saved as " + saved + "): " + finding);
                if (findings.size() >= 10) {
                    break;
                }
            }
        }
        if (!findings.isEmpty()) {
            fail(findings.size() + " finding(s) in " + n + " " + kind + " inputs:\n" + String.join("\n", findings));
        }
    }

    private static String lastOutcome;

    /** Null when the input was read and analysed, or refused with one line; else what went wrong. */
    private static String runOne(Path file) throws InterruptedException {
        Future<String> f = executor.submit(() -> {
            List<RankTrace> traces;
            try {
                traces = TraceFormats.standard().read(file);
            } catch (TraceFormatException e) {
                if (e.getMessage() == null || e.getMessage().contains("\n") || !e.getMessage().contains(file.toString())) {
                    return "error message is not one line naming the file: " + e.getMessage();
                }
                lastOutcome = "refused";
                return null;
            }
            for (RankTrace t : traces) {
                RankAnalyzer.analyze(t, AnalysisOptions.defaults());
            }
            lastOutcome = traces.stream().anyMatch(RankTrace::truncated) ? "partial" : "analysed";
            return null;
        });
        try {
            return f.get(HANG_SECONDS, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            f.cancel(true);
            executor.shutdownNow();
            start();
            return "no result after " + HANG_SECONDS + " s (hang?)";
        } catch (java.util.concurrent.ExecutionException e) {
            StringWriter sw = new StringWriter();
            e.getCause().printStackTrace(new PrintWriter(sw));
            String[] lines = sw.toString().split("\n");
            return String.join("\n    ", Arrays.copyOf(lines, Math.min(lines.length, 8)));
        }
    }

    private static Path save(String kind, long seed, Path file) throws IOException {
        Path dir = Path.of("target", "fuzz-findings");
        Files.createDirectories(dir);
        Path to = dir.resolve(kind + "-" + seed + "-" + file.getFileName());
        if (Files.isRegularFile(file)) {
            Files.copy(file, to, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        }
        return to.toAbsolutePath();
    }

    /** The valid traces every mutation starts from: one scenario written in each format by the generator. */
    static final class Seeds {
        private Seeds() {
        }

        private static Scenario scenario() {
            return BuiltinScenarios.get("seed-1ms-optimizer");
        }

        /** A valid Kineto trace (66 events, about 20 kB). */
        static byte[] kineto() {
            try {
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                KinetoScenarioWriter.write(scenario(), out, "seed.pt.trace.json");
                return out.toByteArray();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        /** A valid Ascend {@code trace_view.json}. */
        static byte[] ascend() {
            try {
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                AscendScenarioWriter.writeTimeline(scenario(), AscendScenarioWriter.plan(scenario()), out);
                return out.toByteArray();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        /** A valid Nsight SQLite export, written to {@code file}. */
        static Path nsys(Path file) throws IOException {
            NsysScenarioWriter.write(scenario(), file);
            return file;
        }

        static byte[] gzip(byte[] data) throws IOException {
            ByteArrayOutputStream bos = new ByteArrayOutputStream();
            try (OutputStream gz = new GZIPOutputStream(bos)) {
                gz.write(data);
            }
            return bos.toByteArray();
        }
    }

    /** Mutations of JSON text: structural, lexical and semantic. */
    static final class JsonMutator {
        /** Values of the wrong type or range for any field: JSON text, some of it not strict JSON. */
        private static final String[] HOSTILE = {"\"x\"", "\"\"", "null", "[1,2]", "{\"a\":1}", "true", "-1", "0",
                "1e400", "123456789012345678901234567890", "-99999999999999999999999", "NaN", "-Infinity", "1.5e-9",
                "\"1e3\"", "\"a\\u0000b\u0001\""};

        static byte[] mutate(byte[] seed, SplittableRandom r) {
            byte[] b = seed;
            int rounds = 1 + r.nextInt(4);
            for (int k = 0; k < rounds; k++) {
                b = switch (r.nextInt(8)) {
                    case 0, 1 -> replaceValue(b, r);
                    case 2 -> bytes(b, r);
                    case 3 -> deleteRange(b, r);
                    case 4 -> duplicateRange(b, r);
                    case 5 -> insert(b, r, new byte[][] {{'{'}, {'}'}, {'['}, {']'}, {','}, {':'}, {'"'},
                        {(byte) 0xff}, {(byte) 0xc3}, {0}, "{}".getBytes(StandardCharsets.US_ASCII),
                        ",{}".getBytes(StandardCharsets.US_ASCII)});
                    case 6 -> Arrays.copyOf(b, r.nextInt(1, b.length + 1)); // cut
                    default -> replaceValue(b, r);
                };
            }
            return b;
        }

        /** A number or a string value (after a colon) replaced by a hostile JSON value. */
        static byte[] replaceValue(byte[] b, SplittableRandom r) {
            for (int attempt = 0; attempt < 20; attempt++) {
                int colon = indexOf(b, (byte) ':', r.nextInt(b.length));
                if (colon < 0) {
                    continue;
                }
                int start = colon + 1;
                while (start < b.length && b[start] == ' ') {
                    start++;
                }
                int end = start;
                if (end < b.length && b[end] == '"') {
                    end++;
                    while (end < b.length && b[end] != '"') {
                        end++;
                    }
                    end = Math.min(b.length, end + 1);
                } else {
                    while (end < b.length && b[end] != ',' && b[end] != '}' && b[end] != ']') {
                        end++;
                    }
                }
                if (end <= start) {
                    continue;
                }
                byte[] with = HOSTILE[r.nextInt(HOSTILE.length)].getBytes(StandardCharsets.UTF_8);
                return splice(b, start, end, with);
            }
            return b;
        }

        static byte[] bytes(byte[] b, SplittableRandom r) {
            byte[] out = b.clone();
            int n = 1 + r.nextInt(8);
            for (int k = 0; k < n && out.length > 0; k++) {
                out[r.nextInt(out.length)] ^= (byte) (1 << r.nextInt(8));
            }
            return out;
        }

        static byte[] deleteRange(byte[] b, SplittableRandom r) {
            if (b.length < 2) {
                return b;
            }
            int s = r.nextInt(b.length - 1);
            int e = Math.min(b.length, s + 1 + r.nextInt(64));
            return splice(b, s, e, new byte[0]);
        }

        static byte[] duplicateRange(byte[] b, SplittableRandom r) {
            if (b.length < 2) {
                return b;
            }
            int s = r.nextInt(b.length - 1);
            int e = Math.min(b.length, s + 1 + r.nextInt(512));
            return splice(b, e, e, Arrays.copyOfRange(b, s, e));
        }

        static byte[] insert(byte[] b, SplittableRandom r, byte[][] choices) {
            int at = r.nextInt(b.length + 1);
            return splice(b, at, at, choices[r.nextInt(choices.length)]);
        }

        static byte[] splice(byte[] b, int s, int e, byte[] with) {
            byte[] out = new byte[b.length - (e - s) + with.length];
            System.arraycopy(b, 0, out, 0, s);
            System.arraycopy(with, 0, out, s, with.length);
            System.arraycopy(b, e, out, s + with.length, b.length - e);
            return out;
        }

        private static int indexOf(byte[] b, byte c, int from) {
            for (int i = from; i < b.length; i++) {
                if (b[i] == c) {
                    return i;
                }
            }
            return -1;
        }
    }

    /** Mutations of an SQLite export: damaged pages, or valid SQLite with unsound content. */
    static final class SqliteMutator {
        static byte[] pages(byte[] db, SplittableRandom r) {
            int page = ((db[16] & 0xff) << 8) | (db[17] & 0xff);
            page = page == 1 ? 65_536 : page;
            int pages = db.length / page;
            byte[] out = db.clone();
            switch (r.nextInt(4)) {
                case 0 -> { // a few random bytes in one page (not the header page, most of the time)
                    int p = r.nextInt(10) == 0 ? 0 : r.nextInt(1, Math.max(2, pages));
                    for (int k = 0; k < 1 + r.nextInt(32); k++) {
                        out[Math.min(out.length - 1, p * page + r.nextInt(page))] = (byte) r.nextInt(256);
                    }
                }
                case 1 -> { // a page of noise
                    int p = r.nextInt(1, Math.max(2, pages));
                    byte[] noise = new byte[page];
                    r.nextBytes(noise);
                    System.arraycopy(noise, 0, out, Math.min(p * page, out.length - page), page);
                }
                case 2 -> out = Arrays.copyOf(db, page * r.nextInt(1, Math.max(2, pages))); // cut at a page boundary
                default -> out = Arrays.copyOf(db, r.nextInt(100, db.length)); // cut anywhere
            }
            return out;
        }

        private static final String[][] COLUMNS = {
            {"CUPTI_ACTIVITY_KIND_KERNEL", "start", "end", "deviceId", "streamId", "correlationId", "globalPid",
                "demangledName", "shortName", "contextId"},
            {"CUPTI_ACTIVITY_KIND_RUNTIME", "start", "end", "eventClass", "globalTid", "correlationId", "nameId"},
            {"NVTX_EVENTS", "start", "end", "eventType", "text", "globalTid", "textId", "domainId", "rangeId"},
            {"StringIds", "value"},
            {"TARGET_INFO_SESSION_START_TIME", "utcEpochNs"},
            {"TARGET_INFO_SYSTEM_ENV", "name", "value"},
            {"META_DATA_EXPORT", "name", "value"},
            {"ThreadNames", "nameId", "globalTid"},
            {"PROCESSES", "globalPid", "pid", "name"},
        };
        private static final String[] VALUES = {"'x'", "''", "NULL", "-1", "0", "1", "9223372036854775807",
            "-9223372036854775808", "1e300", "-0.5", "X'00ff'", "start", "end", "start - 1000000", "end + 1000000000",
            "'ProfilerStep#1'", "'ncclDevKernel_AllReduce'", "correlationId", "rowid"};

        static void sql(Path p, SplittableRandom r) throws SQLException {
            try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + p.toAbsolutePath());
                 Statement st = c.createStatement()) {
                int rounds = 1 + r.nextInt(3);
                for (int k = 0; k < rounds; k++) {
                    String[] t = COLUMNS[r.nextInt(COLUMNS.length)];
                    String sql = switch (r.nextInt(6)) {
                        case 0 -> "DELETE FROM " + t[0] + " WHERE rowid % " + (1 + r.nextInt(4)) + " = 0";
                        case 1 -> "INSERT INTO " + t[0] + " SELECT * FROM " + t[0] + " WHERE rowid % 3 = 0";
                        default -> "UPDATE " + t[0] + " SET " + t[1 + r.nextInt(t.length - 1)] + " = "
                                + VALUES[r.nextInt(VALUES.length)] + " WHERE rowid % " + (1 + r.nextInt(5)) + " = "
                                + r.nextInt(2);
                    };
                    try {
                        st.execute(sql);
                    } catch (SQLException e) {
                        // A constraint SQLite itself enforces: no export can break it either.
                    }
                }
            }
        }
    }
}
