package io.overlapanalyze.formats.json;

/**
 * Guesses the next key of an object, for {@link Utf8JsonScanner#key(KeyPredictor, int)}: a trace
 * writes the events of a kind with the same keys in the same order and spacing, so the key after
 * {@code "pid"} is nearly always the one that followed it last time, written with the same bytes.
 * For each key it has seen (an id of its {@link KeyTable}, or -1 for any other key), it keeps the
 * key that came next and the exact bytes of its token, from the opening quote to the colon (what
 * {@link Utf8JsonScanner#key(KeyTable)} consumed), when those are at most 16. A guess is checked by
 * comparing those bytes, as two masked words, with the input: the same bytes are the same key, so a
 * right guess gives what scanning would have given, and a wrong one costs the comparison.
 *
 * <p>It also keeps, for each key, the exact bytes that led from the end of its value to the next
 * member's value in the last {@link #MEMBER_WAYS} different ways seen (the comma, the whitespace,
 * the next key's token and the whitespace after its colon; or the whitespace and the closing brace
 * that end the object), when those are at most
 * {@link #MAX_MEMBER_TOKEN} ({@link Utf8JsonScanner#nextKey}). A pretty-printed trace spends more
 * bytes there than in the key itself; several ways, because events of different kinds interleave
 * (after {@code "ts"} a kernel has {@code "dur"}, a flow {@code "id"}).
 *
 * <p>Learns as it goes; one per reader thread and table (it is not thread-safe).
 */
public final class KeyPredictor {
    /** The {@code previous} id for an object's first key (its ways begin with the opening brace). */
    public static final int START = -2;
    /** Tokens longer than this are not kept: two words. */
    static final int MAX_TOKEN = 16;

    final KeyTable keys;
    /** By previous id + 2 (0: the start, 1: any other key): the id that followed it last time, or {@link #NONE}. */
    private final int[] next;
    /** By id + 1: the token's bytes as two little-endian words, zero above its length, and its masks. */
    final long[] word0;
    final long[] word1;
    final long[] mask0;
    final long[] mask1;
    /** By id + 1: the token's length, 0 when none is kept. */
    final int[] length;

    /** Member tokens longer than this are not kept: four words. */
    static final int MAX_MEMBER_TOKEN = 32;
    /** How many ways of going on from one key are kept. */
    static final int MEMBER_WAYS = 4;
    /** By way = (previous id + 2) × {@link #MEMBER_WAYS} + k: the id of the member that followed, whose token is kept below. */
    final int[] memberId;
    /** By way × 4 + word: that member's token as four little-endian words, and their masks. */
    final long[] memberWord;
    final long[] memberMask;
    /** By way: the member token's length, 0 when none is kept. */
    final int[] memberLength;
    /** By previous id + 2: the way the next new token replaces. */
    private final int[] memberVictim;

    /** No guess. */
    static final int NONE = Integer.MIN_VALUE;

    public KeyPredictor(KeyTable keys) {
        this.keys = keys;
        int ids = keys.size() + 1;
        next = new int[ids + 1];
        java.util.Arrays.fill(next, NONE);
        word0 = new long[ids];
        word1 = new long[ids];
        mask0 = new long[ids];
        mask1 = new long[ids];
        length = new int[ids];
        int ways = (ids + 1) * MEMBER_WAYS;
        memberId = new int[ways];
        memberWord = new long[ways * 4];
        memberMask = new long[ways * 4];
        memberLength = new int[ways];
        memberVictim = new int[ids + 1];
    }

    /** The guess after {@code previous}, or {@link #NONE}. */
    int guess(int previous) {
        return next[previous + 2];
    }

    /** Records that {@code id}, written as {@code b[start, end)}, followed {@code previous}. */
    void learn(int previous, int id, byte[] b, int start, int end) {
        next[previous + 2] = id;
        int n = end - start;
        int slot = id + 1;
        if (n > MAX_TOKEN) {
            length[slot] = 0;
            return;
        }
        word0[slot] = KeyTable.word(b, start, Math.min(n, 8));
        word1[slot] = n > 8 ? KeyTable.word(b, start + 8, n - 8) : 0;
        mask0[slot] = n >= 8 ? -1L : (1L << (n << 3)) - 1;
        mask1[slot] = n >= 16 ? -1L : n <= 8 ? 0 : (1L << ((n - 8) << 3)) - 1;
        length[slot] = n;
    }

    /**
     * Records that the member {@code id} followed {@code previous}, the bytes from the end of the
     * previous value to the start of its own value being {@code b[start, end)}; or, with
     * {@link Utf8JsonScanner#END_OF_OBJECT}, that the object ended, those bytes ending with its brace.
     */
    void learnMember(int previous, int id, byte[] b, int start, int end) {
        int n = end - start;
        if (n > MAX_MEMBER_TOKEN) {
            return;
        }
        int slot = previous + 2;
        int way = slot * MEMBER_WAYS + memberVictim[slot];
        memberVictim[slot] = (memberVictim[slot] + 1) % MEMBER_WAYS;
        memberId[way] = id;
        for (int k = 0; k < 4; k++) {
            int from = k * 8;
            int len = Math.max(0, Math.min(8, n - from));
            memberWord[way * 4 + k] = len == 0 ? 0 : KeyTable.word(b, start + from, len);
            memberMask[way * 4 + k] = len == 8 ? -1L : (1L << (len << 3)) - 1;
        }
        memberLength[way] = n;
    }
}
