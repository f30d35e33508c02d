package io.overlapanalyze.formats;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.overlapanalyze.formats.input.FormatDetector;
import io.overlapanalyze.formats.input.InputLimits;
import io.overlapanalyze.formats.input.SniffedInput;
import io.overlapanalyze.formats.input.Sniffer;

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
 *
 * <p>It looks at the head the front door sniffed ({@link SniffedInput}): a trace names
 * {@code traceEvents} (or a dump its {@code entries}) within it, and a small file is all in it, so
 * the file is opened again only when the head cannot tell (a large JSON object with none of those
 * keys in its first {@link FormatDetector#HEAD_BYTES}); then the whole file decides, as the head would
 * have had it been larger.
 */
final class TraceContent {
    private static final JsonFactory JSON = new JsonFactory();
    /** What {@link #verdict} says when the bytes it was given ended before it could tell. */
    private static final String UNDECIDED = new String("undecided");

    private TraceContent() {
    }

    /**
     * Why the sniffed file is not a trace, or {@code null} when it may be one; opened again under
     * {@code limits} through {@code opener} if need be.
     */
    static String notATrace(SniffedInput sniffed, InputLimits limits, Sniffer opener) {
        if (sniffed.content() != FormatDetector.Content.JSON_OBJECT) {
            // A JSON parser starts an object only where the sniff saw '{' first: anything else may be a trace.
            return null;
        }
        try (JsonParser p = JSON.createParser(sniffed.headStream())) {
            String v = verdict(p, sniffed.whole());
            if (v != UNDECIDED) {
                return v;
            }
        } catch (IOException | RuntimeException e) {
            if (sniffed.whole()) {
                return null; // the file is cut or malformed: left to the readers
            }
            // Else the cut of the head may have made it so (a literal or a character split): the file decides.
        }
        return notATrace(sniffed.path(), limits, opener);
    }

    /** Why {@code file} is not a trace, or {@code null} when it may be one: the whole file read; opened under {@code limits}. */
    static String notATrace(Path file, InputLimits limits, Sniffer opener) {
        if (!Files.isRegularFile(file)) {
            return null;
        }
        try (InputStream in = opener.readOn(file, limits); JsonParser p = JSON.createParser(in)) {
            return verdict(p, true);
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /**
     * The verdict on the JSON {@code p} holds: a reason, {@code null} (may be a trace), or
     * {@link #UNDECIDED} when {@code p} holds the first bytes only ({@code whole} false) and they
     * ended before the verdict.
     */
    private static String verdict(JsonParser p, boolean whole) throws IOException {
        JsonToken first = p.nextToken();
        if (first == null && !whole) {
            return UNDECIDED;
        }
        if (first != JsonToken.START_OBJECT) {
            return null;
        }
        String kind = null;
        for (JsonToken t = p.nextToken(); t != JsonToken.END_OBJECT; t = p.nextToken()) {
            if (t == null && !whole) {
                return UNDECIDED;
            }
            if (t != JsonToken.FIELD_NAME) {
                return null;
            }
            String name = p.currentName();
            JsonToken value = p.nextToken();
            // A Kineto trace; or a Flight Recorder dump in its JSON variant (its entries or groups).
            if (name.equals("traceEvents") || name.equals("entries") || name.equals("pg_config")) {
                return null;
            }
            if (value == null && !whole) {
                return UNDECIDED;
            }
            if (name.equals("kind") && value == JsonToken.VALUE_STRING) {
                kind = p.getText();
            }
            p.skipChildren();
        }
        if (p.nextToken() != null) {
            return null;
        }
        if (!whole) {
            return UNDECIDED; // what follows the object in the file decides
        }
        if (ToolFile.isToolKind(kind)) {
            return "not a trace (an " + kind + " file)";
        }
        return "not a trace (a JSON object without \"traceEvents\")";
    }
}
