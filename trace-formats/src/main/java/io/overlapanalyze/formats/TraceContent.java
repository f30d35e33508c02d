package io.overlapanalyze.formats;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.overlapanalyze.formats.input.InputStreams;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Tells a file found in a directory that is no trace at all (a job's {@code config.json}, a saved
 * result) from a trace that is damaged. Only a whole, well-formed JSON object without
 * {@code traceEvents} counts as no trace: every reader refuses such a file, so skipping it loses
 * nothing; anything cut, malformed or of unknown content is left to the readers, which name the
 * damage (a damaged rank file must not pass as a stray one).
 */
final class TraceContent {
    private static final JsonFactory JSON = new JsonFactory();
    private static final String TOOL_KIND = "overlap-analyze ";

    private TraceContent() {
    }

    /** Why {@code file} is not a trace, or {@code null} when it may be one; opened under {@code limits}. */
    static String notATrace(Path file, io.overlapanalyze.formats.input.InputLimits limits) {
        if (!Files.isRegularFile(file)) {
            return null;
        }
        String kind = null;
        try (InputStream in = InputStreams.open(file, limits); JsonParser p = JSON.createParser(in)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return null;
            }
            for (JsonToken t = p.nextToken(); t != JsonToken.END_OBJECT; t = p.nextToken()) {
                if (t != JsonToken.FIELD_NAME) {
                    return null;
                }
                String name = p.currentName();
                JsonToken value = p.nextToken();
                // A Kineto trace; or a Flight Recorder dump in its JSON variant (its entries or groups).
                if (name.equals("traceEvents") || name.equals("entries") || name.equals("pg_config")) {
                    return null;
                }
                if (name.equals("kind") && value == JsonToken.VALUE_STRING) {
                    kind = p.getText();
                }
                p.skipChildren();
            }
            if (p.nextToken() != null) {
                return null;
            }
        } catch (IOException | RuntimeException e) {
            return null;
        }
        if (kind != null && kind.startsWith(TOOL_KIND)) {
            return "not a trace (an " + kind + " file)";
        }
        return "not a trace (a JSON object without \"traceEvents\")";
    }
}
