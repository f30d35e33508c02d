package io.overlapanalyze.render.escape;

import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.io.CharacterEscapes;
import com.fasterxml.jackson.core.io.SerializedString;

/**
 * The JSON kind (reports, summaries): the JSON writer already writes C0 controls as escapes; this
 * also writes DEL, the C1 controls, the line separators and the bidirectional formatting characters
 * ({@link Visible}) as {@code \}{@code u} escapes. The data reads back identical; the file holds no
 * byte that acts on a terminal ({@code cat report.json}) or reorders a line in an editor.
 */
public final class JsonEscapes extends CharacterEscapes {
    private static final long serialVersionUID = 1L;

    private final int[] ascii;

    public JsonEscapes() {
        ascii = CharacterEscapes.standardAsciiEscapesForJSON();
        ascii[0x7f] = CharacterEscapes.ESCAPE_STANDARD;
    }

    @Override
    public int[] getEscapeCodesForAscii() {
        return ascii;
    }

    @Override
    public SerializableString getEscapeSequence(int ch) {
        if (ch > 0x7f && Visible.hiddenChar(ch)) {
            String hex = Integer.toHexString(ch);
            return new SerializedString("\\u" + "0".repeat(4 - hex.length()) + hex);
        }
        return null;
    }
}
