package io.overlapanalyze.formats.input;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Issue 29 item 10: parser errors are said in plain words, without Jackson's jargon (token names,
 * "(code 120)", markers, Java sources). Each document is parsed by Jackson for real.
 */
class JsonProblemTest {
    private static final ObjectMapper JSON = new ObjectMapper()
            .enable(com.fasterxml.jackson.core.JsonParser.Feature.STRICT_DUPLICATE_DETECTION);

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
            "{\"a\": @}|unexpected character '@' where a value belongs",
            "{\"a\": x}|unexpected word 'x' where a value belongs (a string must be in double quotes; true, false and null are lower case)",
            "{\"a\": 1 \"b\": 2}|unexpected character '\"' where ',' or '}' belongs",
            "[1 2]|unexpected character '2' where ',' or ']' belongs",
            "{a: 1}|unexpected character 'a' where a key in double quotes belongs",
            "{\"a\" 1}|unexpected character '1' where ':' belongs",
            "{\"a\": tru}|unexpected word 'tru' where a value belongs (a string must be in double quotes; true, false and null are lower case)",
            "{\"a\": [1, 2}|'}' where ']' closes the open array",
            "{\"a\": [1, 2|the document ends inside an array (the file is cut?)",
            "{\"a\": {\"b\": 1|the document ends inside an object (the file is cut?)",
            "{\"a\": \"bc|the document ends inside a string (the file is cut?)",
            "{\"a\": 01}|a malformed number or value (JSON numbers are plain decimals: no leading zeros, NaN or Infinity)",
            "{\"a\": NaN}|a malformed number or value (JSON numbers are plain decimals: no leading zeros, NaN or Infinity)",
            "{\"a\": 1, \"a\": 2}|a key given twice in one object",
            "// hi|unexpected character '/' (JSON has no comments)"})
    void plainWords(String doc, String expected) {
        JsonProcessingException e = assertThrows(JsonProcessingException.class, () -> JSON.readTree(doc));
        String said = JsonProblem.describe(e);
        assertEquals(expected, said, "Jackson said: " + e.getOriginalMessage());
        for (String jargon : new String[] {"Source", "code", "token", "VALUE_", "marker", "Unexpected", "Unrecognized",
                "CTRL-CHAR", "end-of-input"}) {
            assertFalse(said.contains(jargon), said);
        }
    }

    @org.junit.jupiter.api.Test
    void aRawControlCharacterInAString() {
        JsonProcessingException e = assertThrows(JsonProcessingException.class, () -> JSON.readTree("{\"a\": \"x\u0001y\"}"));
        assertEquals("a raw control character (code 1) inside a string, where JSON wants it escaped", JsonProblem.describe(e),
                e.getOriginalMessage());
    }
}
