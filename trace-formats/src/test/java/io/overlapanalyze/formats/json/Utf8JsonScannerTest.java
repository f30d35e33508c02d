package io.overlapanalyze.formats.json;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import io.overlapanalyze.formats.json.Utf8JsonScanner.Unsupported;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

import static io.overlapanalyze.formats.json.Utf8JsonScanner.ARRAY;
import static io.overlapanalyze.formats.json.Utf8JsonScanner.FALSE;
import static io.overlapanalyze.formats.json.Utf8JsonScanner.NULL;
import static io.overlapanalyze.formats.json.Utf8JsonScanner.NUMBER;
import static io.overlapanalyze.formats.json.Utf8JsonScanner.OBJECT;
import static io.overlapanalyze.formats.json.Utf8JsonScanner.STRING;
import static io.overlapanalyze.formats.json.Utf8JsonScanner.TRUE;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * {@link Utf8JsonScanner} against Jackson, configured as the Kineto reader's Jackson path is
 * (unescaped control characters, non-numeric numbers, trailing commas, backslash before any
 * character): whatever the scanner accepts it must read as Jackson does (decoded strings, number
 * text and kind, structure, token offsets); what it cannot read exactly it must refuse with
 * {@link Unsupported} (invalid UTF-8, exponents, leading zeros, trailing commas...). Inputs are
 * also fed a few bytes per read and placed across the scanner's 1 MiB buffer boundary.
 */
class Utf8JsonScannerTest {
    private static final JsonFactory JACKSON = JsonFactory.builder()
            .enable(JsonReadFeature.ALLOW_UNESCAPED_CONTROL_CHARS)
            .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
            .enable(JsonReadFeature.ALLOW_TRAILING_COMMA)
            .enable(JsonReadFeature.ALLOW_BACKSLASH_ESCAPING_ANY_CHARACTER)
            .build();

    private static final int BUFFER = 1 << 20;

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] cat(Object... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (Object p : parts) {
            byte[] b = p instanceof byte[] a ? a : utf8(p.toString());
            out.write(b, 0, b.length);
        }
        return out.toByteArray();
    }

    private static byte[] b(int... v) {
        byte[] out = new byte[v.length];
        for (int i = 0; i < v.length; i++) {
            out[i] = (byte) v[i];
        }
        return out;
    }

    // ------------------------------------------------------------------ references

    /** Jackson's text of the single value in {@code [value]}, or {@code null} when Jackson refuses the document. */
    private static String jacksonText(byte[] arrayDoc) {
        try (JsonParser p = JACKSON.createParser(arrayDoc)) {
            if (p.nextToken() != JsonToken.START_ARRAY) {
                return null;
            }
            JsonToken t = p.nextToken();
            String text = t == JsonToken.VALUE_NUMBER_INT ? "int:" + p.getText()
                    : t == JsonToken.VALUE_NUMBER_FLOAT ? "float:" + p.getText() : p.getText();
            if (p.nextToken() != JsonToken.END_ARRAY) {
                return null;
            }
            return text;
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** The scanner's reading of {@code [value]} (same format as {@link #jacksonText}), or {@code null} when Unsupported. */
    private static String scannerText(InputStream in) throws IOException {
        Utf8JsonScanner s = new Utf8JsonScanner(in);
        try {
            assertTrue(s.beginArray());
            String text;
            int kind = s.peekKind();
            switch (kind) {
                case STRING -> {
                    s.string();
                    text = s.stringValue();
                }
                case NUMBER -> {
                    boolean isInt = s.number();
                    assertEquals(isInt, s.numberIsInt());
                    text = (isInt ? "int:" : "float:") + s.sliceText();
                }
                case TRUE, FALSE, NULL -> {
                    s.literal(kind);
                    text = kind == TRUE ? "true" : kind == FALSE ? "false" : "null";
                }
                default -> throw new AssertionError("kind " + kind);
            }
            assertFalse(s.nextElement());
            return text;
        } catch (Unsupported e) {
            return null;
        }
    }

    /** Whether skipping the value of {@code [value]} works. */
    private static boolean scannerSkips(byte[] arrayDoc) throws IOException {
        Utf8JsonScanner s = new Utf8JsonScanner(new ByteArrayInputStream(arrayDoc));
        try {
            s.skipValue();
            return true;
        } catch (Unsupported e) {
            return false;
        }
    }

    /**
     * The value {@code literal} (JSON text) read both ways, whole and a few bytes per read: when
     * the scanner takes it, the result equals Jackson's; {@code mustAccept} true or false
     * requires it to take or to refuse it, null leaves it open. Returns the scanner's text.
     */
    private static String check(byte[] literal, Boolean mustAccept) throws IOException {
        byte[] doc = cat("[", literal, "]");
        String ref = jacksonText(doc);
        String whole = scannerText(new ByteArrayInputStream(doc));
        String name = new String(literal, StandardCharsets.ISO_8859_1) + " " + Arrays.toString(literal);
        if (whole != null) {
            assertEquals(ref, whole, "scanner took " + name + " with another reading than Jackson's");
        }
        if (mustAccept != null) {
            assertEquals(mustAccept, whole != null, (mustAccept ? "must take " : "must refuse ") + name);
        }
        for (long seed = 1; seed <= 3; seed++) {
            assertEquals(whole, scannerText(new TrickleInputStream(doc, seed, 1 + (int) seed * 2)),
                    "the same a few bytes per read: " + name);
        }
        assertEquals(whole != null, scannerSkips(doc), "skipValue agrees with reading: " + name);
        return whole;
    }

    private static String check(String literal, Boolean mustAccept) throws IOException {
        return check(utf8(literal), mustAccept);
    }

    // ------------------------------------------------------------------ strings

    @Test
    void stringsWithEveryKindOfEscapeDecodeAsJackson() throws IOException {
        String[] accepted = {
            "\"\"", "\"a\"", "\"plain ascii text with spaces\"", "\"\\\"\"", "\"\\\\\"", "\"\\/\"", "\"\\b\\f\\n\\r\\t\"",
            "\"\\u0000\"", "\"\\u001f\"", "\"\\u0041\"", "\"\\u00e9\"", "\"\\u00E9\"", "\"\\uFFFF\"", "\"\\uffff\"",
            "\"\\u20AC\"", "\"\\ud83d\\ude00\"", "\"\\uD83D\\uDE00\"", "\"\\ud800\"", "\"\\udc00\"", "\"\\udc00\\ud800\"",
            "\"\\q\"", "\"\\'\"", "\"\\%\"", "\"\\a\\z\\0\\9\"", "\"\\ \"", "\"\\~\"", "\"\\{\\}\\[\\]\"", "\"\\x41\"",
            "\"\\U0041\"", "\"a\\\\\\\"b\\\\\"", "\"end\\\\\"", "\"\\u0022\"", "\"\\u005c\"", "\"é\"", "\"中文\"", "\"😀\"",
            "\"𐀀\"", "\"\uDBFF\uDFFF\"", "\"ä\\nö\\u00fc😀\\q\"", "\"\u007f\"", "\"\u0080\u07ff\u0800\ud7ff\ue000\ufffd\"",
            "\"}, {\\\"ph\\\": \\\"X\\\"}, {\"",
        };
        for (String s : accepted) {
            check(s, true);
        }
        for (int c = 0; c < 0x20; c++) { // raw control characters: taken in values (ALLOW_UNESCAPED_CONTROL_CHARS)
            check(cat("\"a", b(c), "b\""), true);
        }
        String[] refused = {
            "\"\\u12\"", "\"\\u12G4\"", "\"\\u\"", "\"\\uXYZW\"", "\"abc", "\"abc\\\"", "\"\\",
        };
        for (String s : refused) {
            check(s, false);
        }
        check(cat("\"a\\", b(1), "\""), false);       // backslash before a control character
        check(cat("\"a\\", "é", "\""), false);         // backslash before a non-ASCII character
        check(cat("\"a\\", b(0x7f), "\""), null);      // backslash before DEL: printable? either way parity
    }

    @Test
    void escapedAndPlainSlicesAreFlaggedAsSuch() throws IOException {
        Object[][] cases = {{"\"abc\"", false, true}, {"\"a\\nb\"", true, false}, {"\"é\"", false, false},
            {"\"a\tb\"", false, true}, {"\"\\u0041\"", true, false}};
        for (Object[] c : cases) {
            Utf8JsonScanner s = new Utf8JsonScanner(new ByteArrayInputStream(utf8((String) c[0])));
            s.string();
            assertEquals(c[1], s.sliceEscaped(), (String) c[0]);
            assertEquals(c[2], s.slicePlainAscii(), (String) c[0]);
        }
    }

    /** Random text of every kind of code point, written with random escapes, decodes to itself (and to Jackson's). */
    @Test
    void randomStringsRoundTrip() throws IOException {
        SplittableRandom r = new SplittableRandom(20240611);
        for (int n = 0; n < 1500; n++) {
            StringBuilder text = new StringBuilder();
            ByteArrayOutputStream json = new ByteArrayOutputStream();
            json.write('"');
            int len = r.nextInt(40);
            for (int i = 0; i < len; i++) {
                int cp = switch (r.nextInt(6)) {
                    case 0 -> r.nextInt(0x20);
                    case 1 -> 0x20 + r.nextInt(0x60);
                    case 2 -> 0x80 + r.nextInt(0x780);
                    case 3 -> {
                        int c = 0x800 + r.nextInt(0xf800);
                        yield c >= 0xd800 && c <= 0xdfff ? 0xe000 : c;
                    }
                    case 4 -> 0x10000 + r.nextInt(0x100000);
                    default -> "\"\\/".charAt(r.nextInt(3));
                };
                text.appendCodePoint(cp);
                int style = r.nextInt(4);
                if (cp == '"' || cp == '\\' || (style == 0 && cp < 0x10000)) {
                    if (cp < 0x10000 && (style == 0 || r.nextBoolean())) {
                        json.write(utf8(String.format(r.nextBoolean() ? "\\u%04x" : "\\u%04X", cp)));
                    } else {
                        json.write('\\');
                        json.write(cp);
                    }
                } else if (style == 1 && cp >= 0x10000) {
                    char[] pair = Character.toChars(cp);
                    json.write(utf8(String.format("\\u%04x\\u%04x", (int) pair[0], (int) pair[1])));
                } else if (style == 2 && cp < 0x80 && cp != '"' && cp != '\\' && cp > 0x20 && !isEscapeLetter(cp)) {
                    json.write('\\'); // any-character escape
                    json.write(cp);
                } else {
                    json.write(utf8(new String(Character.toChars(cp))));
                }
            }
            json.write('"');
            String decoded = check(json.toByteArray(), true);
            assertEquals(text.toString(), decoded, json.toString(StandardCharsets.UTF_8));
        }
    }

    private static boolean isEscapeLetter(int c) {
        return c == 'b' || c == 'f' || c == 'n' || c == 'r' || c == 't' || c == 'u';
    }

    // ------------------------------------------------------------------ UTF-8

    @Test
    void invalidUtf8IsRefusedEverywhere() throws IOException {
        byte[][] invalid = {
            b(0x80), b(0xbf), b(0xc0, 0x80), b(0xc0, 0xaf), b(0xc1, 0xbf),          // stray continuation, overlong 2
            b(0xe0, 0x80, 0x80), b(0xe0, 0x9f, 0xbf),                                // overlong 3
            b(0xf0, 0x80, 0x80, 0x80), b(0xf0, 0x8f, 0xbf, 0xbf),                    // overlong 4
            b(0xed, 0xa0, 0x80), b(0xed, 0xbf, 0xbf), b(0xed, 0xa0, 0xbd, 0xed, 0xb8, 0x80), // encoded surrogates
            b(0xf4, 0x90, 0x80, 0x80), b(0xf5, 0x80, 0x80, 0x80), b(0xf7, 0xbf, 0xbf, 0xbf), // above U+10FFFF
            b(0xf8, 0x88, 0x80, 0x80, 0x80), b(0xfc, 0x84, 0x80, 0x80, 0x80, 0x80), b(0xfe), b(0xff),
            b(0xc3), b(0xe2, 0x82), b(0xf0, 0x9f, 0x98),                               // truncated sequences
            b(0xc3, 0x28), b(0xe2, 0x28, 0xa1), b(0xe2, 0x82, 0x28), b(0xf0, 0x28, 0x8c, 0xbc), b(0xf0, 0x9f, 0x98, 0x28),
        };
        for (byte[] bad : invalid) {
            String what = Arrays.toString(bad);
            check(cat("\"x", bad, "y\""), false);
            check(cat("\"", bad, "\""), false);
            assertFalse(scannerSkips(cat("[{\"k\":\"", bad, "\"}]")), "skipped value " + what);
            assertFalse(scannerSkips(cat("[{\"", bad, "\":1}]")), "key " + what);
            Utf8JsonScanner s = new Utf8JsonScanner(new ByteArrayInputStream(cat("{\"k", bad, "\":1}")));
            s.beginObject();
            assertThrows(Unsupported.class, () -> s.key(KeyTable.of("k")), "key() " + what);
            assertFalse(scannerSkips(cat("[", bad, "]")), "outside a string " + what);
        }
    }

    @Test
    void validUtf8AtEveryBoundaryIsTakenAsJacksonReadsIt() throws IOException {
        int[] codePoints = {0x7f, 0x80, 0xff, 0x7ff, 0x800, 0xfff, 0x1000, 0xcfff, 0xd7ff, 0xe000, 0xfffd, 0xfffe, 0xffff,
            0x10000, 0x1f600, 0x3ffff, 0x40000, 0xfffff, 0x100000, 0x10ffff};
        for (int cp : codePoints) {
            String s = new String(Character.toChars(cp));
            assertEquals(s, check("\"" + s + "\"", true));
            assertEquals("a" + s + s + "b", check("\"a" + s + s + "b\"", true));
        }
    }

    // ------------------------------------------------------------------ numbers and literals

    @Test
    void numbersInTheSubsetReadAsJacksonReadsThemOthersAreRefused() throws IOException {
        String[] accepted = {"0", "-0", "1", "-1", "7", "10", "1234567890", "9223372036854775807", "9223372036854775808",
            "-9223372036854775808", "18446744073709551616", "123456789012345678901234567890", "0.0", "-0.0", "0.5", "1.5",
            "-1.5", "1030.125", "0.000", "10.0100", "1712195495520870.926", "3.14159265358979323846264338327950288",
            "7".repeat(500), "-" + "7".repeat(499), "1." + "5".repeat(498)};
        for (String n : accepted) {
            check(n, true);
        }
        String[] refused = {"01", "00", "-01", "00.5", "1e3", "1E3", "1e+3", "1e-3", "1.5e3", "-1.5E-2", "0e0", "1.", "-1.",
            ".5", "-.5", "-", "--1", "+1", "+0", "1.5.5", "0x10", "NaN", "Infinity", "-Infinity", "+Infinity", "INF",
            "1_000", "7".repeat(501), "1." + "5".repeat(499), "7".repeat(1001)};
        for (String n : refused) {
            check(n, false);
        }
    }

    /** Random numbers of the subset's grammar, and random near-misses: the scanner takes exactly those Jackson reads so. */
    @Test
    void randomNumbers() throws IOException {
        SplittableRandom r = new SplittableRandom(777);
        String alphabet = "0123456789-+.eE";
        for (int n = 0; n < 2000; n++) {
            StringBuilder sb = new StringBuilder();
            if (n % 2 == 0) { // in the grammar
                if (r.nextBoolean()) {
                    sb.append('-');
                }
                if (r.nextInt(5) == 0) {
                    sb.append('0');
                } else {
                    sb.append((char) ('1' + r.nextInt(9)));
                    int d = r.nextInt(25);
                    for (int i = 0; i < d; i++) {
                        sb.append((char) ('0' + r.nextInt(10)));
                    }
                }
                if (r.nextBoolean()) {
                    sb.append('.');
                    int d = 1 + r.nextInt(12);
                    for (int i = 0; i < d; i++) {
                        sb.append((char) ('0' + r.nextInt(10)));
                    }
                }
                check(sb.toString(), true);
            } else { // anything from the number alphabet
                int len = 1 + r.nextInt(8);
                for (int i = 0; i < len; i++) {
                    sb.append(alphabet.charAt(r.nextInt(alphabet.length())));
                }
                String text = check(sb.toString(), null);
                if (text != null) {
                    assertFalse(sb.toString().contains("e") || sb.toString().contains("E"), "no exponents: " + sb);
                }
            }
        }
    }

    @Test
    void literals() throws IOException {
        check("true", true);
        check("false", true);
        check("null", true);
        for (String s : new String[] {"tru", "fals", "nul", "nulll", "nullx", "truex", "TRUE", "Null", "t", "n", "f"}) {
            check(s, false);
        }
    }

    // ------------------------------------------------------------------ structure

    /**
     * Whole documents: where skipValue takes one, Jackson reads it without error to the same end;
     * trailing commas, missing separators and the like are refused.
     */
    @Test
    void skipValueTakesOnlyWhatJacksonReadsAndEndsWhereItEnds() throws IOException {
        String[] accepted = {"{}", "[]", "{\"a\":1}", "[1,2,3]", "{\"a\":{\"b\":[1,{\"c\":null}]},\"d\":\"x\"}",
            " \t\r\n[ 1 , \"a\" , { } , [ ] , true , false , null ] ", "[".repeat(20) + "1" + "]".repeat(20),
            "{\"a\":1,\"a\":2}", "{\"é\":1,\"\":2}"};
        for (String d : accepted) {
            byte[] doc = utf8(d);
            Utf8JsonScanner s = new Utf8JsonScanner(new ByteArrayInputStream(doc));
            s.skipValue();
            assertEquals(utf8(d.stripTrailing()).length, s.offset(), "ends after the value: " + d);
            assertEquals(-1, s.peek(), d);
            assertTrue(jacksonReads(doc), d);
        }
        String[] refused = {"[1,]", "{\"a\":1,}", "[1 2]", "{\"a\" 1}", "{\"a\":1 \"b\":2}", "{a:1}", "{'a':1}", "[,1]",
            "{,}", "[1}", "{\"a\":1]", "[", "{", "{\"a\"", "{\"a\":", "[1", "[1,", "{\"a\\u0062\":1}", "{\"a\tb\":1}",
            "[/*c*/1]", "[NaN]", "[\"a\"\"b\"]", "}", "]", ":", ""};
        for (String d : refused) {
            byte[] doc = utf8(d);
            Utf8JsonScanner s = new Utf8JsonScanner(new ByteArrayInputStream(doc));
            assertThrows(Unsupported.class, s::skipValue, d);
        }
        assertTrue(scannerSkips(utf8(nested(200))));
        assertFalse(scannerSkips(utf8(nested(201))), "deeper than the scanner's limit");
        assertFalse(scannerSkips(utf8("[{\"" + "k".repeat(1001) + "\":1}]")), "a key over 1000 bytes");
        assertTrue(scannerSkips(utf8("[{\"" + "k".repeat(1000) + "\":1}]")));
    }

    private static String nested(int depth) {
        return "[".repeat(depth) + "]".repeat(depth);
    }

    private static boolean jacksonReads(byte[] doc) {
        try (JsonParser p = JACKSON.createParser(doc)) {
            p.nextToken();
            p.skipChildren();
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** Random JSON, mutated: whatever skipValue takes, Jackson reads as one value ending at the same byte. */
    @Test
    void randomDocumentsSkippedAsJacksonReadsThem() throws IOException {
        SplittableRandom r = new SplittableRandom(99);
        String junk = "{}[],:\" \\0123456789-.etrufaln";
        int taken = 0;
        for (int n = 0; n < 3000; n++) {
            StringBuilder sb = new StringBuilder("[");
            randomValue(sb, r, 0);
            byte[] doc = utf8(sb.append(']').toString()); // in an array: root-level scalars are not the scanner's case
            if (n % 2 == 1) { // mutate one byte (not the opening bracket)
                int at = 1 + r.nextInt(doc.length - 1);
                doc[at] = (byte) junk.charAt(r.nextInt(junk.length()));
            }
            Utf8JsonScanner s = new Utf8JsonScanner(new TrickleInputStream(doc, n, 7));
            long end;
            try {
                s.skipValue();
                end = s.offset();
            } catch (Unsupported e) {
                if (n % 2 == 0) {
                    fail("refused a valid document: " + sb);
                }
                continue;
            }
            taken++;
            try (JsonParser p = JACKSON.createParser(doc)) {
                p.nextToken();
                p.skipChildren();
                assertEquals(end, p.currentLocation().getByteOffset(), "same end: " + new String(doc, StandardCharsets.UTF_8));
            } catch (IOException e) {
                fail("the scanner took what Jackson refuses: " + new String(doc, StandardCharsets.UTF_8) + ": " + e);
            }
        }
        assertTrue(taken > 1500, "taken " + taken);
    }

    private static void randomValue(StringBuilder sb, SplittableRandom r, int depth) {
        int kind = depth > 4 ? 3 + r.nextInt(4) : r.nextInt(7);
        switch (kind) {
            case 0 -> {
                sb.append('{');
                int n = r.nextInt(4);
                for (int i = 0; i < n; i++) {
                    sb.append(i > 0 ? "," : "").append(r.nextBoolean() ? " " : "").append("\"k").append(r.nextInt(5)).append("\":");
                    randomValue(sb, r, depth + 1);
                }
                sb.append('}');
            }
            case 1, 2 -> {
                sb.append('[');
                int n = r.nextInt(4);
                for (int i = 0; i < n; i++) {
                    sb.append(i > 0 ? ", " : "");
                    randomValue(sb, r, depth + 1);
                }
                sb.append(']');
            }
            case 3 -> sb.append(new String[] {"\"s\"", "\"\"", "\"a\\nb\"", "\"é\"", "\"\\u00e9\""}[r.nextInt(5)]);
            case 4 -> sb.append(new String[] {"0", "-1", "1.5", "123", "-0.25"}[r.nextInt(5)]);
            default -> sb.append(new String[] {"true", "false", "null"}[r.nextInt(3)]);
        }
    }

    @Test
    void keysAreMatchedAsBytesAndEscapedKeysRefused() throws IOException {
        KeyTable keys = KeyTable.of("ph", "cat", "name", "ts", "a-much-longer-key-name");
        byte[] doc = utf8("{\"ts\":1,\"ph\":2,\"nam\":3,\"names\":4,\"a-much-longer-key-name\":5,\"\":6,\"é\":7,\"cat\":8}");
        Utf8JsonScanner s = new Utf8JsonScanner(new TrickleInputStream(doc, 5, 3));
        List<Integer> ids = new ArrayList<>();
        assertTrue(s.beginObject());
        do {
            ids.add(s.key(keys));
            s.skipValue();
        } while (s.nextMember());
        assertEquals(List.of(3, 0, -1, -1, 4, -1, -1, 1), ids);
        Utf8JsonScanner e = new Utf8JsonScanner(new ByteArrayInputStream(utf8("{\"p\\u0068\":1}")));
        e.beginObject();
        assertThrows(Unsupported.class, () -> e.key(keys), "a key that spells ph in escapes");
    }

    /**
     * Keys of every length from 1 to 20 (the one-word lookup takes 1 to 7 bytes, the other table the
     * rest), near misses of each (one byte changed anywhere, one byte more or less), empty and
     * non-ASCII keys, with and without blanks before the colon; read whole, a few bytes per read,
     * and across the 1 MiB buffer boundary. Each id must be the table's, or -1.
     */
    @Test
    void keysOfEveryLengthAndTheirNearMissesGetTheRightIds() throws IOException {
        List<String> names = new ArrayList<>();
        for (int len = 1; len <= 20; len++) {
            names.add("abcdefghijklmnopqrstuvwxyz".substring(0, len));
            names.add("Task Type:_-0123456789".substring(0, len));
        }
        names.add("ph");
        KeyTable keys = KeyTable.of(names.toArray(String[]::new));
        SplittableRandom r = new SplittableRandom(20261129);
        List<String> probe = new ArrayList<>(names);
        for (String n : names) {
            probe.add(n.substring(1));
            probe.add(n + "z");
            char[] c = n.toCharArray();
            int at = r.nextInt(c.length);
            c[at] = c[at] == 'x' ? 'y' : 'x';
            probe.add(new String(c));
        }
        probe.addAll(List.of("", "é", "ph\u0020".substring(0, 2), "p\u00e9h", "\u007f", "a\u0001b", "phé"));
        for (int round = 0; round < 4; round++) {
            StringBuilder doc = new StringBuilder("{");
            List<Integer> expected = new ArrayList<>();
            for (int i = 0; i < 400; i++) {
                String k = probe.get(r.nextInt(probe.size()));
                String decoded = new String(k.getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8);
                if (decoded.chars().anyMatch(ch -> ch < 0x20)) {
                    continue; // a control character in a key: refused, tested elsewhere
                }
                doc.append(i == 0 ? "" : ",").append('"').append(k).append('"')
                        .append(r.nextBoolean() ? "" : " ".repeat(r.nextInt(3)) + (r.nextBoolean() ? "\n" : ""))
                        .append(':').append(i);
                expected.add(names.indexOf(k));
            }
            doc.append('}');
            byte[] bytes = utf8(doc.toString());
            for (InputStream in : List.of(new ByteArrayInputStream(bytes), new TrickleInputStream(bytes, round, 9),
                    new ByteArrayInputStream(cat(" ".repeat(BUFFER - 1 - r.nextInt(600)), bytes)))) {
                Utf8JsonScanner s = new Utf8JsonScanner(in);
                List<Integer> ids = new ArrayList<>();
                assertTrue(s.beginObject());
                do {
                    ids.add(s.key(keys));
                    s.skipValue();
                } while (s.nextMember());
                assertEquals(expected, ids);
            }
        }
        assertThrows(IllegalArgumentException.class, () -> KeyTable.of("a\"b"), "a key the scanner never matches");
    }

    /**
     * The predicting {@code key} gives what the plain one gives, key by key, where the order and the
     * spelling of keys mostly repeat (its guesses hit) and where they change (near misses of a guessed
     * token: another key with the same start, blanks before the colon, a longer key that begins with
     * the token's bytes but for its quote, unknown keys, tokens over 16 bytes); whole, trickled, and
     * across the buffer boundary.
     */
    @Test
    void predictedKeysAreTheKeysScanned() throws IOException {
        KeyTable keys = KeyTable.of("name", "pid", "tid", "ts", "dur", "ph", "args", "Task Type", "a-key-over-16-bytes",
                "abcdefg", "abcdefgh", "abcdefghijkl");
        List<String> spellings = List.of("\"name\":", "\"pid\":", "\"tid\":", "\"ts\":", "\"dur\":", "\"ph\":",
                "\"args\":", "\"Task Type\":", "\"a-key-over-16-bytes\":", "\"ts\" :", "\"ts\"\n:", "\"tsx\":",
                "\"t\":", "\"names\":", "\"nam\":", "\"Task Types\":", "\"other\":", "\"pid\"  :",
                "\"abcdefg\":", "\"abcdefgh\":", "\"abcdefgx\":", "\"abcdefghijkl\":", "\"abcdefghijkx\":", "\"abcdefg\" :");
        SplittableRandom r = new SplittableRandom(7);
        for (int round = 0; round < 6; round++) {
            StringBuilder doc = new StringBuilder("[");
            List<String> usual = List.of("\"name\":", "\"pid\":", "\"tid\":", "\"ts\":", "\"abcdefgh\":",
                    "\"abcdefghijkl\":", "\"ph\":");
            for (int e = 0; e < 3000; e++) {
                doc.append(e == 0 ? "" : ",").append('{');
                int members = 1 + r.nextInt(7);
                for (int m = 0; m < members; m++) {
                    // mostly the usual order, sometimes anything
                    String k = r.nextInt(5) > 0 && m < usual.size() ? usual.get(m) : spellings.get(r.nextInt(spellings.size()));
                    doc.append(m == 0 ? "" : ",").append(k).append(r.nextInt(10));
                }
                doc.append('}');
            }
            doc.append(']');
            byte[] bytes = utf8(doc.toString());
            for (int way = 0; way < 3; way++) {
                Utf8JsonScanner[] pair = plainAndGuessing(bytes, way, round, r);
                Utf8JsonScanner plain = pair[0];
                Utf8JsonScanner guessing = pair[1];
                KeyPredictor predictor = new KeyPredictor(keys);
                boolean element = true;
                while (element) {
                    boolean member = plain.beginObject();
                    assertEquals(member, guessing.beginObject());
                    int previous = KeyPredictor.START;
                    while (member) {
                        int expected = plain.key(keys);
                        previous = guessing.key(predictor, previous);
                        assertEquals(expected, previous);
                        assertEquals(plain.offset(), guessing.offset(), "where the key ends");
                        plain.skipValue();
                        guessing.skipValue();
                        member = plain.nextMember();
                        assertEquals(member, guessing.nextMember());
                    }
                    element = plain.nextElement();
                    assertEquals(element, guessing.nextElement());
                }
            }
        }
    }

    /**
     * {@link Utf8JsonScanner#firstKey} and {@link Utf8JsonScanner#nextKey} give what
     * {@code beginObject}, {@code nextMember} and {@code key} give, and leave the scanner where the
     * value starts, on input whose separators mostly repeat (its guesses hit) and where they change:
     * other whitespace or indentation, a key of the same start, blanks before the colon, the object's
     * end where a member came last time, empty objects, unknown keys, and tokens over 32 bytes;
     * whole, trickled, and across the buffer boundary.
     */
    @Test
    void predictedMembersAreTheMembersScanned() throws IOException {
        KeyTable keys = KeyTable.of("name", "pid", "tid", "ts", "dur", "ph", "args", "External id", "registers per thread",
                "abcdefgh", "abcdefghijkl");
        List<String> spellings = List.of("\"name\" : ", "\"pid\":", "\"tid\" :  ", "\"ts\":\n", "\"dur\":", "\"ph\" :",
                "\"args\":", "\"External id\" : ", "\"External ids\" : ", "\"registers per thread\" : ", "\"tsx\":",
                "\"t\":", "\"names\" : ", "\"other\":", "\"pid\"  :", "\"abcdefgh\":", "\"abcdefgx\":",
                "\"abcdefghijkl\":  ", "\"abcdefghijkx\":");
        List<String> separators = List.of(",\n    ", ",\n      ", ", ", ",", " ,\n\t", ",\n    ");
        SplittableRandom r = new SplittableRandom(11);
        for (int round = 0; round < 6; round++) {
            StringBuilder doc = new StringBuilder("[");
            List<String> usual = List.of("\"ph\" : ", "\"name\" : ", "\"pid\" : ", "\"External id\" : ",
                    "\"registers per thread\" : ", "\"abcdefghijkl\":  ", "\"ts\" : ");
            for (int e = 0; e < 3000; e++) {
                doc.append(e == 0 ? "" : ",\n  ").append(r.nextInt(8) == 0 ? "{ " : "{\n    ");
                if (r.nextInt(30) == 0) {
                    doc.append(r.nextBoolean() ? "}" : "\n  }"); // an empty object
                    continue;
                }
                int members = 1 + r.nextInt(r.nextInt(10) == 0 ? 3 : 7);
                for (int m = 0; m < members; m++) {
                    boolean usualOne = r.nextInt(6) > 0 && m < usual.size();
                    String k = usualOne ? usual.get(m) : spellings.get(r.nextInt(spellings.size()));
                    String separator = usualOne ? ",\n    " : separators.get(r.nextInt(separators.size()));
                    doc.append(m == 0 ? "" : separator).append(k).append(r.nextInt(2) == 0 ? "\"v\"" : r.nextInt(100));
                }
                doc.append(r.nextInt(8) == 0 ? " }" : "\n  }");
            }
            doc.append(']');
            byte[] bytes = utf8(doc.toString());
            for (int way = 0; way < 3; way++) {
                Utf8JsonScanner[] pair = plainAndGuessing(bytes, way, round, r);
                Utf8JsonScanner plain = pair[0];
                Utf8JsonScanner guessing = pair[1];
                KeyPredictor predictor = new KeyPredictor(keys);
                boolean element = true;
                while (element) {
                    boolean member = plain.beginObject();
                    int previous = guessing.firstKey(predictor);
                    assertEquals(member, previous != Utf8JsonScanner.END_OF_OBJECT);
                    while (member) {
                        assertEquals(plain.key(keys), previous);
                        plain.peek();
                        guessing.peek();
                        assertEquals(plain.offset(), guessing.offset(), "where the value starts");
                        plain.skipValue();
                        guessing.skipValue();
                        member = plain.nextMember();
                        previous = guessing.nextKey(predictor, previous);
                        assertEquals(member, previous != Utf8JsonScanner.END_OF_OBJECT);
                    }
                    assertEquals(plain.offset(), guessing.offset(), "where the object ends");
                    element = plain.nextElement();
                    assertEquals(element, guessing.nextElement());
                }
            }
        }
    }

    /**
     * The values {@link Utf8JsonScanner#number()} accumulates are the slice's own: the integer as
     * {@link Long#parseLong}, the thousandths as {@link DecimalMicros#toNanos} (microseconds in
     * nanoseconds), each {@link Utf8JsonScanner#NOT_EXACT} outside the forms it covers (a sign, a
     * leading zero, more digits than fit), whole and across the buffer boundary.
     */
    @Test
    void accumulatedNumbersAreTheSlicesValues() throws IOException {
        SplittableRandom r = new SplittableRandom(3);
        List<String> numbers = new ArrayList<>(List.of("1", "9", "10", "0", "-1", "0.5", "1.5", "12.05", "7.000", "3.1234",
                "123456789012345", "1234567890123456", "123456789012345.999", "999999999999999999",
                "1000000000000000000", "9223372036854775807", "4458695510071.171", "13.000", "1.0", "2.10"));
        for (int i = 0; i < 3000; i++) {
            StringBuilder n = new StringBuilder().append((char) ('1' + r.nextInt(9)));
            for (int k = r.nextInt(20); k > 0; k--) {
                n.append((char) ('0' + r.nextInt(10)));
            }
            if (r.nextBoolean()) {
                n.append('.');
                for (int k = 1 + r.nextInt(5); k > 0; k--) {
                    n.append((char) ('0' + r.nextInt(10)));
                }
            }
            numbers.add(n.toString());
        }
        for (int way = 0; way < 2; way++) {
            String doc = "[" + String.join(",\n ", numbers) + "]";
            byte[] input = way == 1 ? cat(" ".repeat(BUFFER - 1 - 40), utf8(doc)) : utf8(doc);
            Utf8JsonScanner s = new Utf8JsonScanner(way == 1 ? new TrickleInputStream(input, 5, 4000) : new ByteArrayInputStream(input));
            assertTrue(s.beginArray());
            int i = 0;
            do {
                String text = numbers.get(i++);
                boolean isInt = s.number();
                assertEquals(text, s.sliceText());
                boolean plain = !text.startsWith("-") && !text.startsWith("0");
                int dot = text.indexOf('.');
                int integerDigits = dot < 0 ? text.length() : dot;
                int fractionDigits = dot < 0 ? 0 : text.length() - dot - 1;
                long integer = s.integerValue();
                if (integer != Utf8JsonScanner.NOT_EXACT) {
                    assertTrue(isInt, text);
                    assertEquals(Long.parseLong(text), integer, text);
                }
                long thousandths = s.thousandths();
                if (thousandths != Utf8JsonScanner.NOT_EXACT) {
                    assertEquals(DecimalMicros.toNanos(text), thousandths, text);
                }
                if (way == 0 && plain) { // whole in the buffer: the fast path took it
                    assertEquals(isInt && integerDigits <= 18, integer != Utf8JsonScanner.NOT_EXACT, text);
                    assertEquals(integerDigits <= 15 && fractionDigits <= 3, thousandths != Utf8JsonScanner.NOT_EXACT, text);
                }
                if (!plain) {
                    assertEquals(Utf8JsonScanner.NOT_EXACT, integer, text);
                    assertEquals(Utf8JsonScanner.NOT_EXACT, thousandths, text);
                }
            } while (s.nextElement());
            assertEquals(numbers.size(), i);
        }
    }

    /**
     * Two scanners over the array {@code bytes}, inside it: one plain, one to guess with, this
     * {@code way}: the whole input at once, the guessing one trickled, or both with the array
     * starting just before the end of the first buffer.
     */
    private static Utf8JsonScanner[] plainAndGuessing(byte[] bytes, int way, int round, SplittableRandom r)
            throws IOException {
        byte[] input = way == 2 ? cat(" ".repeat(BUFFER - 1 - r.nextInt(2000)), bytes) : bytes;
        Utf8JsonScanner plain = new Utf8JsonScanner(new ByteArrayInputStream(input));
        Utf8JsonScanner guessing = new Utf8JsonScanner(way == 1 ? new TrickleInputStream(input, round, 40)
                : new ByteArrayInputStream(input));
        assertTrue(plain.beginArray());
        assertTrue(guessing.beginArray());
        return new Utf8JsonScanner[] {plain, guessing};
    }

    // ------------------------------------------------------------------ offsets, refills, the 1 MiB buffer

    /** The offset before each token is where Jackson says the token starts, with the input arriving in tiny pieces. */
    @Test
    void offsetsAreTokenStartsAsJacksonReportsThem() throws IOException {
        String d = " {\"a\" : [1, -2.5, \"x\\ny\", {\"b\":null}, true] ,\r\n\t\"é中\": \"😀\", \"c\":{} , \"d\":[ ]}  ";
        byte[] doc = utf8(d);
        List<Long> ref = new ArrayList<>();
        try (JsonParser p = JACKSON.createParser(doc)) {
            for (JsonToken t = p.nextToken(); t != null; t = p.nextToken()) {
                if (t != JsonToken.END_ARRAY && t != JsonToken.END_OBJECT) {
                    ref.add(p.currentTokenLocation().getByteOffset());
                }
            }
        }
        for (long seed = 0; seed < 20; seed++) {
            Utf8JsonScanner s = new Utf8JsonScanner(seed == 0 ? new ByteArrayInputStream(doc) : new TrickleInputStream(doc, seed, 4));
            List<Long> got = new ArrayList<>();
            walk(s, got);
            assertEquals(ref, got, "seed " + seed);
            assertEquals(-1, s.peek());
            assertEquals(doc.length, s.offset());
        }
    }

    /** Token starts of one value (keys included), as Jackson's token locations list them. */
    private static void walk(Utf8JsonScanner s, List<Long> out) throws IOException {
        s.peek();
        out.add(s.offset());
        int kind = s.peekKind();
        switch (kind) {
            case OBJECT -> {
                if (s.beginObject()) {
                    do {
                        s.peek();
                        out.add(s.offset());
                        s.key(KeyTable.of("a"));
                        walk(s, out);
                    } while (s.nextMember());
                }
            }
            case ARRAY -> {
                if (s.beginArray()) {
                    do {
                        walk(s, out);
                    } while (s.nextElement());
                }
            }
            case STRING -> s.string();
            case NUMBER -> s.number();
            default -> s.literal(kind);
        }
    }

    /** A scanner whose next value starts {@code shift} bytes before the end of its first 1 MiB read. */
    private static byte[] atBoundary(int shift, String value) {
        int pad = BUFFER - shift - 1;
        byte[] doc = new byte[pad + 1 + utf8(value).length + 1];
        doc[0] = '[';
        Arrays.fill(doc, 1, pad + 1, (byte) ' ');
        byte[] v = utf8(value);
        System.arraycopy(v, 0, doc, pad + 1, v.length);
        doc[doc.length - 1] = ']';
        return doc;
    }

    /** Every kind of value placed across the 1 MiB buffer boundary at every offset near it. */
    @Test
    void valuesStraddlingTheBufferBoundary() throws IOException {
        String[] values = {"\"abcdefghijklmnop\"", "\"ab\\u00e9\\ncd\\\"e\\\\f\\/\"", "\"é中😀x\\ud83d\\ude00\"", "-1234.5678",
            "1234567", "0", "-0.5", "true", "false", "null", "\"\"", "\"\\\\\""};
        for (String v : values) {
            String expected = jacksonText(utf8("[" + v + "]"));
            assertNotNull(expected, v);
            for (int shift = -2; shift < utf8(v).length + 2; shift++) {
                byte[] doc = atBoundary(shift, v);
                assertEquals(expected, scannerText(new ByteArrayInputStream(doc)), v + " at boundary shift " + shift);
                // offsets after the value
                Utf8JsonScanner s = new Utf8JsonScanner(new ByteArrayInputStream(doc));
                s.beginArray();
                s.skipValue();
                assertEquals(doc.length - 1, s.offset(), v + " offset after, shift " + shift);
            }
        }
        // An object whose keys straddle the boundary.
        KeyTable keys = KeyTable.of("ph", "ts", "name");
        String obj = "{\"ph\":\"X\",\"name\":\"kernel\",\"ts\":1030.125}";
        for (int shift = 0; shift < obj.length(); shift++) {
            Utf8JsonScanner s = new Utf8JsonScanner(new ByteArrayInputStream(atBoundary(shift, obj)));
            s.beginArray();
            assertTrue(s.beginObject());
            StringBuilder sb = new StringBuilder();
            do {
                int id = s.key(keys);
                if (s.peekKind() == STRING) {
                    s.string();
                    sb.append(id).append('=').append(s.stringValue()).append(';');
                } else {
                    s.number();
                    sb.append(id).append('=').append(s.sliceText()).append(';');
                }
            } while (s.nextMember());
            assertEquals("0=X;2=kernel;1=1030.125;", sb.toString(), "shift " + shift);
        }
    }

    @Test
    void stringsLongerThanTheBuffer() throws IOException {
        StringBuilder sb = new StringBuilder();
        StringBuilder json = new StringBuilder("\"");
        while (json.length() < 2 * BUFFER) { // about 3 MB of UTF-8: under the 4 MiB string limit
            sb.append("abcé中😀\n\"");
            json.append("abcé中😀\\n\\\"");
        }
        json.append('"');
        byte[] doc = utf8("[" + json + "]");
        assertEquals(sb.toString(), scannerText(new ByteArrayInputStream(doc)));
        assertEquals(sb.toString(), jacksonText(doc));
        // Over the scanner's 4 MiB string limit: refused (Jackson would read it).
        byte[] big = utf8("[\"" + "x".repeat(5 * BUFFER) + "\"]");
        assertEquals(null, scannerText(new ByteArrayInputStream(big)));
    }

    /**
     * Regression for the bug this suite found: after a captured value has grown the buffer past
     * 4 MiB, a string over the 4 MiB limit that now fits the buffer whole must still be refused
     * (the fast path skipped the check; Jackson refuses strings over 20 M characters).
     */
    @Test
    void theStringLimitHoldsAfterACaptureHasGrownTheBuffer() throws IOException {
        byte[] pad = new byte[9 * BUFFER];
        Arrays.fill(pad, (byte) ' ');
        byte[] longString = new byte[5 * BUFFER];
        Arrays.fill(longString, (byte) 'x');
        byte[] doc = cat("{\"h\":[", pad, "1],\"s\":\"", longString, "\"}");
        Utf8JsonScanner s = new Utf8JsonScanner(new ByteArrayInputStream(doc));
        s.beginObject();
        s.key(KeyTable.of());
        assertEquals(pad.length + 3, s.captureValue().length);
        s.nextMember();
        s.key(KeyTable.of());
        assertThrows(Unsupported.class, s::string);
    }

    /** captureValue returns exactly the value's bytes, wherever refills and the buffer boundary fall. */
    @Test
    void captureValueAcrossRefills() throws IOException {
        String inner = "{\"rank\":1,\"pg_config\":[{\"pg_name\":\"0\",\"ranks\":[0,1]}],\"s\":\"é\\n\",\"n\":-0.5,\"t\":true}";
        String big = "{\"pad\":\"" + "p".repeat(BUFFER + 12345) + "\",\"x\":[" + "1,".repeat(300_000) + "2]}";
        for (String value : new String[] {inner, big}) {
            for (int shift : new int[] {0, 1, 7, 40, value.length() / 2}) {
                int padLen = Math.max(0, BUFFER - shift - 10);
                byte[] doc = cat("{\"a\":", " ".repeat(padLen), "1,\"v\":", value, " ,\"b\":[2]}");
                for (int mode = 0; mode < 2; mode++) {
                    InputStream in = mode == 0 ? new ByteArrayInputStream(doc) : new TrickleInputStream(doc, shift, 4096);
                    Utf8JsonScanner s = new Utf8JsonScanner(in);
                    KeyTable keys = KeyTable.of("a", "v", "b");
                    assertTrue(s.beginObject());
                    assertEquals(0, s.key(keys));
                    s.skipValue();
                    assertTrue(s.nextMember());
                    assertEquals(1, s.key(keys));
                    byte[] captured = s.captureValue();
                    assertArrayEquals(utf8(value), captured, "captured, shift " + shift + " mode " + mode);
                    assertEquals(doc.length - " ,\"b\":[2]}".length(), s.offset(), "offset after the capture");
                    assertTrue(s.nextMember());
                    assertEquals(2, s.key(keys));
                    assertTrue(s.beginArray());
                    s.number();
                    assertEquals("2", s.sliceText());
                    assertFalse(s.nextElement());
                    assertFalse(s.nextMember());
                    assertEquals(doc.length, s.offset());
                }
            }
        }
    }

    @Test
    void byteOrderMarkIsSkippedAtTheStartOnly() throws IOException {
        byte[] bom = b(0xef, 0xbb, 0xbf);
        for (long seed = 0; seed < 5; seed++) {
            byte[] doc = cat(bom, "{\"a\":1}");
            Utf8JsonScanner s = new Utf8JsonScanner(seed == 0 ? new ByteArrayInputStream(doc) : new TrickleInputStream(doc, seed, 2));
            s.skipByteOrderMark();
            assertEquals(3, s.offset());
            s.skipValue();
            assertEquals(doc.length, s.offset());
        }
        Utf8JsonScanner noBom = new Utf8JsonScanner(new ByteArrayInputStream(utf8("{}")));
        noBom.skipByteOrderMark();
        assertEquals(0, noBom.offset());
        Utf8JsonScanner half = new Utf8JsonScanner(new ByteArrayInputStream(b(0xef, 0xbb, '{', '}')));
        half.skipByteOrderMark();
        assertThrows(Unsupported.class, half::skipValue);
        Utf8JsonScanner late = new Utf8JsonScanner(new ByteArrayInputStream(cat(" ", bom, "{}")));
        late.skipByteOrderMark();
        assertThrows(Unsupported.class, late::skipValue);
    }

    /**
     * The byte-path name table returns the decoded string of exactly the bytes given: names that
     * share the sampled bytes of its hash, names past its size bound, long names, non-ASCII names.
     */
    @Test
    void theNameTableInternsExactly() {
        Utf8NameTable t = new Utf8NameTable();
        List<byte[]> names = new ArrayList<>();
        for (int i = 0; i < 2000; i++) { // the same length and sampled bytes, different elsewhere
            byte[] n = utf8("ncclDevKernel_AllReduce_Sum_f32_RING_LL_" + String.format("%05d", i) + "_storage<4096ul>");
            names.add(n);
        }
        for (int i = 0; i < 300_000; i++) { // more than the table keeps
            names.add(utf8((i % 3 == 0 ? "é" : "k") + Integer.toString(i, 36)));
        }
        names.add(utf8("x".repeat(Utf8NameTable.MAX_LENGTH + 1)));
        names.add(utf8("中".repeat(100)));
        names.add(new byte[0]);
        for (int round = 0; round < 2; round++) {
            for (byte[] n : names) {
                byte[] framed = cat("ab", n, "cd"); // at an offset in a larger buffer
                assertEquals(new String(n, StandardCharsets.UTF_8), t.intern(framed, 2, 2 + n.length));
            }
        }
        assertTrue(t.intern(names.get(0), 0, names.get(0).length) == t.intern(names.get(0).clone(), 0, names.get(0).length),
                "interned: the same instance");
    }

    /**
     * A scanner sized for a small file reads what a full-sized one reads, also when the file holds
     * more than its size said (a compressed file) and a value longer than the buffer.
     */
    @Test
    void aScannerSizedForASmallFileReadsTheSame() throws IOException {
        StringBuilder doc = new StringBuilder("[");
        SplittableRandom r = new SplittableRandom(13);
        for (int e = 0; e < 4000; e++) {
            String value = e == 1234 ? "v".repeat(300_000) : "name-" + r.nextInt(1000);
            doc.append(e == 0 ? "" : ",\n  ").append("{\"name\": \"").append(value).append("\", \"ts\": ").append(e).append('}');
        }
        byte[] bytes = utf8(doc.append(']').toString());
        KeyTable keys = KeyTable.of("name", "ts");
        List<String> fullSized = null;
        for (long claimed : new long[] {-1, 10, bytes.length / 20, bytes.length, 5L << 20}) {
            List<String> values = new ArrayList<>();
            Utf8JsonScanner s = Utf8JsonScanner.forSize(new ByteArrayInputStream(bytes), claimed);
            boolean element = s.beginArray();
            while (element) {
                boolean member = s.beginObject();
                while (member) {
                    int key = s.key(keys);
                    if (key == 0) {
                        s.string();
                        values.add(s.stringValue());
                    } else {
                        s.number();
                        values.add(s.sliceText());
                    }
                    member = s.nextMember();
                }
                element = s.nextElement();
            }
            assertEquals(8000, values.size(), "claimed " + claimed);
            assertEquals(300_000, values.get(2 * 1234).length(), "claimed " + claimed);
            assertEquals("3999", values.get(7999), "claimed " + claimed);
            if (fullSized == null) {
                fullSized = values; // -1: a full buffer
            }
            assertEquals(fullSized, values, "claimed " + claimed);
        }
    }

    /**
     * Long names (a 1,024-rank group's member list, a templated kernel name) are interned too, up to
     * the table's byte budget; past it they still come back as exactly their text.
     */
    @Test
    void longNamesAreInternedWithinTheBudget() {
        Utf8NameTable t = new Utf8NameTable();
        StringBuilder members = new StringBuilder("[");
        for (int r = 0; r < 1024; r++) {
            members.append(r == 0 ? "" : ", ").append(r);
        }
        byte[] group = utf8(members.append(']').toString());
        String first = t.intern(cat("ab", group, "cd"), 2, 2 + group.length);
        assertTrue(first == t.intern(cat("x", group, ""), 1, 1 + group.length), "a 6 KB name: the same instance");
        int each = 60_000;
        int past = (int) (Utf8NameTable.MAX_LONG_BYTES / each) + 3;
        for (int i = 0; i < past; i++) { // distinct long names, more than the budget holds
            byte[] n = utf8(String.format("%07d", i) + "y".repeat(each - 7));
            String s = t.intern(n, 0, n.length);
            assertEquals(new String(n, StandardCharsets.UTF_8), s);
            assertEquals(i < past - 3, s == t.intern(n.clone(), 0, n.length), "held while the budget lasts: " + i);
        }
        assertTrue(first == t.intern(group, 0, group.length), "names held before stay held");
    }

    /**
     * Interning stays linear whatever the names: 200,000 distinct names of one length that differ
     * only in a run of digits (a counter in annotation names) must not share probe chains. With a
     * hash of a few sampled bytes, the 7-digit counter below met one sampled byte: a few long
     * chains (the longest probe was 59,999 slots) and quadratic time.
     */
    @Test
    void namesThatDifferOnlyInACounterDoNotShareProbeChains() {
        Utf8NameTable t = new Utf8NameTable();
        for (int i = 0; i < 200_000; i++) {
            byte[] n = utf8(String.format("region_%07d_forward_pass", i));
            assertEquals(new String(n, StandardCharsets.UTF_8), t.intern(cat("ab", n, "cd"), 2, 2 + n.length));
        }
        // At a load of at most 1/2 with a uniform hash, linear probing's longest chain over 200k keys
        // is a few dozen slots; 1,000 leaves room and is two orders below the sampled hash's.
        assertTrue(t.longestProbe() < 1000, "longest probe " + t.longestProbe());
    }

    /** Names of every length up to 40 that differ in one byte only, at every place (the word-wise comparison's tail too). */
    @Test
    void theNameTableTellsApartNamesThatDifferInOneByte() {
        Utf8NameTable t = new Utf8NameTable();
        for (int len = 1; len <= 40; len++) {
            byte[] base = utf8("0123456789abcdefghijklmnopqrstuvwxyzABCD".substring(0, len));
            assertEquals(new String(base, StandardCharsets.UTF_8), t.intern(base, 0, len));
            for (int at = 0; at < len; at++) {
                byte[] other = base.clone();
                other[at] = '_';
                byte[] framed = cat("abc", other, "d");
                assertEquals(new String(other, StandardCharsets.UTF_8), t.intern(framed, 3, 3 + len), len + " bytes, at " + at);
                assertEquals(new String(base, StandardCharsets.UTF_8), t.intern(cat("z", base), 1, 1 + len));
            }
        }
    }

    @Test
    void theStartOffsetIsAddedToOffsets() throws IOException {
        Utf8JsonScanner s = new Utf8JsonScanner(new ByteArrayInputStream(utf8("  [1]")), 1000);
        assertEquals('[', s.peek());
        assertEquals(1002, s.offset());
        s.skipValue();
        assertEquals(1005, s.offset());
    }
}
