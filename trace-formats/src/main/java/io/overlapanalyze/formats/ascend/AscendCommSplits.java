package io.overlapanalyze.formats.ascend;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.overlapanalyze.formats.input.InputLimits;
import io.overlapanalyze.formats.input.Messages;
import io.overlapanalyze.formats.input.TraceFormatException;
import io.overlapanalyze.formats.sqlite.ReadOnlySqlite;
import io.overlapanalyze.model.Collective;
import io.overlapanalyze.model.DeviceIntervals;
import io.overlapanalyze.model.RankTrace;

import java.io.IOException;
import java.io.InputStream;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The profiler's own split of each HCCL op into transfer and the rest (metrics.md §12 rule 1),
 * attached to the collectives the timeline reader built.
 *
 * <p>Sources (ascend.md §7): the text export's {@code ASCEND_PROFILER_OUTPUT/communication.json}
 * ({@code {"step<N>": {"collective"|"p2p": {"<op>@<group hash>": {"Communication Time Info":
 * {"Elapse Time(ms)", "Transit Time(ms)", …}}}}}}) and the DB export's {@code analysis.db} table
 * {@code CommAnalyzerTime(hccl_op_name, group_name, start_timestamp, elapse_time, transit_time, …)}.
 * Transfer = Transit; waiting = the rest of the op's <em>device</em> span (Huawei's Wait,
 * Synchronization and Idle together: Idle = Elapse − Transit − Wait), so transfer + wait is exactly
 * the span the analysis measures. Values are decimal ms, converted exactly (no {@code double}) and
 * rounded half-up to the ns; a Transit longer than the span is clamped to it.
 *
 * <p>Matching: by op name ({@code hcom_allReduce__586_0_1}), the cross-rank key of PROVENANCE.md;
 * the group hash must end with the name's 3-digit group tag when the name has one. The start
 * timestamp is a lossy double (ascend.md §7) and never a key: when a name occurs several times
 * (several steps), the file's entries and the trace's collectives of that name are paired in start
 * order, and only when both have the same count; otherwise that name keeps no split (a warning).
 *
 * <p>Group size: {@code communication_matrix.json} (per op bucket {@code "<bucket>@<hash>"}, links
 * {@code "src-dst"}) and {@code CommAnalyzerMatrix(group_name, src_rank, dst_rank)} name the ranks
 * each group links; their count is the collective's {@link Collective#groupSize()} (the capture of 2
 * of the 8 ranks of a job still names 8).
 *
 * <p>Bounds: the JSON files are streamed (one op's object in memory at a time) and refused above
 * {@link InputLimits#maxDecompressedBytes()}; the tables are read row by row. A side file that
 * cannot be read costs the split, never the trace (a warning says so).
 */
final class AscendCommSplits {
    static final String COMMUNICATION_JSON = "communication.json";
    static final String MATRIX_JSON = "communication_matrix.json";
    static final String ANALYSIS_DB = "analysis.db";
    private static final BigDecimal NS_PER_MS = BigDecimal.valueOf(1_000_000L);
    private static final ObjectMapper JSON = new ObjectMapper(JsonFactory.builder()
            .streamReadConstraints(InputLimits.PARSER_CONSTRAINTS).build())
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);

    /** One op as the profiler split it: its group hash, start (only for ordering) and times in ns. */
    record Op(String name, String groupHash, BigDecimal start, long elapseNs, long transitNs) {
    }

    /** Every op of a side file, and the size of each group (by hash) where the matrix names its ranks. */
    record Splits(List<Op> ops, Map<String, Integer> groupSizes, String source) {
    }

    private AscendCommSplits() {
    }

    /** {@code traces} with the split of {@code out/communication.json} attached; unchanged without it. */
    static List<RankTrace> attachJson(List<RankTrace> traces, Path out, InputLimits limits) {
        Path json = out.resolve(COMMUNICATION_JSON);
        if (!Files.isRegularFile(json)) {
            return traces;
        }
        Splits s;
        try {
            s = new Splits(readJsonOps(json, limits), readJsonMatrix(out.resolve(MATRIX_JSON), limits), COMMUNICATION_JSON);
        } catch (IOException | RuntimeException e) {
            return warnAll(traces, COMMUNICATION_JSON + " not read (" + Messages.oneLine(e) + "): transfer and waiting of"
                    + " the collectives are not split by the profiler");
        }
        return attach(traces, s);
    }

    /** {@code traces} with the split of {@code analysis.db}'s {@code CommAnalyzerTime}; unchanged without it. */
    static List<RankTrace> attachDb(List<RankTrace> traces, Path analysisDb, InputLimits limits) {
        if (!Files.isRegularFile(analysisDb)) {
            return traces;
        }
        Splits s;
        try (ReadOnlySqlite c = ReadOnlySqlite.open(analysisDb, limits)) {
            if (!c.hasTable("CommAnalyzerTime")) {
                return traces;
            }
            c.requireTablesOnly("CommAnalyzerTime", "CommAnalyzerMatrix");
            s = new Splits(readDbOps(c), c.hasTable("CommAnalyzerMatrix") ? readDbMatrix(c) : Map.of(),
                    "analysis.db CommAnalyzerTime");
        } catch (SQLException | IOException | TraceFormatException | RuntimeException e) {
            return warnAll(traces, "analysis.db CommAnalyzerTime not read (" + Messages.oneLine(e) + "): transfer and"
                    + " waiting of the collectives are not split by the profiler");
        }
        return attach(traces, s);
    }

    /** The ops of communication.json, streamed: one op object at a time. */
    static List<Op> readJsonOps(Path json, InputLimits limits) throws IOException {
        requireSize(json, limits);
        List<Op> ops = new ArrayList<>();
        try (InputStream in = Files.newInputStream(json); JsonParser p = JSON.createParser(in)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw new IOException("the top-level value is not an object");
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) { // "step<N>" | "step"
                if (p.nextToken() != JsonToken.START_OBJECT) {
                    p.skipChildren();
                    continue;
                }
                while (p.nextToken() == JsonToken.FIELD_NAME) { // "collective" | "p2p"
                    if (p.nextToken() != JsonToken.START_OBJECT) {
                        p.skipChildren();
                        continue;
                    }
                    while (p.nextToken() == JsonToken.FIELD_NAME) {
                        String key = p.currentName();
                        p.nextToken();
                        JsonNode op = JSON.readTree(p);
                        Op parsed = jsonOp(key, op);
                        if (parsed != null) {
                            ops.add(parsed);
                        }
                    }
                }
            }
        }
        return ops;
    }

    /** One {@code "<op>@<hash>"} entry; {@code null} for "Total Op Info" and entries without times. */
    private static Op jsonOp(String key, JsonNode op) {
        int at = key.lastIndexOf('@');
        if (at <= 0) {
            return null;
        }
        JsonNode t = op.path("Communication Time Info");
        BigDecimal elapse = decimal(t.get("Elapse Time(ms)"));
        BigDecimal transit = decimal(t.get("Transit Time(ms)"));
        if (elapse == null || transit == null) {
            return null;
        }
        BigDecimal start = decimal(t.get("Start Timestamp(us)"));
        return new Op(key.substring(0, at), key.substring(at + 1), start, msToNs(elapse), msToNs(transit));
    }

    /** Group hash → how many ranks its links name, from communication_matrix.json; empty without it. */
    static Map<String, Integer> readJsonMatrix(Path json, InputLimits limits) throws IOException {
        if (!Files.isRegularFile(json)) {
            return Map.of();
        }
        requireSize(json, limits);
        Map<String, Set<String>> ranks = new HashMap<>();
        try (InputStream in = Files.newInputStream(json); JsonParser p = JSON.createParser(in)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return Map.of();
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                if (p.nextToken() != JsonToken.START_OBJECT) {
                    p.skipChildren();
                    continue;
                }
                while (p.nextToken() == JsonToken.FIELD_NAME) {
                    if (p.nextToken() != JsonToken.START_OBJECT) {
                        p.skipChildren();
                        continue;
                    }
                    while (p.nextToken() == JsonToken.FIELD_NAME) { // "<bucket>@<hash>"
                        String key = p.currentName();
                        p.nextToken();
                        JsonNode links = JSON.readTree(p);
                        int at = key.lastIndexOf('@');
                        if (at < 0 || links == null || !links.isObject()) {
                            continue;
                        }
                        Set<String> members = ranks.computeIfAbsent(key.substring(at + 1), k -> new HashSet<>());
                        links.fieldNames().forEachRemaining(link -> addLink(link, members));
                    }
                }
            }
        }
        return sizes(ranks);
    }

    private static void addLink(String link, Set<String> members) {
        int dash = link.indexOf('-');
        if (dash > 0 && dash < link.length() - 1) {
            members.add(link.substring(0, dash).trim());
            members.add(link.substring(dash + 1).trim());
        }
    }

    private static Map<String, Integer> sizes(Map<String, Set<String>> ranks) {
        Map<String, Integer> out = new HashMap<>();
        ranks.forEach((hash, members) -> {
            if (!members.isEmpty()) {
                out.put(hash, members.size());
            }
        });
        return out;
    }

    private static List<Op> readDbOps(ReadOnlySqlite c) throws SQLException {
        List<Op> ops = new ArrayList<>();
        long budget = c.rowBudget();
        try (Statement s = c.connection().createStatement(); ResultSet rs = s.executeQuery(
                "SELECT hccl_op_name, group_name, start_timestamp, elapse_time, transit_time FROM CommAnalyzerTime")) {
            long rows = 0;
            while (rs.next()) {
                if (++rows > budget) {
                    throw new SQLException("more rows than the file can store");
                }
                String name = rs.getString(1);
                BigDecimal elapse = decimal(rs.getString(4));
                BigDecimal transit = decimal(rs.getString(5));
                if (name == null || elapse == null || transit == null) {
                    continue;
                }
                ops.add(new Op(name, rs.getString(2), decimal(rs.getString(3)), msToNs(elapse), msToNs(transit)));
            }
        }
        return ops;
    }

    private static Map<String, Integer> readDbMatrix(ReadOnlySqlite c) throws SQLException {
        Map<String, Set<String>> ranks = new HashMap<>();
        long budget = c.rowBudget();
        try (Statement s = c.connection().createStatement(); ResultSet rs = s.executeQuery(
                "SELECT group_name, src_rank, dst_rank FROM CommAnalyzerMatrix")) {
            long rows = 0;
            while (rs.next()) {
                if (++rows > budget) {
                    throw new SQLException("more rows than the file can store");
                }
                String group = rs.getString(1);
                if (group == null || rs.getString(2) == null || rs.getString(3) == null) {
                    continue;
                }
                Set<String> members = ranks.computeIfAbsent(group, k -> new HashSet<>());
                members.add(rs.getString(2).trim());
                members.add(rs.getString(3).trim());
            }
        }
        return sizes(ranks);
    }

    /**
     * Each trace's collectives with the split of the op of the same name (see the class comment).
     * A side file beside a timeline of several devices cannot say which device an op ran on: then
     * nothing is attached.
     */
    static List<RankTrace> attach(List<RankTrace> traces, Splits s) {
        if (traces.size() != 1 || s.ops().isEmpty()) {
            return traces;
        }
        RankTrace t = traces.get(0);
        Map<String, List<Op>> byName = new LinkedHashMap<>();
        for (Op op : s.ops()) {
            byName.computeIfAbsent(op.name(), k -> new ArrayList<>()).add(op);
        }
        Map<String, List<Collective>> collectivesByName = new HashMap<>();
        for (Collective c : t.collectives()) {
            if (c.name() != null && c.deviceIntervals().length > 0) {
                collectivesByName.computeIfAbsent(c.name(), k -> new ArrayList<>()).add(c);
            }
        }
        DeviceIntervals dev = t.device();
        List<Collective> out = new ArrayList<>(t.collectives());
        List<String> unpaired = new ArrayList<>();
        int attached = 0;
        for (Map.Entry<String, List<Collective>> e : collectivesByName.entrySet()) {
            List<Op> ops = byName.getOrDefault(e.getKey(), List.of());
            HcclOpName parsed = HcclOpName.parse(e.getKey());
            ops = ops.stream().filter(o -> parsed == null || o.groupHash() == null
                    || o.groupHash().endsWith(parsed.groupTag())).toList();
            List<Collective> cs = e.getValue();
            if (ops.isEmpty()) {
                continue;
            }
            if (ops.size() != cs.size()) {
                unpaired.add(e.getKey());
                continue;
            }
            List<Op> sortedOps = new ArrayList<>(ops);
            // Entries without a start keep the file's order (a stable sort).
            sortedOps.sort(Comparator.comparing(Op::start, Comparator.nullsLast(Comparator.naturalOrder())));
            List<Collective> sortedCs = new ArrayList<>(cs);
            sortedCs.sort(Comparator.comparingLong(c -> dev.start(c.deviceIntervals()[0])));
            for (int k = 0; k < sortedCs.size(); k++) {
                Collective c = sortedCs.get(k);
                Op op = sortedOps.get(k);
                long span = span(dev, c);
                long transfer = Math.min(Math.max(op.transitNs(), 0), span);
                Integer size = op.groupHash() == null ? null : s.groupSizes().get(op.groupHash());
                out.set(c.id(), c.withProfilerSplit(transfer, span - transfer, size == null ? -1 : size));
                attached++;
            }
        }
        RankTrace result = attached == 0 ? t : t.withCollectives(out);
        if (!unpaired.isEmpty()) {
            unpaired.sort(null);
            result = result.withWarning(s.source() + ": " + unpaired.size() + " op name(s) occur a different number"
                    + " of times than in the timeline (e.g. " + unpaired.get(0) + "): those collectives keep no"
                    + " profiler split");
        }
        return List.of(result);
    }

    /** The device span of a collective: first start to latest end of its intervals. */
    private static long span(DeviceIntervals dev, Collective c) {
        long start = Long.MAX_VALUE;
        long end = Long.MIN_VALUE;
        for (int i : c.deviceIntervals()) {
            start = Math.min(start, dev.start(i));
            end = Math.max(end, dev.end(i));
        }
        return Math.max(0, end - start);
    }

    private static void requireSize(Path file, InputLimits limits) throws IOException {
        long size = Files.size(file);
        long max = limits.maxDecompressedBytes();
        if (size > max) {
            throw new IOException(size + " bytes, over the input limit of " + max + " bytes");
        }
    }

    /** Decimal ms → ns, half-up; never through double. */
    static long msToNs(BigDecimal ms) {
        return ms.multiply(NS_PER_MS).setScale(0, RoundingMode.HALF_UP).longValueExact();
    }

    private static BigDecimal decimal(JsonNode n) {
        if (n == null || n.isNull()) {
            return null;
        }
        if (n.isNumber()) {
            return n.decimalValue();
        }
        return decimal(n.asText());
    }

    private static BigDecimal decimal(String text) {
        if (text == null || text.isBlank()) {
            return null;
        }
        try {
            return new BigDecimal(text.trim());
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static List<RankTrace> warnAll(List<RankTrace> traces, String warning) {
        List<RankTrace> out = new ArrayList<>(traces.size());
        for (RankTrace t : traces) {
            out.add(t.withWarning(warning));
        }
        return out;
    }
}
