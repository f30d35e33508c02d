package io.overlapanalyze.formats.nsys;

import io.overlapanalyze.formats.input.TraceFormatException;
import io.overlapanalyze.formats.input.Warnings;
import io.overlapanalyze.formats.kernels.KernelClassifier;
import io.overlapanalyze.model.DeviceKind;
import io.overlapanalyze.model.KernelShape;
import io.overlapanalyze.model.ShapePool;
import io.overlapanalyze.primitives.LongIntMap;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The device tables (kernels, memcpy, memset, CUDA graphs) streamed into one {@link RankBuilder} per
 * (process, CUDA device). Kernels create ranks; memcpy, memset and graph rows join the ranks of their
 * (process, device), and are counted and skipped when no kernel made one.
 *
 * <p>Each table is one forward-only {@code SELECT} without {@code ORDER BY} (nsys.md §9, §12): rows go
 * into their rank's primitive buffers ({@link RankBuilder#pend}) and are ordered by (start, end) when the
 * table ends ({@link RankBuilder#flush}), where they join their launch calls ({@link LaunchCalls}). A
 * row whose start or end is not an INTEGER, or that ends before it starts, is skipped and counted in
 * one warning per table; kernel names are classified once per name ({@link RowNames}).
 */
final class DeviceTables {
    /** Place column of a device row whose start is not an INTEGER. */
    static final long START_NOT_INTEGER = -3;
    /** Place column of a device row whose start is an INTEGER and whose end is not. */
    static final long END_NOT_INTEGER = -2;

    private final ExportDatabase db;
    private final ExportSchema schema;
    private final StringTable strings;
    private final SessionClock clock;
    private final KernelClassifier classifier;
    private final LaunchCalls launches;
    private final Warnings warnings;
    private final RowNames rowNames = new RowNames();
    /** Kernel launch shapes of this export, by id (rows carry the id until their rank's model exists). */
    private final ShapePool shapes = new ShapePool();
    /** (processKey, deviceId) → rank, in first-seen order. */
    private final Map<Long, Map<Integer, RankBuilder>> ranks = new LinkedHashMap<>();
    private final List<RankBuilder> rankList = new ArrayList<>();
    /** Why communication cannot be told from compute in this export, or {@code null}. */
    private String commUnclassified;
    private long droppedDeviceRows;

    DeviceTables(ExportDatabase db, ExportSchema schema, StringTable strings, SessionClock clock,
                 KernelClassifier classifier, LaunchCalls launches, Warnings warnings) {
        this.db = db;
        this.schema = schema;
        this.strings = strings;
        this.clock = clock;
        this.classifier = classifier;
        this.launches = launches;
        this.warnings = warnings;
    }

    /** The ranks, in the order of their first kernel once the kernel table is read. */
    List<RankBuilder> ranks() {
        return rankList;
    }

    /** Why communication cannot be told from compute in this export, or {@code null}. */
    String commUnclassified() {
        return commUnclassified;
    }

    /** Memcpy, memset and graph rows of a (process, device) that ran no kernel: skipped. */
    long droppedRows() {
        return droppedDeviceRows;
    }

    /**
     * Streams one device table sorted by start into the ranks. Kernels create ranks; memcpy,
     * memset and graph rows join the ranks of their (process, device).
     */
    void read(String table, DeviceKind baseKind) throws SQLException, TraceFormatException {
        if (!db.hasTable(table)) {
            return;
        }
        boolean kernels = table.equals(NsysReader.KERNEL);
        String start = schema.required(table, "start");
        String end = schema.required(table, "end");
        String device = db.column(table, "deviceId");
        String context = db.column(table, "contextId");
        String stream = db.column(table, "streamId");
        String corr = db.column(table, "correlationId");
        String pid = db.column(table, "globalPid");
        String name = null;
        String fullName = null;
        String extra = null;
        if (kernels) {
            name = db.firstColumn(table, "shortName", "demangledName", "mangledName");
            if (name == null) {
                throw schema.missingColumn(table, "shortName");
            }
            // The short name drops the namespace ("dispatch" for deep_ep::intranode::dispatch<…>),
            // which is what tells an expert-parallel all-to-all from a compute kernel.
            String demangled = db.column(table, "demangledName");
            fullName = demangled != null && !demangled.equals(name) ? demangled : null;
        } else if (table.equals(NsysReader.MEMCPY)) {
            extra = db.column(table, "copyKind");
        } else if (table.equals(NsysReader.GRAPH)) {
            extra = db.column(table, "graphId");
        }
        // Launch shapes (gridX … blockZ): selected only when the export's schema has all six.
        String[] shapeColumns = null;
        if (kernels) {
            String[] cols = {"gridX", "gridY", "gridZ", "blockX", "blockY", "blockZ"};
            shapeColumns = new String[cols.length];
            for (int k = 0; k < cols.length && shapeColumns != null; k++) {
                shapeColumns[k] = db.column(table, cols[k]);
                if (shapeColumns[k] == null) {
                    shapeColumns = null;
                }
            }
        }
        boolean hasShape = shapeColumns != null;
        StringBuilder shapeSql = new StringBuilder();
        if (hasShape) {
            for (String c : shapeColumns) {
                shapeSql.append(", ").append(ExportDatabase.quote(c));
            }
        }
        if (kernels) {
            for (String[] c : new String[][] {{"deviceId", device}, {"streamId", stream}, {"globalPid", pid},
                    {"correlationId", corr}}) {
                if (c[1] == null) {
                    warnings.add(table + " has no column '" + c[0] + "'" + (schema.version().newerThanKnown() ? " (renamed in "
                            + schema.version().schema() + "?)" : "") + ": " + ("correlationId".equals(c[0])
                            ? "kernels are not linked to their launch" : "one value assumed for all rows"));
                }
            }
        }
        // start and end are read as they are; the place column says first whether both are
        // INTEGER (a text or real time in a damaged row is missing, never 0 or truncated): one
        // expression per row for the three, cheaper than a CASE around each time.
        String sql = "SELECT " + ExportDatabase.quote(start) + ", " + ExportDatabase.quote(end) + ", "
                + ExportDatabase.columnOrNull(device) + ", " + ExportDatabase.columnOrNull(context) + ", "
                + ExportDatabase.columnOrNull(stream) + ", " + ExportDatabase.columnOrNull(corr) + ", "
                + ExportDatabase.columnOrNull(pid) + ", " + ExportDatabase.columnOrNull(name) + ", "
                + ExportDatabase.columnOrNull(extra) + ", " + packedPlace(start, end, device, context, stream) + ", "
                + ExportDatabase.columnOrNull(fullName) + shapeSql
                + " FROM " + ExportDatabase.quote(db.table(table));
        // No ORDER BY (nsys.md §12): rows are streamed in file order into primitive buffers per
        // rank and ordered in Java (RankBuilder.flush), which the unindexed table would otherwise
        // cost SQLite a temp B-tree of the whole table for.
        boolean hasDevice = device != null;
        boolean hasContext = context != null;
        boolean hasStream = stream != null;
        boolean hasCorr = corr != null;
        boolean hasPid = pid != null;
        boolean memcpy = table.equals(NsysReader.MEMCPY);
        boolean graph = table.equals(NsysReader.GRAPH);
        // Skipped rows, reported as the sorted query reported them: the first example is the
        // smallest (start, end); rows without start sort first.
        long nullRows = 0;
        long nullKeyS = Long.MAX_VALUE;
        long nullKeyE = Long.MAX_VALUE;
        long badRows = 0;
        long badS = Long.MAX_VALUE;
        long badE = Long.MAX_VALUE;
        int memsetRef = memcpy || graph || kernels ? -1 : rowNames.ref("Memset", baseKind);
        LongIntMap extraRefs = new LongIntMap();
        long kernelNameIds = 0;
        Set<Long> countedNames = new HashSet<>();
        // Short name id -> row name, for the short names whose kind no full name changes (those
        // that do not read as compute): their rows leave the full name's column unread.
        LongIntMap byShortName = new LongIntMap();
        long danglingKernelNames = 0;
        long firstDanglingKernelName = 0;
        int nullExtraRef = -1;
        try (Statement st = db.statement(); ResultSet rs = st.executeQuery(sql)) {
            while (rs.next()) {
                long packed = rs.getLong(10);
                if (packed == START_NOT_INTEGER || packed == END_NOT_INTEGER) {
                    boolean nullStart = packed == START_NOT_INTEGER;
                    long ks = nullStart ? Long.MIN_VALUE : rs.getLong(1);
                    long ke = Long.MIN_VALUE;
                    if (nullRows == 0 || ks < nullKeyS || (ks == nullKeyS && ke < nullKeyE)) {
                        nullKeyS = ks;
                        nullKeyE = ke;
                    }
                    nullRows++;
                    continue;
                }
                long s = rs.getLong(1);
                long e = rs.getLong(2);
                if (e < s) {
                    if (badRows == 0 || s < badS || (s == badS && e < badE)) {
                        badS = s;
                        badE = e;
                    }
                    badRows++;
                    continue;
                }
                int dev;
                long ctx;
                long str;
                if (packed >= 0) {
                    dev = (int) (packed >>> 48);
                    ctx = (packed >>> 24) & 0xFFFFFF;
                    str = packed & 0xFFFFFF;
                } else {
                    dev = hasDevice ? rs.getInt(3) : 0;
                    ctx = hasContext ? rs.getLong(4) : 0;
                    str = -1;
                    if (hasStream) {
                        str = rs.getLong(5);
                        if (str == 0 && rs.wasNull()) {
                            str = -1;
                        }
                    }
                }
                long c = 0;
                boolean noCorr = true;
                if (hasCorr) {
                    c = rs.getLong(6);
                    noCorr = c == 0 && rs.wasNull();
                }
                long processKey = hasPid ? GlobalIds.process(rs.getLong(7)) : 0;
                RankBuilder rank = rank(processKey, dev, kernels);
                if (rank == null) {
                    droppedDeviceRows++;
                    continue;
                }
                int ref;
                if (kernels) {
                    long id = rs.getLong(8);
                    ref = byShortName.get(id);
                    if (ref < 0) {
                        long fullId = fullName == null ? 0 : rs.getLong(11);
                        boolean hasFull = fullName != null && !(fullId == 0 && rs.wasNull());
                        // Keyed by the full name when there is one: kernels sharing a short name
                        // may still be of different kinds.
                        long key = hasFull ? fullId : id;
                        ref = rowNames.kernel(key);
                        if (ref < 0) {
                            String n = strings.stored(id);
                            // Counted per short name, as the export names kernels, however many
                            // demangled names share it.
                            boolean firstOfName = countedNames.add(id);
                            if (firstOfName) {
                                kernelNameIds++;
                            }
                            if (n == null) {
                                if (firstOfName && danglingKernelNames++ == 0) {
                                    firstDanglingKernelName = id;
                                }
                                n = StringTable.placeholder(id);
                            } else if (n.isEmpty()) {
                                n = "(unnamed kernel)";
                            }
                            DeviceKind kind = classifier.kindOfKernel(n);
                            boolean byShortAlone = kind != DeviceKind.COMPUTE;
                            if (kind == DeviceKind.COMPUTE && hasFull) {
                                String full = strings.stored(fullId);
                                DeviceKind byFull = full == null ? kind : classifier.kindOfKernel(full);
                                if (byFull != kind) {
                                    // Named by the full name, which is what says what it is (and
                                    // lets the collective's type be read from it).
                                    kind = byFull;
                                    n = full;
                                }
                            }
                            ref = rowNames.ref(n, kind);
                            rowNames.cacheKernel(key, ref);
                            if (byShortAlone) {
                                byShortName.put(id, ref);
                            }
                        }
                    }
                } else if (memcpy || graph) {
                    long k = rs.getLong(9);
                    boolean nullExtra = k == 0 && rs.wasNull();
                    if (graph) {
                        warnings.add("CUDA graphs traced as whole graphs (--cuda-graph-trace=graph): each graph launch is"
                                + " one OTHER interval, its kernels are not visible", "");
                    }
                    if (nullExtra) {
                        if (nullExtraRef < 0) {
                            nullExtraRef = rowNames.ref(memcpy ? "Memcpy" : "CUDA graph", baseKind);
                        }
                        ref = nullExtraRef;
                    } else {
                        ref = extraRefs.get(k);
                        if (ref < 0) {
                            ref = rowNames.ref(memcpy ? "Memcpy " + copyKind(k) : "CUDA graph " + k, baseKind);
                            extraRefs.put(k, ref);
                        }
                    }
                } else {
                    ref = memsetRef;
                }
                int shape = -1;
                if (hasShape) {
                    // A NULL (or non-integer) dimension reads as 0 with wasNull: the shape is unknown.
                    int gx = dim(rs, 12);
                    int gy = dim(rs, 13);
                    int gz = dim(rs, 14);
                    int bx = dim(rs, 15);
                    int by = dim(rs, 16);
                    int bz = dim(rs, 17);
                    if (KernelShape.valid(gx, gy, gz, bx, by, bz)) {
                        shape = shapes.intern(gx, gy, gz, bx, by, bz);
                    }
                }
                rank.pend(clock.time(s), clock.time(e), ctx, str, ref, noCorr ? RankBuilder.NO_CORRELATION : c, shape);
            }
        }
        boolean nullFirst = nullRows > 0 && (badRows == 0 || nullKeyS < badS || (nullKeyS == badS && nullKeyE < badE));
        if (nullFirst) {
            warnings.add(table + " rows without an integer start or end skipped", "", nullRows);
        }
        if (badRows > 0) {
            warnings.add(table + " rows ending before they start skipped", "start " + badS + ", end " + badE, badRows);
        }
        if (nullRows > 0 && !nullFirst) {
            warnings.add(table + " rows without an integer start or end skipped", "", nullRows);
        }
        if (kernels && danglingKernelNames > 0) {
            commUnclassified = "communication cannot be classified: " + (strings.present()
                    ? danglingKernelNames + " of " + kernelNameIds + " kernel names are not in StringIds (first: id "
                    + firstDanglingKernelName + "); those kernels"
                    : "the export has no StringIds table (names), so all kernels")
                    + " are counted as compute, and communication among them is not measured (its figures are"
                    + " not real zeros)";
            warnings.add(commUnclassified);
        }
        if (kernels) {
            // The kernels join their launches when ordered: the launch read must be complete.
            launches.await();
        }
        for (RankBuilder r : rankList) {
            r.flush(rowNames, launches.index(), shapes);
        }
        if (kernels) {
            // Ranks in the order of their first kernel, as a time-ordered read would meet them.
            rankList.sort(Comparator.comparingLong((RankBuilder r) -> r.firstStart).thenComparingLong(r -> r.firstEnd));
        }
    }

    /** A launch dimension at {@code column}: -1 when NULL or outside int. */
    private static int dim(ResultSet rs, int column) throws SQLException {
        long v = rs.getLong(column);
        if ((v == 0 && rs.wasNull()) || v < 0 || v > Integer.MAX_VALUE) {
            return -1;
        }
        return (int) v;
    }

    /**
     * {@link #START_NOT_INTEGER} or {@link #END_NOT_INTEGER} when a time is not an INTEGER (NULL,
     * text, real); else deviceId, contextId and streamId in one value when all three are present
     * and small (they are small counters in every export seen), else -1: one column read instead
     * of three per row, and the times' type test in the same expression.
     */
    private String packedPlace(String start, String end, String device, String context, String stream) {
        String times = "CASE WHEN typeof(" + ExportDatabase.quote(start) + ") <> 'integer' THEN " + START_NOT_INTEGER
                + " WHEN typeof(" + ExportDatabase.quote(end) + ") <> 'integer' THEN " + END_NOT_INTEGER;
        if (device == null || context == null || stream == null) {
            return times + " ELSE -1 END";
        }
        String d = ExportDatabase.quote(device);
        String c = ExportDatabase.quote(context);
        String s = ExportDatabase.quote(stream);
        return times + " WHEN " + d + " BETWEEN 0 AND 32767 AND " + c + " BETWEEN 0 AND 16777215 AND " + s
                + " BETWEEN 0 AND 16777215 THEN (" + d + " << 48) | (" + c + " << 24) | " + s + " ELSE -1 END";
    }

    private RankBuilder rank(long processKey, int deviceId, boolean create) {
        Map<Integer, RankBuilder> byDevice = ranks.get(processKey);
        RankBuilder r = byDevice == null ? null : byDevice.get(deviceId);
        if (r == null && create) {
            r = new RankBuilder(processKey, deviceId);
            ranks.computeIfAbsent(processKey, k -> new LinkedHashMap<>()).put(deviceId, r);
            rankList.add(r);
        }
        return r;
    }

    /** CUPTI memcpy kinds (nsys.md §3) as Kineto names them. */
    static String copyKind(long k) {
        switch ((int) k) {
            case 1: return "HtoD";
            case 2: return "DtoH";
            case 3: return "HtoA";
            case 4: return "AtoH";
            case 5: return "AtoA";
            case 6: return "AtoD";
            case 7: return "DtoA";
            case 8: return "DtoD";
            case 9: return "HtoH";
            case 10: return "PtoP";
            default: return "kind " + k;
        }
    }
}
