package io.overlapanalyze.formats.json;

import java.io.IOException;
import java.io.InputStream;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A pull scanner over the UTF-8 bytes of a JSON document: the fast path of the JSON trace readers.
 *
 * <p>Jackson's token stream costs most of a big trace's read time (it decodes every field name,
 * keeps a parsing context and a token state machine). The readers only need a few fields of each
 * event, so this scanner works on the raw bytes: field names are matched as bytes against a
 * {@link KeyTable}, numbers are handed over as byte slices (never through {@code double}), and
 * values the caller does not want are skipped, validated but not decoded.
 *
 * <p><b>Contract</b>: the scanner accepts a strict subset of what the readers' Jackson parsers
 * accept, with the same meaning, and throws {@link Unsupported} for everything else: exponents,
 * leading zeros, {@code NaN}, trailing commas, escapes in field names, escapes JSON does not
 * define ({@code \q}) where the reader's Jackson refuses them ({@link #strictEscapes()}), invalid
 * or unusual UTF-8, very deep nesting, a file that ends early. A reader that gets
 * {@link Unsupported} reads the file
 * again with its Jackson path, which then gives the exact result or the exact error message (with
 * its position) that it always gave. So the fast path never has to word an error, and it can be
 * conservative wherever Jackson's behaviour is intricate.
 *
 * <p>Slices ({@link #sliceStart()}, {@link #sliceEnd()}, {@link #buffer()}) are valid until the
 * next call that reads input.
 */
public final class Utf8JsonScanner {
    /** Value kinds, as {@link #peekKind()} gives them. */
    public static final int STRING = 1;
    public static final int NUMBER = 2;
    public static final int OBJECT = 3;
    public static final int ARRAY = 4;
    public static final int TRUE = 5;
    public static final int FALSE = 6;
    public static final int NULL = 7;

    /** Below Jackson's own limits (nesting 1000, names 50,000, numbers 1,000, strings 20 M chars). */
    private static final int MAX_DEPTH = 200;
    private static final int MAX_KEY_BYTES = 1000;
    private static final int MAX_NUMBER_BYTES = 500;
    private static final int MAX_STRING_BYTES = 4 << 20;
    private static final int BUFFER = 1 << 20;
    private static final int MAX_BUFFER = 64 << 20;

    private static final byte[] TRUE_BYTES = "true".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] FALSE_BYTES = "false".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] NULL_BYTES = "null".getBytes(StandardCharsets.US_ASCII);

    /** The input is outside what the scanner takes on: read it with the reference (Jackson) path. */
    public static final class Unsupported extends RuntimeException {
        public Unsupported(String why) {
            super(why, null, false, false);
        }
    }

    private final InputStream in;
    private byte[] buf;
    private int pos;
    private int limit;
    private boolean eof;
    /** When ≥ 0, {@code buf[keep..]} must survive a refill (a token being scanned, or a captured value). */
    private int keep = -1;

    private int sliceStart;
    private int sliceEnd;
    private boolean sliceEscaped;
    private boolean sliceAscii;
    private boolean numberIsInt;
    /** The last number's value, and its value times 1000, where the fast path knew them exactly (else {@link #NOT_EXACT}). */
    private long integerValue;
    private long thousandths;

    /** What {@link #integerValue()} and {@link #thousandths()} give when they did not compute it. */
    public static final long NOT_EXACT = Long.MIN_VALUE;
    /** Scales a fraction of k digits (k ≤ 3) to thousandths. */
    private static final long[] TO_THOUSANDTHS = {1000, 100, 10, 1};

    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long ONES = 0x0101010101010101L;
    private static final long HIGH_BITS = 0x8080808080808080L;
    /** What may follow a number or a literal: whitespace, or the end of a member or element. */
    private static final boolean[] DELIMITER = new boolean[256];

    static {
        for (char c : new char[] {' ', '\n', '\r', '\t', ',', '}', ']'}) {
            DELIMITER[c] = true;
        }
    }

    /** Bytes of input before {@code buf[0]}: the absolute offset of {@code buf[i]} is {@code discarded + i}. */
    private long discarded;

    public Utf8JsonScanner(InputStream in) {
        this(in, 0);
    }

    /** A scanner over {@code in}, whose first byte is at {@code startOffset} of the file (for {@link #offset()}). */
    public Utf8JsonScanner(InputStream in, long startOffset) {
        this(in, startOffset, null);
    }

    /**
     * As {@link #Utf8JsonScanner(InputStream, long)}, reading into {@code buffer} (one that an
     * earlier scanner is done with, as {@link #reusableBuffer()} gave it; {@code null} for a new one).
     */
    public Utf8JsonScanner(InputStream in, long startOffset, byte[] buffer) {
        this.in = in;
        this.discarded = startOffset;
        this.buf = buffer != null && buffer.length >= SMALL_BUFFER ? buffer : new byte[BUFFER];
    }

    /** The buffer {@link #forSize} gives a small input. */
    private static final int SMALL_BUFFER = 64 << 10;

    /**
     * A scanner over {@code in}, a file of {@code fileBytes} bytes on disk (-1 when unknown): a file
     * under {@link #BUFFER} is read in pieces of {@link #SMALL_BUFFER}. The JVM zeroes every new
     * buffer, so a job of a thousand traces of a megabyte each zeroed a gigabyte for buffers alone;
     * fifteen reads of a small file instead of one cost far less, and the buffer still grows when a
     * value needs it.
     */
    public static Utf8JsonScanner forSize(InputStream in, long fileBytes) {
        return new Utf8JsonScanner(in, 0, new byte[fileBytes >= 0 && fileBytes < BUFFER ? SMALL_BUFFER : BUFFER]);
    }

    /**
     * This scanner's buffer for a later scanner of the same thread, once this one is done (a chunk
     * of a parallel scan allocates no buffer of its own); {@code null} when it grew past its size.
     */
    public byte[] reusableBuffer() {
        return buf.length == BUFFER ? buf : null;
    }

    /** Whether a backslash may escape any printable ASCII character (see {@link #strictEscapes()}). */
    private boolean anyCharEscapes = true;

    /**
     * Takes only the escapes JSON defines ({@code \q} becomes {@link Unsupported}), for a reader
     * whose Jackson path does not enable ALLOW_BACKSLASH_ESCAPING_ANY_CHARACTER. Returns this scanner.
     */
    public Utf8JsonScanner strictEscapes() {
        anyCharEscapes = false;
        return this;
    }

    /** The absolute offset of the next byte to scan (after {@link #peek()}: of the next token). */
    public long offset() {
        return discarded + pos;
    }

    // ---------------------------------------------------------------- buffer

    /** Reads more input, moving the bytes still needed to the front. False at the end of input. */
    private boolean fill() throws IOException {
        if (eof) {
            return false;
        }
        int from = keep >= 0 ? keep : pos;
        if (from > 0) {
            System.arraycopy(buf, from, buf, 0, limit - from);
            discarded += from;
            limit -= from;
            pos -= from;
            if (keep >= 0) {
                keep -= from;
            }
        }
        if (limit == buf.length) {
            if (buf.length >= MAX_BUFFER) {
                throw new Unsupported("a single value over " + MAX_BUFFER + " bytes");
            }
            buf = Arrays.copyOf(buf, buf.length * 2);
        }
        int n;
        do {
            n = in.read(buf, limit, buf.length - limit);
        } while (n == 0);
        if (n < 0) {
            eof = true;
            return false;
        }
        limit += n;
        return true;
    }

    /** The byte at {@code pos} (0–255), or -1 at the end of input. */
    private int peekByte() throws IOException {
        if (pos < limit || fill()) {
            return buf[pos] & 0xff;
        }
        return -1;
    }

    // ---------------------------------------------------------------- structure

    /** The first byte after whitespace (not consumed), or -1 at the end of input. */
    public int peek() throws IOException {
        for (;;) {
            byte[] b = buf;
            int p = pos;
            int lim = limit;
            while (p < lim) {
                int c = b[p];
                if (c > ' ' || (c != ' ' && c != '\n' && c != '\r' && c != '\t')) {
                    pos = p;
                    return c & 0xff;
                }
                p++;
            }
            pos = p;
            if (!fill()) {
                return -1;
            }
        }
    }

    /** Skips a UTF-8 byte order mark at the very start, as Jackson does. */
    public void skipByteOrderMark() throws IOException {
        if (peekByte() == 0xef) {
            keep = pos;
            while (limit - pos < 3 && fill()) {
                // need three bytes
            }
            keep = -1;
            if (limit - pos >= 3 && (buf[pos + 1] & 0xff) == 0xbb && (buf[pos + 2] & 0xff) == 0xbf) {
                pos += 3;
            }
        }
    }

    /** The kind of the next value (after whitespace), without consuming it. */
    public int peekKind() throws IOException {
        int p = pos;
        int c = p < limit && buf[p] > ' ' ? buf[p] : peek(); // no whitespace before it: no call
        switch (c) {
            case '"':
                return STRING;
            case '{':
                return OBJECT;
            case '[':
                return ARRAY;
            case 't':
                return TRUE;
            case 'f':
                return FALSE;
            case 'n':
                return NULL;
            default:
                if (c == '-' || (c >= '0' && c <= '9')) {
                    return NUMBER;
                }
                throw unsupported(c, "a value");
        }
    }

    /** Consumes {@code c} after whitespace. */
    public void expect(char c) throws IOException {
        int b = peek();
        if (b != c) {
            throw unsupported(b, "'" + c + "'");
        }
        pos++;
    }

    /**
     * Opens an object ({@code {} after whitespace). True when it has a first member, whose key comes
     * next; false when it is empty (the closing brace is consumed).
     */
    public boolean beginObject() throws IOException {
        return begin('{', '}');
    }

    /** Consumes {@code open}; true when the container has a first member or element, false when empty (consumed). */
    private boolean begin(char open, char close) throws IOException {
        expect(open);
        if (peek() == close) {
            pos++;
            return false;
        }
        return true;
    }

    /** After a member's value: true when another member follows, false at the object's end (consumed). */
    public boolean nextMember() throws IOException {
        // Fast path: "," then whitespace then the next key's quote, in the buffer.
        byte[] b = buf;
        int p = pos;
        int lim = limit;
        while (p < lim && (b[p] == ' ' || b[p] == '\n' || b[p] == '\r' || b[p] == '\t')) {
            p++;
        }
        if (p < lim && b[p] == ',') {
            p++;
            while (p < lim && (b[p] == ' ' || b[p] == '\n' || b[p] == '\r' || b[p] == '\t')) {
                p++;
            }
            if (p < lim && b[p] == '"') {
                pos = p;
                return true;
            }
        }
        int c = peek();
        if (c == ',') {
            pos++;
            if (peek() != '"') {
                throw new Unsupported("a trailing comma or a non-string key"); // Jackson words it
            }
            return true;
        }
        if (c == '}') {
            pos++;
            return false;
        }
        throw unsupported(c, "',' or '}'");
    }

    /** Opens an array ({@code [}). True when it has a first element; false when empty (consumed). */
    public boolean beginArray() throws IOException {
        return begin('[', ']');
    }

    /** After an element: true when another follows, false at the array's end (consumed). */
    public boolean nextElement() throws IOException {
        int c = peek();
        if (c == ',') {
            pos++;
            if (peek() == ']') {
                throw new Unsupported("a trailing comma");
            }
            return true;
        }
        if (c == ']') {
            pos++;
            return false;
        }
        throw unsupported(c, "',' or ']'");
    }

    /**
     * Reads a member's key and its colon; returns the key's id in {@code keys}, or -1 for any other
     * key. Keys with escapes or control characters are {@link Unsupported} (Jackson decodes them; a
     * key could spell a known name in escapes).
     */
    public int key(KeyTable keys) throws IOException {
        // Fast path, in one method (the client compiler inlines little): a plain ASCII key, its
        // colon and the whitespace between, all in the buffer. The key is scanned eight bytes at a
        // time, and a key of up to 8 bytes (most of them: "ph", "name", "ts") is looked up as one
        // word, without a byte loop.
        byte[] b = buf;
        int p = pos;
        int lim = limit;
        if (p < lim && b[p] == '"') {
            int start = p + 1;
            int q = start;
            long special = 0;
            while (q + 8 <= lim) {
                // The high bit of each byte that is a quote, a backslash, a control character or
                // not ASCII (SWAR: the lowest flag is exact, those above it may come from a borrow).
                // Written out here and in scanString: the client compiler would not inline it.
                long w = (long) LONGS.get(b, q);
                long quote = w ^ 0x2222222222222222L;
                long backslash = w ^ 0x5C5C5C5C5C5C5C5CL;
                special = (((quote - ONES) & ~quote) | ((backslash - ONES) & ~backslash)
                        | ((w - 0x2020202020202020L) & ~w) | w) & HIGH_BITS;
                if (special != 0) {
                    break;
                }
                q += 8;
            }
            if (special != 0) {
                q += firstFlaggedByte(special); // the first byte that is not plain
            } else {
                while (q < lim && b[q] >= 0x20 && b[q] != '"' && b[q] != '\\') {
                    q++;
                }
            }
            if (q < lim && b[q] == '"' && q - start <= MAX_KEY_BYTES) {
                int end = q++;
                while (q < lim && (b[q] == ' ' || b[q] == '\n' || b[q] == '\r' || b[q] == '\t')) {
                    q++;
                }
                if (q < lim && b[q] == ':') {
                    pos = q + 1;
                    int len = end - start;
                    if (len > 0 && len <= 8 && start + 8 <= lim) {
                        long word = (long) LONGS.get(b, start);
                        return keys.findShort(len == 8 ? word : word & ((1L << (len << 3)) - 1));
                    }
                    return keys.find(b, start, end);
                }
            }
        }
        return keySlowly(keys);
    }

    /**
     * {@link #key(KeyTable)} of {@code predictor}'s table, trying first the key that followed
     * {@code previous} (the id the last call returned, or {@link KeyPredictor#START} for an object's
     * first key) last time: when the input holds that key's token, byte for byte, it is the answer.
     * Otherwise the key is scanned, and the predictor learns it.
     */
    public int key(KeyPredictor predictor, int previous) throws IOException {
        int guess = predictor.guess(previous);
        int p = pos;
        if (guess != KeyPredictor.NONE && p + 16 <= limit) {
            int slot = guess + 1;
            int n = predictor.length[slot];
            byte[] b = buf;
            if (n > 0 && ((long) LONGS.get(b, p) & predictor.mask0[slot]) == predictor.word0[slot]
                    && ((long) LONGS.get(b, p + 8) & predictor.mask1[slot]) == predictor.word1[slot]) {
                pos = p + n;
                return guess;
            }
        }
        long before = discarded;
        int id = key(predictor.keys);
        if (discarded == before && p < limit && buf[p] == '"') { // the token is still where it was
            predictor.learn(previous, id, buf, p, pos);
        }
        return id;
    }

    /** What {@link #nextKey} returns at the end of the object. */
    public static final int END_OF_OBJECT = Integer.MIN_VALUE + 1;

    /**
     * After a member's value: the next member's key as {@link #key(KeyPredictor, int)} gives it
     * (its comma, key and colon consumed, and the whitespace before its value), or
     * {@link #END_OF_OBJECT} when the object ends (its closing brace consumed). {@code previous} is
     * the id of the member just read. When the input holds, byte for byte, one of the ways that led
     * on from {@code previous}'s value before, that way is the answer (the same bytes are the same
     * comma, key and colon, or the same closing brace); otherwise the input is scanned, and the
     * predictor learns it.
     */
    public int nextKey(KeyPredictor predictor, int previous) throws IOException {
        int predicted = predicted(predictor, previous);
        if (predicted != KeyPredictor.NONE) {
            return predicted;
        }
        int p = pos;
        long before = discarded;
        if (!nextMember()) {
            learnEnd(predictor, previous, p, before);
            return END_OF_OBJECT;
        }
        return learnToValue(predictor, previous, key(predictor, previous), p, before);
    }

    /**
     * Opens an object ({@code {} after whitespace) and gives its first member's key as
     * {@link #nextKey} gives the next ones (the whitespace before its value consumed), or
     * {@link #END_OF_OBJECT} when it is empty (its closing brace consumed): the brace and the first
     * key are predicted together, as one more way ({@link KeyPredictor#START}).
     */
    public int firstKey(KeyPredictor predictor) throws IOException {
        int predicted = predicted(predictor, KeyPredictor.START);
        if (predicted != KeyPredictor.NONE) {
            return predicted;
        }
        int p = pos;
        long before = discarded;
        if (!beginObject()) {
            learnEnd(predictor, KeyPredictor.START, p, before);
            return END_OF_OBJECT;
        }
        return learnToValue(predictor, KeyPredictor.START, key(predictor, KeyPredictor.START), p, before);
    }

    /**
     * The id of the way on from {@code previous} whose bytes the input holds at {@link #pos}
     * (consumed), or {@link KeyPredictor#NONE}.
     */
    private int predicted(KeyPredictor predictor, int previous) {
        int p = pos;
        if (p + KeyPredictor.MAX_MEMBER_TOKEN > limit) {
            return KeyPredictor.NONE;
        }
        byte[] b = buf;
        long first = (long) LONGS.get(b, p);
        long[] word = predictor.memberWord;
        long[] mask = predictor.memberMask;
        int[] length = predictor.memberLength;
        int way = (previous + 2) * KeyPredictor.MEMBER_WAYS;
        for (int end = way + KeyPredictor.MEMBER_WAYS; way < end; way++) {
            int n = length[way];
            int w = way << 2;
            if (n > 0 && ((first ^ word[w]) & mask[w]) == 0
                    && (n <= 8 || (((long) LONGS.get(b, p + 8) ^ word[w + 1]) & mask[w + 1]) == 0)
                    && (n <= 16 || (((long) LONGS.get(b, p + 16) ^ word[w + 2]) & mask[w + 2]) == 0)
                    && (n <= 24 || (((long) LONGS.get(b, p + 24) ^ word[w + 3]) & mask[w + 3]) == 0)) {
                pos = p + n;
                return predictor.memberId[way];
            }
        }
        return KeyPredictor.NONE;
    }

    /** After the object's end was scanned from {@code from}: the same bytes end it next time. */
    private void learnEnd(KeyPredictor predictor, int previous, int from, long discardedBefore) {
        if (discarded == discardedBefore) { // no refill moved the bytes
            predictor.learnMember(previous, END_OF_OBJECT, buf, from, pos);
        }
    }

    /**
     * After the key {@code id} was scanned from {@code from}: consumes the whitespace before its
     * value and learns the bytes up to the value; returns {@code id}.
     */
    private int learnToValue(KeyPredictor predictor, int previous, int id, int from, long discardedBefore) {
        byte[] b = buf;
        int q = pos;
        int lim = limit;
        while (q < lim && (b[q] == ' ' || b[q] == '\n' || b[q] == '\r' || b[q] == '\t')) {
            q++;
        }
        pos = q;
        if (q < lim && discarded == discardedBefore) { // the whole token is still in the buffer
            predictor.learnMember(previous, id, b, from, q);
        }
        return id;
    }

    private int keySlowly(KeyTable keys) throws IOException {
        if (peek() != '"') {
            throw unsupported(peek(), "a field name");
        }
        scanString(true);
        int id = sliceAscii ? keys.find(buf, sliceStart, sliceEnd) : -1;
        expect(':');
        return id;
    }

    // ---------------------------------------------------------------- strings

    /** Scans the string value at the next position; its raw bytes are the slice. */
    public void string() throws IOException {
        if (pos < limit && buf[pos] == '"') { // after peekKind(), as usual
            scanString(false);
            return;
        }
        if (peek() != '"') {
            throw unsupported(peek(), "a string");
        }
        scanString(false);
    }

    /**
     * Whether the last string slice had backslash escapes (then {@link #stringValue()} decodes them).
     * A number's slice has none and is plain ASCII (so {@link Utf8NameTable#intern} takes it too).
     */
    public boolean sliceEscaped() {
        return sliceEscaped;
    }

    /** Whether the last string slice is pure ASCII without escapes (its bytes are its chars). */
    public boolean slicePlainAscii() {
        return sliceAscii && !sliceEscaped;
    }

    /** The last string slice decoded (escapes resolved, UTF-8 decoded). */
    public String stringValue() {
        if (!sliceEscaped) {
            return new String(buf, sliceStart, sliceEnd - sliceStart,
                    sliceAscii ? StandardCharsets.ISO_8859_1 : StandardCharsets.UTF_8);
        }
        return decodeEscaped(buf, sliceStart, sliceEnd, anyCharEscapes);
    }

    /** The raw slice as text (numbers: their exact digits; ASCII strings). */
    public String sliceText() {
        return new String(buf, sliceStart, sliceEnd - sliceStart, StandardCharsets.ISO_8859_1);
    }

    public byte[] buffer() {
        return buf;
    }

    public int sliceStart() {
        return sliceStart;
    }

    public int sliceEnd() {
        return sliceEnd;
    }

    /**
     * Scans a string from its opening quote. Sets the slice to its content and the flags; validates
     * UTF-8 and escapes (so a skipped string is checked as Jackson checks it).
     */
    private void scanString(boolean isKey) throws IOException {
        // Fast path: plain ASCII, closing quote already in the buffer (nearly every string).
        byte[] b = buf;
        int start = pos + 1;
        int p = start;
        int lim = limit;
        while (p + 8 <= lim) {
            // no quote, backslash, control character or non-ASCII byte among these 8 (as in key())
            long w = (long) LONGS.get(b, p);
            long quote = w ^ 0x2222222222222222L;
            long backslash = w ^ 0x5C5C5C5C5C5C5C5CL;
            if (((((quote - ONES) & ~quote) | ((backslash - ONES) & ~backslash)
                    | ((w - 0x2020202020202020L) & ~w) | w) & HIGH_BITS) != 0) {
                break;
            }
            p += 8;
        }
        while (p < lim) {
            int c = b[p];
            if (c == '"') {
                // The length limits hold here too: the buffer grows past 1 MiB while a header value
                // is captured, and a whole string over Jackson's own limit (20 M chars) could then
                // sit in it. Too long: the slow path refuses it.
                if (p - start > (isKey ? MAX_KEY_BYTES : MAX_STRING_BYTES)) {
                    break;
                }
                sliceStart = start;
                sliceEnd = p;
                sliceEscaped = false;
                sliceAscii = true;
                pos = p + 1;
                return;
            }
            if (c < 0x20 || c == '\\') {
                break;
            }
            p++;
        }
        scanStringSlowly(isKey);
    }

    /**
     * The index (0–7) of the lowest byte whose high bit is set in {@code flags} (high bits only, not
     * 0): the lowest set bit, isolated and shifted to bit 0 of its byte, times a constant whose byte
     * {@code 7 - k} is {@code k}, leaves that index in the top byte. {@code Long.numberOfTrailingZeros}
     * is not an intrinsic of the client compiler on JDK 17.
     */
    private static int firstFlaggedByte(long flags) {
        return (int) ((((flags & -flags) >>> 7) * 0x0001020304050607L) >>> 56);
    }

    /** The general case of {@link #scanString}: refills, escapes, control characters, UTF-8. */
    private void scanStringSlowly(boolean isKey) throws IOException {
        int outer = keep;
        if (outer < 0) {
            keep = pos;
        }
        int rel = pos - keep;
        pos++; // opening quote
        boolean escaped = false;
        boolean ascii = true;
        boolean control = false;
        for (;;) {
            byte[] b = buf;
            int p = pos;
            int lim = limit;
            int c = 0;
            while (p < lim) {
                c = b[p];
                if (c >= 0x20 && c != '"' && c != '\\') {
                    p++;
                } else {
                    break;
                }
            }
            pos = p;
            if (p >= lim) {
                if (!fill()) {
                    throw new Unsupported("end of input inside a string");
                }
                if (pos - (keep + rel) > MAX_STRING_BYTES) {
                    throw new Unsupported("a string over " + MAX_STRING_BYTES + " bytes");
                }
                continue;
            }
            if (c == '"') {
                break;
            }
            if (c == '\\') {
                escaped = true;
                if (pos + 1 >= limit && !ensure(2)) {
                    throw new Unsupported("end of input inside a string");
                }
                pos += 2; // the escaped byte cannot end the string; decodeEscaped validates it
            } else if (c < 0) {
                ascii = false;
                pos++;
            } else {
                control = true; // raw control character: allowed in values (ALLOW_UNESCAPED_CONTROL_CHARS)
                pos++;
            }
        }
        sliceStart = keep + rel + 1;
        sliceEnd = pos;
        pos++; // closing quote
        if (outer < 0) {
            keep = -1;
        }
        sliceEscaped = escaped;
        sliceAscii = ascii;
        if (isKey) {
            if (escaped || control) {
                throw new Unsupported("a field name with escapes or control characters");
            }
            if (sliceEnd - sliceStart > MAX_KEY_BYTES) {
                throw new Unsupported("a field name over " + MAX_KEY_BYTES + " bytes");
            }
        }
        if (sliceEnd - sliceStart > MAX_STRING_BYTES) {
            throw new Unsupported("a string over " + MAX_STRING_BYTES + " bytes");
        }
        if (escaped) {
            decodeEscaped(buf, sliceStart, sliceEnd, anyCharEscapes); // validates
        } else if (!ascii) {
            Utf8.validate(buf, sliceStart, sliceEnd);
        }
    }

    /** At least {@code n} bytes from {@code pos} (keeping what {@link #keep} holds); false at the end of input. */
    private boolean ensure(int n) throws IOException {
        while (limit - pos < n) {
            if (!fill()) {
                return false;
            }
        }
        return true;
    }

    /**
     * Decodes a string with escapes as Jackson does: the JSON escapes, {@code \}{@code uXXXX} to one
     * char each (surrogate pairs stay two chars). A backslash before any other printable ASCII
     * character gives that character when {@code anyCharEscapes} (Jackson's
     * ALLOW_BACKSLASH_ESCAPING_ANY_CHARACTER, which the Kineto reader enables), and is
     * {@link Unsupported} otherwise (the Ascend reader's Jackson refuses it: its path decides).
     */
    static String decodeEscaped(byte[] b, int start, int end, boolean anyCharEscapes) {
        StringBuilder sb = new StringBuilder(end - start);
        int i = start;
        while (i < end) {
            int c = b[i];
            if (c == '\\') {
                int e = b[i + 1];
                i += 2;
                switch (e) {
                    case 'b' -> sb.append('\b');
                    case 'f' -> sb.append('\f');
                    case 'n' -> sb.append('\n');
                    case 'r' -> sb.append('\r');
                    case 't' -> sb.append('\t');
                    case 'u' -> {
                        if (i + 4 > end) {
                            throw new Unsupported("a short \\u escape");
                        }
                        int v = 0;
                        for (int k = 0; k < 4; k++) {
                            int h = Character.digit(b[i + k], 16);
                            if (h < 0 || b[i + k] < 0) {
                                throw new Unsupported("a bad \\u escape");
                            }
                            v = v * 16 + h;
                        }
                        sb.append((char) v);
                        i += 4;
                    }
                    case '"', '\\', '/' -> sb.append((char) e);
                    default -> {
                        if (!anyCharEscapes || e < 0x20) {
                            throw new Unsupported("a backslash before a character JSON does not escape");
                        }
                        sb.append((char) e);
                    }
                }
            } else if (c >= 0) {
                sb.append((char) c);
                i++;
            } else {
                int n = Utf8.sequenceLength(b, i, end);
                sb.append(new String(b, i, n, StandardCharsets.UTF_8));
                i += n;
            }
        }
        return sb.toString();
    }

    // ---------------------------------------------------------------- numbers and literals

    /**
     * Scans a number in the form {@code -?(0|[1-9][0-9]*)(\.[0-9]+)?}; its text is the slice.
     * Returns whether it is an integer. Exponents and the like are {@link Unsupported}.
     */
    public boolean number() throws IOException {
        int c = pos < limit && buf[pos] > ' ' ? buf[pos] : peek(); // after peekKind(), no call
        // Fast path: an unsigned number whose end is already in the buffer.
        byte[] b = buf;
        int start = pos;
        int p = start;
        int lim = limit;
        if (c >= '1' && c <= '9') {
            // The value is accumulated while scanning (the readers want most numbers as a long or as
            // a time in thousandths, and a second pass over the digits cost as much as this one).
            long v = c - '0';
            p++;
            int d;
            while (p < lim && (d = b[p] - '0') >= 0 && d <= 9) {
                v = v * 10 + d;
                p++;
            }
            int integerDigits = p - start;
            boolean isInt = true;
            long fraction = 0;
            int fractionDigits = 0;
            if (p + 1 < lim && b[p] == '.' && b[p + 1] >= '0' && b[p + 1] <= '9') {
                p++;
                while (p < lim && (d = b[p] - '0') >= 0 && d <= 9) {
                    if (fractionDigits < 3) {
                        fraction = fraction * 10 + d;
                    }
                    fractionDigits++;
                    p++;
                }
                isInt = false;
            }
            if (p < lim && isDelimiter(b[p]) && p - start <= MAX_NUMBER_BYTES) {
                sliceStart = start;
                sliceEnd = p;
                sliceEscaped = false;
                sliceAscii = true;
                pos = p;
                numberIsInt = isInt;
                // 18 digits always fit a long; 15 digits times 1000 too.
                integerValue = isInt && integerDigits <= 18 ? v : NOT_EXACT;
                thousandths = integerDigits <= 15 && fractionDigits <= 3
                        ? v * 1000 + fraction * TO_THOUSANDTHS[fractionDigits] : NOT_EXACT;
                return isInt;
            }
        }
        return numberSlowly(c);
    }

    /** The general case of {@link #number()}: signs, zeros, refills, and the forms it refuses. */
    private boolean numberSlowly(int c) throws IOException {
        integerValue = NOT_EXACT;
        thousandths = NOT_EXACT;
        int outer = keep;
        if (outer < 0) {
            keep = pos;
        }
        int rel = pos - keep;
        if (c == '-') {
            pos++;
            c = peekByte();
        }
        if (c == '0') {
            pos++;
            c = peekByte();
            if (c >= '0' && c <= '9') {
                throw new Unsupported("a number with a leading zero");
            }
        } else if (c >= '1' && c <= '9') {
            c = digits();
        } else {
            throw new Unsupported("not a number");
        }
        boolean isInt = true;
        if (c == '.') {
            pos++;
            c = peekByte();
            if (c < '0' || c > '9') {
                throw new Unsupported("a number without fraction digits");
            }
            c = digits();
            isInt = false;
        }
        if (!isDelimiter(c)) {
            throw new Unsupported("a number in a form the scanner does not take (exponent or junk)");
        }
        sliceStart = keep + rel;
        sliceEnd = pos;
        sliceEscaped = false;
        sliceAscii = true;
        if (outer < 0) {
            keep = -1;
        }
        if (sliceEnd - sliceStart > MAX_NUMBER_BYTES) {
            throw new Unsupported("a number over " + MAX_NUMBER_BYTES + " digits");
        }
        numberIsInt = isInt;
        return isInt;
    }

    /** Consumes digits; returns the byte after them (-1 at the end of input). */
    private int digits() throws IOException {
        for (;;) {
            byte[] b = buf;
            int p = pos;
            int lim = limit;
            while (p < lim) {
                int c = b[p];
                if (c >= '0' && c <= '9') {
                    p++;
                } else {
                    pos = p;
                    return c & 0xff;
                }
            }
            pos = p;
            if (!fill()) {
                return -1;
            }
        }
    }

    /** Whether the last number was an integer. */
    public boolean numberIsInt() {
        return numberIsInt;
    }

    /**
     * The last number's value when it is an integer of at most 18 digits without sign or leading
     * zero (nearly every integer of a trace), else {@link #NOT_EXACT}: then parse its slice.
     */
    public long integerValue() {
        return integerValue;
    }

    /**
     * The last number times 1000 when it has at most 15 integer and 3 fraction digits, no sign and
     * no leading zero (the microseconds of a trace, in nanoseconds), else {@link #NOT_EXACT}: then
     * parse its slice.
     */
    public long thousandths() {
        return thousandths;
    }

    private static boolean isDelimiter(int c) {
        return c >= 0 && DELIMITER[c];
    }

    /** Consumes {@code true}, {@code false} or {@code null} (as {@link #peekKind()} announced it). */
    public void literal(int kind) throws IOException {
        byte[] word = kind == TRUE ? TRUE_BYTES : kind == FALSE ? FALSE_BYTES : NULL_BYTES;
        peek();
        if (!ensure(word.length) || !Arrays.equals(buf, pos, pos + word.length, word, 0, word.length)) {
            throw new Unsupported("not a literal");
        }
        pos += word.length;
        if (!isDelimiter(peekByte())) {
            throw new Unsupported("junk after a literal");
        }
    }

    // ---------------------------------------------------------------- skipping and capturing

    /** Skips the next value, validating it as Jackson would. */
    public void skipValue() throws IOException {
        skipValue(0);
    }

    private void skipValue(int depth) throws IOException {
        int kind = peekKind();
        switch (kind) {
            case STRING -> scanString(false);
            case NUMBER -> number();
            case OBJECT -> {
                if (depth >= MAX_DEPTH) {
                    throw new Unsupported("nesting deeper than " + MAX_DEPTH);
                }
                if (beginObject()) {
                    do {
                        if (peek() != '"') {
                            throw unsupported(peek(), "a field name");
                        }
                        scanString(true);
                        expect(':');
                        skipValue(depth + 1);
                    } while (nextMember());
                }
            }
            case ARRAY -> {
                if (depth >= MAX_DEPTH) {
                    throw new Unsupported("nesting deeper than " + MAX_DEPTH);
                }
                if (beginArray()) {
                    do {
                        skipValue(depth + 1);
                    } while (nextElement());
                }
            }
            default -> literal(kind);
        }
    }

    /**
     * Skips the next value and returns its bytes (for the few header values a reader hands to
     * Jackson, such as {@code distributedInfo}).
     */
    public byte[] captureValue() throws IOException {
        peek();
        int outer = keep;
        if (outer >= 0) {
            throw new IllegalStateException("nested capture");
        }
        keep = pos;
        skipValue();
        byte[] out = Arrays.copyOfRange(buf, keep, pos);
        keep = -1;
        return out;
    }

    private static Unsupported unsupported(int c, String expected) {
        return new Unsupported(c < 0 ? "end of input where " + expected + " was expected"
                : "byte 0x" + Integer.toHexString(c) + " where " + expected + " was expected");
    }
}
