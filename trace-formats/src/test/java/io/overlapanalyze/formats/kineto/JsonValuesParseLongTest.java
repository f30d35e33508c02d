package io.overlapanalyze.formats.kineto;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * {@link JsonValues#parseLong(byte[], int, int)} agrees with the JDK's {@link Long#parseLong} on
 * every integer text, the 64-bit bounds and one past them included; what the JDK refuses (or
 * what is out of range) reads as {@link JsonValues#NONE}.
 */
class JsonValuesParseLongTest {

    @Test
    void agreesWithTheJdkAtTheBoundsAndOnRandomNumbers() {
        List<String> texts = new ArrayList<>(List.of("0", "-0", "+7", "9", "-9", "9223372036854775807",
                "9223372036854775808", "9223372036854775809", "92233720368547758070", "-9223372036854775807",
                "-9223372036854775808", "-9223372036854775809", "-9223372036854775810", "922337203685477580",
                "922337203685477589", "-922337203685477589", "00000000000000000000009", "", "-", "+", "1x", "1.5"));
        Random random = new Random(32);
        for (int i = 0; i < 20_000; i++) {
            long v = random.nextLong() >> random.nextInt(64);
            texts.add(Long.toString(v));
            texts.add(Long.toString(v) + random.nextInt(10)); // often one digit too many
        }
        for (String text : texts) {
            long expected;
            try {
                expected = Long.parseLong(text);
            } catch (NumberFormatException e) {
                expected = JsonValues.NONE;
            }
            byte[] bytes = ("  " + text + "  ").getBytes(StandardCharsets.US_ASCII);
            assertEquals(expected, JsonValues.parseLong(bytes, 2, text.length()), text);
        }
    }
}
