package io.overlapanalyze.formats.input;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.overlapanalyze.synth.Job;
import io.overlapanalyze.synth.ScenarioException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The generator stands alone, so it words a broken scenario or job file with its own copy of
 * {@link JsonProblem}; the two must say the same words for every kind of JSON error. Each document is
 * parsed by Jackson for real (with the job parser's settings) and by the generator's job parser.
 */
class JsonWordingParityTest {
    private static final JsonMapper JOB_SETTINGS = JsonMapper.builder()
            .enable(JsonReadFeature.ALLOW_JAVA_COMMENTS)
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .build();

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {
            "{\"a\": @}", "{\"a\": x}", "{\"a\": 1 \"b\": 2}", "[1 2]", "{a: 1}", "{\"a\" 1}", "{\"a\": tru}",
            "{\"a\": [1, 2}", "{\"a\": [1, 2", "{\"a\": {\"b\": 1", "{\"a\": \"bc", "{\"a\": 01}", "{\"a\": NaN}",
            "{\"a\": 1, \"a\": 2}", "{\"a\": \"x\u0001y\"}", "{\"a\": 1e}", "{\"a\": \"\u00e9\u2028\"",
            "{\"a\": ]"})
    void theGeneratorSaysWhatTheReadersSay(String doc) {
        JsonProcessingException e = assertThrows(JsonProcessingException.class, () -> JOB_SETTINGS.readTree(doc));
        ScenarioException said = assertThrows(ScenarioException.class, () -> Job.parse(doc, "f.job.json"));
        assertEquals("job f.job.json: not valid JSON: " + JsonProblem.describe(e), said.getMessage(),
                "Jackson said: " + e.getOriginalMessage());
    }
}
