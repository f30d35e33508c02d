package io.overlapanalyze.formats.kineto;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.overlapanalyze.model.ProcessGroup;

import java.io.EOFException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The trace's {@code distributedInfo} header (kineto.md §2.2).
 *
 * @param rank      global rank, or {@code null} when absent
 * @param worldSize world size, or {@code null} when absent
 * @param groups    {@code pg_config} entries
 */
record DistributedInfo(Integer rank, Integer worldSize, List<ProcessGroup> groups) {
    static final DistributedInfo ABSENT = new DistributedInfo(null, null, List.of());

    /** Reads the object at the current token. */
    static DistributedInfo read(JsonParser p) throws IOException {
        JsonToken t = p.currentToken();
        if (t == JsonToken.VALUE_NULL) {
            return ABSENT;
        }
        if (t != JsonToken.START_OBJECT) {
            throw new BadTraceException("\"distributedInfo\" is " + JsonValues.describe(t) + ", expected an object");
        }
        Integer rank = null;
        Integer world = null;
        List<ProcessGroup> groups = new ArrayList<>();
        for (JsonToken f = p.nextToken(); f != JsonToken.END_OBJECT; f = p.nextToken()) {
            if (f == null) {
                throw new EOFException("end of input inside distributedInfo");
            }
            String key = p.currentName();
            p.nextToken();
            switch (key) {
                case "rank":
                    rank = intField(p, "distributedInfo.rank");
                    break;
                case "world_size":
                    world = intField(p, "distributedInfo.world_size");
                    break;
                case "pg_config":
                    readGroups(p, groups);
                    break;
                default:
                    p.skipChildren();
            }
        }
        return new DistributedInfo(rank, world, groups);
    }

    private static Integer intField(JsonParser p, String field) throws IOException {
        JsonToken t = p.currentToken();
        if (t == JsonToken.VALUE_NULL) {
            return null;
        }
        long v = JsonValues.lenientLong(p);
        if (v == JsonValues.NONE || v < Integer.MIN_VALUE || v > Integer.MAX_VALUE) {
            throw new BadTraceException("\"" + field + "\" is " + JsonValues.describe(t) + " that is not an integer");
        }
        return (int) v;
    }

    private static void readGroups(JsonParser p, List<ProcessGroup> out) throws IOException {
        if (p.currentToken() != JsonToken.START_ARRAY) {
            p.skipChildren(); // unexpected shape: optional metadata, ignore
            return;
        }
        for (JsonToken e = p.nextToken(); e != JsonToken.END_ARRAY; e = p.nextToken()) {
            if (e == null) {
                throw new EOFException("end of input inside pg_config");
            }
            if (e != JsonToken.START_OBJECT) {
                p.skipChildren();
                continue;
            }
            String name = null;
            String desc = null;
            String ranks = null;
            for (JsonToken f = p.nextToken(); f != JsonToken.END_OBJECT; f = p.nextToken()) {
                if (f == null) {
                    throw new EOFException("end of input inside pg_config");
                }
                String key = p.currentName();
                p.nextToken();
                switch (key) {
                    case "pg_name":
                        name = JsonValues.lenientText(p);
                        break;
                    case "pg_desc":
                        desc = JsonValues.lenientText(p);
                        break;
                    case "ranks": // a JSON array from PyTorch, a string "[0, 1]" from Kineto's on-demand path
                        ranks = JsonValues.arrayOrScalarText(p);
                        break;
                    default:
                        p.skipChildren();
                }
            }
            out.add(new ProcessGroup(name, desc, parseRanks(ranks)));
        }
    }

    /** Parses "[0, 1, 2]" (or "0,1,2"); an empty list when absent or malformed. */
    static List<Integer> parseRanks(String text) {
        if (text == null) {
            return List.of();
        }
        String s = text.trim();
        if (s.startsWith("[")) {
            s = s.substring(1);
        }
        if (s.endsWith("]")) {
            s = s.substring(0, s.length() - 1);
        }
        if (s.isBlank()) {
            return List.of();
        }
        List<Integer> ranks = new ArrayList<>();
        for (String part : s.split(",")) {
            try {
                ranks.add(Integer.parseInt(part.trim()));
            } catch (NumberFormatException e) {
                return List.of();
            }
        }
        return ranks;
    }
}
