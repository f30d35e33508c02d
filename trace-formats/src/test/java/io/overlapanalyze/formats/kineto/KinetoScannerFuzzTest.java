package io.overlapanalyze.formats.kineto;

import io.overlapanalyze.formats.input.InputLimits;
import io.overlapanalyze.formats.kineto.KinetoParity.Checker;
import io.overlapanalyze.formats.kineto.KinetoParity.Expect;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Differential fuzzing of the Kineto fast path against the Jackson path. Small valid documents
 * are mutated (bytes replaced, JSON-ish tokens and odd bytes inserted, ranges deleted or
 * duplicated, values replaced by other scalars, cuts), and each result is read both ways: the
 * fast path must give exactly Jackson's model or decline ({@code Unsupported}), the event fields
 * must match where it takes the input, and {@link KinetoReader#read} must always equal
 * {@link KinetoReader#readWithJackson} (the same model or the same error message). Some cases
 * are also scanned in parallel with tiny chunks.
 *
 * <p>Deterministic: {@link #SEED} and {@link #CASES} fix every input; a failure names the case.
 * {@code -Doverlap.scannerFuzz.cases=N} runs more, {@code -Doverlap.scannerFuzz.seed=S} others.
 */
class KinetoScannerFuzzTest {
    private static final long SEED = Long.getLong("overlap.scannerFuzz.seed", 0x4b696e65746fL); // "Kineto"
    private static final int CASES = Integer.getInteger("overlap.scannerFuzz.cases", 2000);

    @TempDir
    Path dir;


    private static final String[] TOKENS = {
        ",", ":", "{", "}", "[", "]", "\"", "\\", "null", "true", "false", "nul", "0", "-0", "01", "1e5", "1E-2", "-",
        ".5", "1.", "7.25", "123456789012345678901234", "NaN", "-Infinity", "\\u00e9", "\\ud83d\\ude00", "\\u12", "\\q",
        "\\\"", "\\/", "{}", "[]", "\"ph\":\"X\",", "\"ts\":", "\"args\":{", "}, {", "},{\"ph\":\"X\"", "}, {}", ",]", ",}",
        "\"\"", " ", "\t", "\r\n", "\"cat\":\"kernel\",", "\"name\":\"x\",", "[[[[", "]]]]",
    };

    private static final byte[][] RAW = {
        {0}, {1}, {0x1f}, {0x7f}, {(byte) 0x80}, {(byte) 0xbf}, {(byte) 0xc0, (byte) 0xaf}, {(byte) 0xc3, (byte) 0xa9},
        {(byte) 0xe2, (byte) 0x82, (byte) 0xac}, {(byte) 0xed, (byte) 0xa0, (byte) 0x80},
        {(byte) 0xf0, (byte) 0x9f, (byte) 0x98, (byte) 0x80}, {(byte) 0xf4, (byte) 0x90, (byte) 0x80, (byte) 0x80},
        {(byte) 0xff}, {(byte) 0xef, (byte) 0xbb, (byte) 0xbf}, {(byte) 0xe2, (byte) 0x82},
    };

    /** Scalars that replace a member's value: mostly in the fast path's subset, some not. */
    private static final String[] SCALARS = {
        "0", "-0", "1", "-1", "7", "501", "502", "1030", "1030.125", "2605.5", "0.0005", "-5.5", "922337203685477",
        "9223372036854775807", "9223372036854775808", "-9223372036854775808", "18446744073709551616", "1e3", "01", "1.",
        "\"501\"", "\" 7 \"", "\"0x0\"", "\"1030.5\"", "\"abc\"", "\"\"", "\"X\"", "\"M\"", "\"i\"", "\"kernel\"",
        "\"cuda_runtime\"", "\"cpu_op\"", "\"user_annotation\"", "\"record_param_comms\"", "\"thread_name\"", "\"[memory]\"",
        "\"allreduce\"", "\"Float\"", "\"[0, 1]\"", "\"Stream Wait Event\"", "\"ProfilerStep#2\"", "\"nccl:all_reduce\"",
        "\"k\\u00e9\\n\\\"\"", "\"\\b\\f\\r\\t\\u0041\\/\"", "\"\\ud83d\\ude00\"", "\"a\\qb\"", "null", "true", "false", "{}", "[]", "[0,1]",
        "[0,[1],null,\"2\"]", "{\"a\":{\"b\":[1,2]}}",
    };

    private static List<byte[]> seeds() {
        List<byte[]> s = new ArrayList<>();
        String base = KinetoDocs.base();
        s.add(utf8(base));
        s.add(utf8(base.replace(",", ",\n  ").replace(":", " : ")));
        List<String> e = KinetoDocs.baseEvents("\"k\\n\\u00e9\\ud83d\\ude00\\q}, {\\\"a\\\":1}\"");
        e.add(0, "null");
        e.add("{}");
        e.set(KinetoDocs.THREAD_MAIN, "{\"args\":{\"name\":\"main \\\"thread\\\"\"},\"tid\":100,\"pid\":100,\"name\":\"thread_name\",\"ph\":\"M\"}");
        s.add(utf8("\uFEFF" + KinetoDocs.doc(e)));
        s.add(utf8("{\"baseTimeNanoseconds\":\"1700000000000000000\",\"traceEvents\":[" + String.join(",",
                KinetoDocs.baseEvents(KinetoDocs.quote("gemm é 中 😀"))) + "],\"distributedInfo\":" + KinetoDocs.DIST + "}"));
        return s;
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** One or two mutations of {@code doc}; {@code what} collects their names. */
    static byte[] mutate(byte[] doc, SplittableRandom r, List<String> what) {
        byte[] d = doc;
        int n = 1 + r.nextInt(2);
        for (int k = 0; k < n && d.length > 0; k++) {
            // Value replacements (which mostly keep the JSON valid) most often: the fast path must
            // then take the input, so they test its reading, not only its declining.
            int kind = r.nextInt(20);
            int at = r.nextInt(d.length);
            switch (kind) {
                case 0, 1, 2 -> { // replace one byte
                    byte b = r.nextBoolean() ? (byte) r.nextInt(256) : (byte) "{}[],:\"\\ 0123456789-.eEntfu\t\r\n".charAt(
                            r.nextInt(30));
                    d = d.clone();
                    d[at] = b;
                    what.add("byte " + at + "=" + (b & 0xff));
                }
                case 3, 4, 5 -> { // insert a token
                    String t = TOKENS[r.nextInt(TOKENS.length)];
                    d = splice(d, at, at, utf8(t));
                    what.add("insert@" + at + " " + t);
                }
                case 6 -> { // insert raw bytes
                    byte[] b = RAW[r.nextInt(RAW.length)];
                    d = splice(d, at, at, b);
                    what.add("raw@" + at + " " + Arrays.toString(b));
                }
                case 7, 8 -> { // delete a range
                    int len = 1 + r.nextInt(16);
                    d = splice(d, at, Math.min(d.length, at + len), new byte[0]);
                    what.add("delete@" + at + "+" + len);
                }
                case 9 -> { // cut
                    d = Arrays.copyOf(d, at);
                    what.add("cut@" + at);
                }
                case 10, 11 -> { // duplicate a range elsewhere
                    int len = 1 + r.nextInt(64);
                    int to = r.nextInt(d.length);
                    byte[] piece = Arrays.copyOfRange(d, at, Math.min(d.length, at + len));
                    d = splice(d, to, to, piece);
                    what.add("copy@" + at + "+" + len + "->" + to);
                }
                default -> { // replace a member's scalar value
                    int colon = indexOf(d, (byte) ':', at);
                    if (colon < 0) {
                        colon = indexOf(d, (byte) ':', 0);
                    }
                    if (colon < 0) {
                        break;
                    }
                    int end = colon + 1;
                    while (end < d.length && d[end] != ',' && d[end] != '}' && d[end] != '{' && d[end] != '[') {
                        end++;
                    }
                    if (end < d.length && (d[end] == '{' || d[end] == '[')) {
                        break; // a container: leave it
                    }
                    String v = SCALARS[r.nextInt(SCALARS.length)];
                    d = splice(d, colon + 1, end, utf8(v));
                    what.add("value@" + colon + "=" + v);
                }
            }
        }
        return d;
    }

    private static int indexOf(byte[] d, byte b, int from) {
        for (int i = from; i < d.length; i++) {
            if (d[i] == b) {
                return i;
            }
        }
        return -1;
    }

    private static byte[] splice(byte[] d, int from, int to, byte[] with) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(d.length + with.length);
        out.write(d, 0, from);
        out.write(with, 0, with.length);
        out.write(d, to, d.length - to);
        return out.toByteArray();
    }

    @Test
    void mutatedDocumentsGiveTheJacksonResultOrAreDeclined() throws IOException {
        List<byte[]> seeds = seeds();
        Checker c = new Checker(dir);
        SplittableRandom master = new SplittableRandom(SEED);
        Map<String, Integer> outcomes = new LinkedHashMap<>();
        long t0 = System.nanoTime();
        for (int i = 0; i < CASES; i++) {
            SplittableRandom r = master.split();
            List<String> what = new ArrayList<>();
            byte[] doc = mutate(seeds.get(i % seeds.size()), r, what);
            c.trickle = i % 5 == 0;
            int[] chunks = i % 20 == 0 ? new int[] {24 + r.nextInt(600)} : new int[0];
            String ref = c.check("case " + i + " (seed doc " + i % seeds.size() + ": " + String.join(", ", what) + ")",
                    doc, Expect.EITHER, chunks);
            String outcome = c.lastTook ? "scanner took it"
                    : !ref.startsWith("source=") ? "declined; Jackson refused it"
                    : ref.contains("truncated=true") ? "declined; Jackson read a truncated trace" : "declined; Jackson read it";
            outcomes.merge(outcome, 1, Integer::sum);
        }
        System.out.println("scanner fuzz (seed " + SEED + ", " + CASES + " cases, " + (System.nanoTime() - t0) / 1_000_000
                + " ms): " + outcomes);
        c.assertNoFailures("scanner fuzz");
        assertTrue(c.accepted > CASES / 10 && c.declined > CASES / 10, "both outcomes well represented: " + c.summary());
    }
}
