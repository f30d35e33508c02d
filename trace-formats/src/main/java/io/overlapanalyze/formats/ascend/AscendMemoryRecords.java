package io.overlapanalyze.formats.ascend;

import io.overlapanalyze.formats.input.BoundedLineReader;
import io.overlapanalyze.formats.json.DecimalMicros;
import io.overlapanalyze.formats.input.TraceFormatException;
import io.overlapanalyze.formats.sqlite.ReadOnlySqlite;
import io.overlapanalyze.model.Lane;
import io.overlapanalyze.model.MemorySamples;
import io.overlapanalyze.model.RankTrace;

import java.io.IOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * torch_npu's allocator records (for memory residency): the text export's
 * {@code ASCEND_PROFILER_OUTPUT/memory_record.csv} or the DB export's {@code MEMORY_RECORD} table,
 * read into {@link MemorySamples} and attached to the ranks the timeline reader built.
 *
 * <p>The file: {@code Component,Timestamp(us),Total Allocated(MB),Total Reserved(MB),Total Active(MB),
 * Stream Ptr,Device Type}; rows like {@code PTA,1736408883694238.150\t,935.9951171875,1452.0,…,NPU:0}
 * (CRLF lines, a tab after the timestamp so spreadsheets keep its digits, empty fields where a
 * component has no such figure). The components:
 * <ul>
 *   <li>{@code PTA}: torch_npu's caching allocator (PyTorch-Ascend), one row per allocation or free
 *       with the allocator's totals after it: the counterpart of the CUDA caching allocator that
 *       Kineto's {@code [memory]} instants report;</li>
 *   <li>{@code GE}: the graph engine's own allocations (CANN workspaces), {@code PTA+GE} the sum of
 *       both at each PTA or GE event;</li>
 *   <li>{@code APP}: the driver's view of the whole process, sampled every ~20 ms; torch_npu writes
 *       only its Total Reserved (no allocated figure exists at that level).</li>
 * </ul>
 * Which one is "allocated by the framework": {@code PTA} when the file has PTA rows with a Total
 * Allocated, so an Ascend peak means what a Kineto peak means (the framework's live tensors, not
 * its cache and not CANN's workspaces); else {@code APP} rows that carry a Total Allocated (none in
 * the torch_npu versions seen, which write APP as reserved only); else no samples, with a warning
 * naming the components the file did have. Reserved memory is never reported as allocated.
 *
 * <p>Units: {@code Timestamp(us)} is decimal µs on the same clock as {@code trace_view.json}'s
 * {@code ts}, converted exactly to ns by {@link DecimalMicros} (3 decimals; more are rounded
 * half-up to the ns). {@code MB} is MiB: torch_npu divides bytes by 1024² (every value of the
 * shared captures is a whole multiple of 2⁻²⁰ MB, and the DB export stores the same figures as
 * integer bytes: 935.9951171875 MB there is 981,462,016 B = 935.9951171875 × 1,048,576). Bytes =
 * {@code BigDecimal(MB) × 1048576}, exact; a value that is not a whole number of bytes (a writer
 * that rounded to fewer digits) is rounded half-up to the byte. The DB's {@code MEMORY_RECORD}
 * holds integer ns and integer bytes, its {@code component} an id of {@code STRING_IDS}.
 *
 * <p>Device: {@code Device Type} {@code NPU:<n>} (DB {@code deviceId}); other device types (CPU)
 * are not device memory. Each rank gets the samples of its lanes' devices (all NPU samples when
 * its lanes name none).
 */
public final class AscendMemoryRecords {
    static final String FILE = "memory_record.csv";
    private static final BigDecimal MIB = BigDecimal.valueOf(1024L * 1024L);
    private static final String PTA = "PTA";
    private static final String APP = "APP";

    /** Samples per device, which component they came from, and why there are none. */
    record Records(Map<Integer, MemorySamples> byDevice, String component, String warning) {
        static Records none(String warning) {
            return new Records(Map.of(), null, warning);
        }
    }

    private AscendMemoryRecords() {
    }

    /** {@code traces} with the records of {@code csv} attached; unchanged when the file is absent. */
    static List<RankTrace> attachCsv(List<RankTrace> traces, Path csv, io.overlapanalyze.formats.input.InputLimits limits) {
        if (!Files.isRegularFile(csv)) {
            return traces;
        }
        Records r;
        try {
            r = readCsv(csv, limits);
        } catch (IOException | RuntimeException e) {
            r = Records.none(csv.getFileName() + " not read (" + e.getMessage() + "): peak allocated memory is not"
                    + " available");
        }
        return attach(traces, r);
    }

    /** {@code traces} with the {@code MEMORY_RECORD} table of {@code db} attached, when it has one. */
    static List<RankTrace> attachDb(List<RankTrace> traces, Path db, io.overlapanalyze.formats.input.InputLimits limits) {
        Records r;
        try (ReadOnlySqlite c = ReadOnlySqlite.open(db, limits)) {
            if (!c.hasTable("MEMORY_RECORD")) {
                return traces;
            }
            r = readDb(c.connection());
        } catch (SQLException | IOException | TraceFormatException | RuntimeException e) {
            r = Records.none("MEMORY_RECORD not read (" + e.getMessage() + "): peak allocated memory is not available");
        }
        return attach(traces, r);
    }

    /**
     * The file's rows, read with bounded memory ({@link BoundedLineReader}: the input size limit,
     * lines of at most 1 MiB, no NUL byte; else an {@code IOException} naming the line, which
     * {@link #attachCsv} turns into a warning). A row whose timestamp or total is no number is
     * skipped and counted, never read as 0.
     */
    static Records readCsv(Path csv, io.overlapanalyze.formats.input.InputLimits limits) throws IOException {
        List<Row> rows = new ArrayList<>();
        long unreadable = 0;
        String first = null;
        try (BoundedLineReader in = BoundedLineReader.open(csv, limits)) {
            String header = in.readLine();
            if (header == null) {
                return Records.none(FILE + " is empty: peak allocated memory is not available");
            }
            String[] cols = split(stripBom(header));
            int comp = column(cols, "Component");
            int ts = column(cols, "Timestamp(us)");
            int alloc = column(cols, "Total Allocated(MB)");
            int dev = column(cols, "Device Type");
            if (comp < 0 || ts < 0 || alloc < 0 || dev < 0) {
                return Records.none(FILE + " lacks Component, Timestamp(us), Total Allocated(MB) or Device Type:"
                        + " peak allocated memory is not available");
            }
            String line;
            while ((line = in.readLine()) != null) {
                if (line.isBlank()) {
                    continue;
                }
                String[] f = split(line);
                int device = npuIndex(field(f, dev));
                String total = field(f, alloc).trim();
                if (device < 0) {
                    continue;
                }
                String time = field(f, ts).trim();
                long timeNs;
                Long bytes;
                try {
                    timeNs = DecimalMicros.toNanos(time);
                    bytes = total.isEmpty() ? null : mibToBytes(total);
                } catch (NumberFormatException | ArithmeticException e) {
                    if (unreadable++ == 0) {
                        first = "Timestamp(us) \"" + abbreviate(time) + "\", Total Allocated(MB) \"" + abbreviate(total) + "\"";
                    }
                    continue;
                }
                rows.add(new Row(field(f, comp).trim(), timeNs, bytes, device));
            }
        }
        Records r = choose(rows, FILE);
        if (unreadable == 0) {
            return r;
        }
        String skipped = FILE + " rows without a readable Timestamp(us) or Total Allocated(MB) skipped: " + unreadable
                + (unreadable == 1 ? " row" : " rows") + " (first: " + first + ")";
        return new Records(r.byDevice(), r.component(), r.warning() == null ? skipped : skipped + "; " + r.warning());
    }

    private static String abbreviate(String s) {
        return s.length() > 40 ? s.substring(0, 40) + "..." : s;
    }

    static Records readDb(Connection c) throws SQLException {
        Map<Long, String> components = new HashMap<>();
        try (Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT id, value FROM STRING_IDS WHERE id IN "
                     + "(SELECT DISTINCT component FROM MEMORY_RECORD)")) {
            while (rs.next()) {
                components.put(rs.getLong(1), rs.getString(2));
            }
        }
        List<Row> rows = new ArrayList<>();
        long unreadable = 0;
        String first = null;
        // A timestamp or a total that is there but no INTEGER ('abc', a real) is damage: the row is
        // skipped and counted (read as 0 it was a sample at 1970, or a total of 0 bytes).
        try (Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT component, " + ReadOnlySqlite.integerOrNull("timestamp")
                     + ", " + ReadOnlySqlite.integerOrNull("totalAllocated") + ", deviceId,"
                     + " typeof(totalAllocated) NOT IN ('integer', 'null') FROM MEMORY_RECORD")) {
            while (rs.next()) {
                long id = rs.getLong(1);
                String name = components.getOrDefault(id, Long.toString(id));
                long t = rs.getLong(2);
                boolean noTime = rs.wasNull();
                if (noTime || rs.getInt(5) != 0) {
                    if (unreadable++ == 0) {
                        first = noTime ? "timestamp" : "totalAllocated";
                    }
                    continue;
                }
                long total = rs.getLong(3);
                Long bytes = rs.wasNull() ? null : total;
                int device = rs.getInt(4);
                rows.add(new Row(name.trim(), t, bytes, rs.wasNull() ? 0 : device));
            }
        }
        Records r = choose(rows, "MEMORY_RECORD");
        if (unreadable == 0) {
            return r;
        }
        String skipped = "MEMORY_RECORD rows without an integer timestamp or totalAllocated skipped: " + unreadable
                + (unreadable == 1 ? " row" : " rows") + " (first: no integer " + first + ")";
        return new Records(r.byDevice(), r.component(), r.warning() == null ? skipped : skipped + "; " + r.warning());
    }

    private record Row(String component, long timeNs, Long allocated, int device) {
    }

    /** PTA rows with an allocated total; else APP rows with one; else none, saying what was there. */
    private static Records choose(List<Row> rows, String origin) {
        String component = hasAllocated(rows, PTA) ? PTA : hasAllocated(rows, APP) ? APP : null;
        if (component == null) {
            Map<String, Integer> seen = new TreeMap<>();
            for (Row r : rows) {
                seen.merge(r.component(), 1, Integer::sum);
            }
            return Records.none(origin + " has no PTA (torch_npu allocator) rows and no APP rows with a Total"
                    + " Allocated (components: " + (seen.isEmpty() ? "none" : seen) + "): peak allocated memory is"
                    + " not available");
        }
        Map<Integer, MemorySamples> byDevice = new TreeMap<>();
        for (Row r : rows) {
            if (r.component().equals(component) && r.allocated() != null) {
                byDevice.computeIfAbsent(r.device(), d -> new MemorySamples()).add(r.timeNs(), r.allocated(), r.device());
            }
        }
        return new Records(byDevice, component, null);
    }

    private static boolean hasAllocated(List<Row> rows, String component) {
        for (Row r : rows) {
            if (r.allocated() != null && r.component().equals(component)) {
                return true;
            }
        }
        return false;
    }

    /** Each trace with the samples of its own devices (all of them when its lanes name none). */
    static List<RankTrace> attach(List<RankTrace> traces, Records records) {
        List<RankTrace> out = new ArrayList<>(traces.size());
        for (RankTrace t : traces) {
            Set<Integer> devices = new TreeSet<>();
            for (Lane l : t.lanes()) {
                if (l.device() >= 0) {
                    devices.add(l.device());
                }
            }
            MemorySamples mine = new MemorySamples();
            for (Map.Entry<Integer, MemorySamples> e : records.byDevice().entrySet()) {
                if (devices.isEmpty() || devices.contains(e.getKey())) {
                    MemorySamples m = e.getValue();
                    for (int i = 0; i < m.size(); i++) {
                        mine.add(m.timeNs(i), m.totalAllocated(i), m.device(i));
                    }
                }
            }
            RankTrace withMemory = t.withMemory(mine.isEmpty() ? MemorySamples.empty() : mine);
            out.add(records.warning() == null ? withMemory : withMemory.withWarning(records.warning()));
        }
        return out;
    }

    /** Exact MiB → bytes; half-up to the byte when the text is not a whole number of bytes. */
    static long mibToBytes(String mb) {
        return new BigDecimal(mb).multiply(MIB).setScale(0, RoundingMode.HALF_UP).longValueExact();
    }

    /** {@code NPU:3} → 3; {@code -1} for another device type (CPU) or an unreadable one. */
    static int npuIndex(String deviceType) {
        String d = deviceType.trim().toUpperCase(Locale.ROOT);
        if (!d.startsWith("NPU")) {
            return -1;
        }
        int colon = d.indexOf(':');
        if (colon < 0) {
            return 0;
        }
        try {
            return Integer.parseInt(d.substring(colon + 1).trim());
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private static String stripBom(String s) {
        return !s.isEmpty() && s.charAt(0) == '\uFEFF' ? s.substring(1) : s;
    }

    /** The fields of a line (torch_npu quotes nothing in this file; a quoted field is unquoted). */
    private static String[] split(String line) {
        String[] f = line.split(",", -1);
        for (int i = 0; i < f.length; i++) {
            String v = f[i].trim();
            if (v.length() >= 2 && v.startsWith("\"") && v.endsWith("\"")) {
                f[i] = v.substring(1, v.length() - 1);
            }
        }
        return f;
    }

    private static int column(String[] header, String name) {
        for (int i = 0; i < header.length; i++) {
            if (header[i].trim().equalsIgnoreCase(name)) {
                return i;
            }
        }
        return -1;
    }

    private static String field(String[] f, int i) {
        return i < f.length ? f[i] : "";
    }
}
