package io.overlapanalyze.formats.flightrecorder;

import io.overlapanalyze.formats.input.TraceFormatException;
import io.overlapanalyze.model.Collective;
import io.overlapanalyze.model.CollectiveType;
import io.overlapanalyze.model.DeviceIntervals;
import io.overlapanalyze.model.FlightEntry;
import io.overlapanalyze.model.FlightGroupStatus;
import io.overlapanalyze.model.FlightRecorderDump;
import io.overlapanalyze.model.MemorySamples;
import io.overlapanalyze.model.ProcessGroup;
import io.overlapanalyze.model.RankSource;
import io.overlapanalyze.model.RankTrace;
import io.overlapanalyze.model.StringPool;
import io.overlapanalyze.model.Time;
import io.overlapanalyze.model.TraceFormat;

import java.math.BigInteger;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns the plain value tree of one Flight Recorder dump (from the pickle or the JSON variant: the
 * same keys) into a rank trace: the groups of {@code pg_config}, one {@link Collective} per buffered
 * collective (no device intervals: a dump has no device timeline; point-to-point operations only in
 * the dump's entries, where they are matched by pair) and the dump's own content as a
 * {@link FlightRecorderDump}.
 */
final class DumpDecoder {
    private static final Pattern TRAILING_DIGITS = Pattern.compile("(?<!\\d)(\\d++)(?:\\.json)?$");
    /** "0->3", "3<-0": starts only where a run of digits starts, gives nothing back (linear in the name). */
    static final Pattern PAIR = Pattern.compile("(?<!\\d)(\\d++)\\s*+(->|<-)\\s*+(\\d++)");
    private static final Pattern DIGITS = Pattern.compile("-?\\d+");

    /** Why every overlap and communication figure of a dump is unknown (the renderers print it). */
    static final String NO_DEVICE_TIMELINE = "Flight Recorder dump: no device timeline";

    private final Path file;

    DumpDecoder(Path file) {
        this.file = file;
    }

    RankTrace decode(Object root) throws TraceFormatException {
        if (!(root instanceof Map<?, ?> top)) {
            throw bad("the dump is not a dict");
        }
        String version = text(top.get("version"));
        if (version == null || !top.containsKey("entries") && !top.containsKey("pg_config")) {
            throw bad("not a Flight Recorder dump (no version, entries or pg_config)");
        }
        List<ProcessGroup> groups = groups(top.get("pg_config"));
        Map<String, ProcessGroup> byName = new HashMap<>();
        for (ProcessGroup g : groups) {
            byName.put(g.name(), g);
        }
        List<FlightEntry> entries = entries(top.get("entries"));
        List<FlightGroupStatus> status = status(top.get("pg_status"), entries, groups);
        List<Collective> collectives = new ArrayList<>(entries.size());
        for (FlightEntry e : entries) {
            if (e.p2p()) {
                // Point-to-point operations are matched by pair (send a->b against recv b<-a), which the
                // collective matching of the common model cannot do: they stay in the dump's entries.
                continue;
            }
            ProcessGroup g = byName.get(e.groupName());
            if (g == null) {
                g = new ProcessGroup(e.groupName(), e.groupDesc(), List.of());
            }
            collectives.add(new Collective(collectives.size(), e.type(), e.name(), g, e.matchSeq(), e.inElements(),
                    e.outElements(), e.dtype(), -1, e.createdNs(), -1, new int[0]));
        }
        int rank = 0;
        RankSource source = RankSource.DEFAULT;
        Object declared = top.get("rank");
        if (declared instanceof Number n) {
            rank = n.intValue();
            source = RankSource.TRACE;
        } else {
            // PyTorch writes a dump to <TORCH_NCCL_DEBUG_INFO_TEMP_FILE><rank>: the trailing digits are the rank.
            Matcher m = TRAILING_DIGITS.matcher(file.getFileName().toString());
            if (m.find() && m.group(1).length() < 9) {
                rank = Integer.parseInt(m.group(1));
                source = RankSource.FILE_NAME;
            }
        }
        int world = -1;
        for (ProcessGroup g : groups) {
            if ("default_pg".equals(g.description()) && !g.ranks().isEmpty()) {
                world = g.ranks().size();
            }
        }
        List<String> warnings = new ArrayList<>();
        // "nccl_version" up to format 2.9; 2.10 renamed it "comm_lib_version" (the dump is no longer NCCL-only).
        String nccl = text(top.containsKey("nccl_version") ? top.get("nccl_version") : top.get("comm_lib_version"));
        return new RankTrace(file.toString(), TraceFormat.FLIGHT_RECORDER, rank, source, world, List.of(),
                new DeviceIntervals(new StringPool(), 0), List.of(), List.of(), collectives, groups, new long[0],
                false, false, warnings, List.of(), List.of(), MemorySamples.empty(), NO_DEVICE_TIMELINE, List.of(), List.of(),
                new FlightRecorderDump(version, nccl, entries, status));
    }

    private List<ProcessGroup> groups(Object config) throws TraceFormatException {
        if (config == null) {
            return List.of();
        }
        if (!(config instanceof Map<?, ?> map)) {
            throw bad("pg_config is not a dict");
        }
        List<ProcessGroup> out = new ArrayList<>();
        for (Map.Entry<?, ?> e : map.entrySet()) {
            String key = text(e.getKey());
            if (!(e.getValue() instanceof Map<?, ?> g)) {
                throw bad("pg_config[" + key + "] is not a dict");
            }
            String name = text(g.get("name"));
            if (name == null && key == null) {
                throw bad("a pg_config group has no name");
            }
            out.add(new ProcessGroup(name != null ? name : key, text(g.get("desc")), ranks(g.get("ranks"))));
        }
        out.sort(Comparator.comparing(ProcessGroup::name, DumpDecoder::numericFirst));
        return out;
    }

    /** Member ranks: a string {@code "[0, 1, 2]"} in the dumps PyTorch writes, or a list. */
    private List<Integer> ranks(Object value) throws TraceFormatException {
        List<Integer> out = new ArrayList<>();
        if (value instanceof String s) {
            Matcher m = DIGITS.matcher(s);
            while (m.find()) {
                out.add(intOf(m.group()));
            }
        } else if (value != null) {
            for (Object o : list(value, "ranks")) {
                out.add(intOf(Long.toString(number(o, "ranks"))));
            }
        }
        return out;
    }

    private List<FlightEntry> entries(Object value) throws TraceFormatException {
        if (value == null) {
            return List.of();
        }
        List<FlightEntry> out = new ArrayList<>();
        for (Object o : list(value, "entries")) {
            if (!(o instanceof Map<?, ?> e)) {
                throw bad("an entry is not a dict");
            }
            out.add(entry(e));
        }
        return out;
    }

    private FlightEntry entry(Map<?, ?> e) throws TraceFormatException {
        String groupName = null;
        String groupDesc = null;
        Object pg = e.get("process_group");
        if (pg != null) {
            List<?> pair = list(pg, "process_group");
            groupName = pair.isEmpty() ? null : text(pair.get(0));
            groupDesc = pair.size() < 2 ? null : text(pair.get(1));
        }
        int localId = e.get("pg_id") == null ? -1 : intOf(Long.toString(number(e.get("pg_id"), "pg_id")));
        if (groupName == null) {
            groupName = localId >= 0 ? String.valueOf(localId) : "?";
        }
        String name = text(e.get("profiling_name"));
        boolean p2p = Boolean.TRUE.equals(e.get("is_p2p"));
        CollectiveType type = CollectiveType.fromName(name);
        int from = -1;
        int to = -1;
        if (name != null && (type == CollectiveType.SEND || type == CollectiveType.RECV)) {
            Matcher m = PAIR.matcher(name);
            if (m.find()) {
                int a = intOf(m.group(1));
                int b = intOf(m.group(3));
                // "send 0->3": 0 sends to 3; "recv 3<-0": 3 receives from 0. Both are the pair 0->3.
                from = "->".equals(m.group(2)) ? a : b;
                to = "->".equals(m.group(2)) ? b : a;
            }
            p2p = true;
        }
        return new FlightEntry(optLong(e.get("record_id"), -1), groupName, groupDesc, localId,
                optLong(e.get("collective_seq_id"), -1), optLong(e.get("p2p_seq_id"), -1), p2p, name, type, from, to,
                shapes(e.get("input_sizes")), strings(e.get("input_dtypes")), shapes(e.get("output_sizes")),
                strings(e.get("output_dtypes")), text(e.get("state")), optLong(e.get("time_created_ns"), Time.UNKNOWN),
                optLong(e.get("time_discovered_started_ns"), Time.UNKNOWN),
                optLong(e.get("time_discovered_completed_ns"), Time.UNKNOWN), text(e.get("thread_name")));
    }

    /**
     * {@code pg_status} is keyed by the rank's local group id, {@code pg_config} by group name. The
     * entries tie the two where the rank buffered an operation of the group; for the other groups,
     * PyTorch numbers groups in creation order on every rank and names them by a global creation
     * counter, so the ids and the names, each in numeric order, pair up one to one when there are as
     * many of each and that pairing agrees with every tie the entries make. Otherwise the status
     * stays without a name.
     */
    private List<FlightGroupStatus> status(Object value, List<FlightEntry> entries, List<ProcessGroup> groups)
            throws TraceFormatException {
        if (value == null) {
            return List.of();
        }
        if (!(value instanceof Map<?, ?> map)) {
            throw bad("pg_status is not a dict");
        }
        TreeMap<Integer, Map<?, ?>> byId = new TreeMap<>();
        for (Map.Entry<?, ?> e : map.entrySet()) {
            if (!(e.getValue() instanceof Map<?, ?> s)) {
                throw bad("pg_status[" + text(e.getKey()) + "] is not a dict");
            }
            String key = text(e.getKey());
            if (key == null) {
                throw bad("a pg_status key is not a group id");
            }
            byId.put(intOf(key), s);
        }
        Map<Integer, String> tied = new HashMap<>();
        for (FlightEntry e : entries) {
            if (e.localGroupId() >= 0) {
                tied.put(e.localGroupId(), e.groupName());
            }
        }
        Map<Integer, String> byOrder = new HashMap<>();
        if (groups.size() == byId.size()) {
            int i = 0;
            boolean agrees = true;
            for (Integer id : byId.keySet()) {
                String name = groups.get(i++).name();
                byOrder.put(id, name);
                if (tied.containsKey(id) && !tied.get(id).equals(name)) {
                    agrees = false;
                }
            }
            if (!agrees) {
                byOrder.clear();
            }
        }
        List<FlightGroupStatus> out = new ArrayList<>();
        for (Map.Entry<Integer, Map<?, ?>> e : byId.entrySet()) {
            Map<?, ?> s = e.getValue();
            String name = tied.getOrDefault(e.getKey(), byOrder.get(e.getKey()));
            out.add(new FlightGroupStatus(name, e.getKey(), optLong(s.get("last_enqueued_collective"), -1),
                    optLong(s.get("last_started_collective"), -1), optLong(s.get("last_completed_collective"), -1)));
        }
        return out;
    }

    private List<List<Long>> shapes(Object value) throws TraceFormatException {
        List<List<Long>> out = new ArrayList<>();
        if (value == null) {
            return out;
        }
        for (Object shape : list(value, "sizes")) {
            List<Long> dims = new ArrayList<>();
            for (Object d : list(shape, "sizes")) {
                dims.add(number(d, "sizes"));
            }
            out.add(dims);
        }
        return out;
    }

    private List<String> strings(Object value) throws TraceFormatException {
        List<String> out = new ArrayList<>();
        if (value != null) {
            for (Object o : list(value, "dtypes")) {
                out.add(text(o));
            }
        }
        return out;
    }

    private List<?> list(Object value, String what) throws TraceFormatException {
        if (value instanceof List<?> l) {
            return l;
        }
        if (value instanceof Object[] a) {
            return java.util.Arrays.asList(a);
        }
        throw bad(what + " is not a list");
    }

    private long number(Object value, String what) throws TraceFormatException {
        if (value instanceof Integer || value instanceof Long || value instanceof Short || value instanceof Byte) {
            return ((Number) value).longValue();
        }
        if (value instanceof BigInteger b && b.bitLength() < 64) {
            return b.longValue();
        }
        throw bad(what + " holds " + (value == null ? "None" : "a non-integer") + " where an integer belongs");
    }

    private long optLong(Object value, long absent) throws TraceFormatException {
        return value == null ? absent : number(value, "a time or sequence field");
    }

    private int intOf(String digits) throws TraceFormatException {
        try {
            return Integer.parseInt(digits.trim());
        } catch (NumberFormatException e) {
            throw bad("'" + digits + "' is not a rank or group id");
        }
    }

    /** A scalar as text; {@code null} for None and for a container (never its deep {@code toString}). */
    private static String text(Object value) {
        return value instanceof String || value instanceof Number || value instanceof Boolean ? value.toString() : null;
    }

    private static int numericFirst(String a, String b) {
        boolean na = a != null && a.matches("\\d{1,9}");
        boolean nb = b != null && b.matches("\\d{1,9}");
        if (na && nb) {
            return Integer.compare(Integer.parseInt(a), Integer.parseInt(b));
        }
        if (na != nb) {
            return na ? -1 : 1;
        }
        return String.valueOf(a).compareTo(String.valueOf(b));
    }

    private TraceFormatException bad(String what) {
        return new TraceFormatException(file + ": Flight Recorder dump: " + what);
    }
}
