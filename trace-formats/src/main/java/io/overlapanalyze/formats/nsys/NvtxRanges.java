package io.overlapanalyze.formats.nsys;

import io.overlapanalyze.formats.input.TraceFormatException;
import io.overlapanalyze.formats.input.Warnings;
import io.overlapanalyze.formats.sqlite.ReadOnlySqlite;
import io.overlapanalyze.model.HostSpan;
import io.overlapanalyze.model.HostSpanKind;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code NVTX_EVENTS} into each process's {@link ProcessNvtx} (nsys.md §5; names from {@code text} or
 * the registered string {@code textId}; domains per process): step ranges by pattern (metrics.md §2
 * defaults, or the user's), {@code Optimizer.step#}, autograd ranges, PyTorch {@code c10d::}/{@code nccl:}
 * ops and NCCL's own API ranges are kept, other ranges only as what a host thread was doing (metrics.md
 * §11); thread-name rows name threads and give MPI ranks ("MPI Rank N"). The only query that still sorts
 * in SQL: ranges of five event types, read after the big tables.
 */
final class NvtxRanges {
    private static final String NVTX = NsysReader.NVTX;
    private static final Pattern MPI_RANK = Pattern.compile("MPI Rank (\\d+)");

    private final ExportDatabase db;
    private final ExportSchema schema;
    private final StringTable strings;
    private final SessionClock clock;
    private final ExportProcesses processes;
    private final Warnings warnings;
    private final Pattern stepPattern;
    private final boolean defaultStepPattern;

    /**
     * @param stepPattern        NVTX range names that mark a step ({@code find} on the name without the
     *                           emit_nvtx suffix, or a whole-name match for the defaults)
     * @param defaultStepPattern true when {@code stepPattern} is metrics.md §2's default
     */
    NvtxRanges(ExportDatabase db, ExportSchema schema, StringTable strings, SessionClock clock,
               ExportProcesses processes, Warnings warnings, Pattern stepPattern, boolean defaultStepPattern) {
        this.db = db;
        this.schema = schema;
        this.strings = strings;
        this.clock = clock;
        this.processes = processes;
        this.warnings = warnings;
        this.stepPattern = stepPattern;
        this.defaultStepPattern = defaultStepPattern;
    }

    /** NVTX ranges, sorted by start (parents first at equal starts), into per-process spans and timelines. */
    void read() throws SQLException, TraceFormatException {
        if (!db.hasTable(NVTX)) {
            return;
        }
        String start = schema.required(NVTX, "start");
        String end = db.column(NVTX, "end");
        String type = schema.required(NVTX, "eventType");
        String text = db.column(NVTX, "text");
        String textId = db.column(NVTX, "textId");
        String domain = db.column(NVTX, "domainId");
        String tid = db.column(NVTX, "globalTid");
        if (text == null && textId == null) {
            throw schema.missingColumn(NVTX, "text");
        }
        String sql = "SELECT " + ReadOnlySqlite.integerOrNull(ExportDatabase.quote(start)) + ", "
                + (end == null ? "NULL" : ReadOnlySqlite.integerOrNull(ExportDatabase.quote(end))) + ", "
                + ExportDatabase.quote(type) + ", " + ExportDatabase.columnOrNull(text) + ", "
                + ExportDatabase.columnOrNull(textId) + ", " + ExportDatabase.columnOrNull(domain) + ", "
                + ExportDatabase.columnOrNull(tid) + ", "
                // An end that is there but no INTEGER ('n/a', a real) is damage, not an open range.
                + (end == null ? "0" : "typeof(" + ExportDatabase.quote(end) + ") NOT IN ('integer', 'null')")
                + " FROM " + ExportDatabase.quote(db.table(NVTX))
                // 39 thread name, 59/60 push-pop / start-end ranges, 70/71 their NVTXt forms, 75 domain create.
                + " WHERE " + ExportDatabase.quote(type) + " IN (39, 59, 60, 70, 71, 75)"
                + " ORDER BY 1" + (end == null ? "" : ", 2 DESC");
        Warnings unusable = new Warnings();
        try (Statement st = db.statement(); ResultSet rs = st.executeQuery(sql)) {
            while (rs.next()) {
                long s = rs.getLong(1);
                boolean noStart = s == 0 && rs.wasNull();
                long e = rs.getLong(2);
                boolean openRange = rs.wasNull();
                int eventType = rs.getInt(3);
                String name = rs.getString(4);
                long id = rs.getLong(5);
                if (name == null && !rs.wasNull()) {
                    name = strings.get(id);
                }
                long dom = rs.getLong(6);
                if (rs.wasNull()) {
                    dom = 0;
                }
                long g = rs.getLong(7);
                if (rs.wasNull() || name == null) {
                    continue;
                }
                ProcessNvtx p = processes.process(GlobalIds.process(g));
                long thread = GlobalIds.tid(g);
                if (eventType == 75) {
                    p.domains.put(dom, name);
                    continue;
                }
                if (eventType == 39) {
                    p.addThreadName(thread, name);
                    Integer mpi = mpiRankOf(name);
                    if (mpi != null && p.mpiRank == null) {
                        p.mpiRank = mpi;
                    }
                    continue;
                }
                if (noStart) {
                    unusable.add("NVTX ranges without an integer start skipped", "\"" + name + "\"");
                    continue;
                }
                if (rs.getInt(8) != 0) {
                    unusable.add("NVTX ranges without an integer end skipped", "\"" + name + "\"");
                    continue;
                }
                if (openRange || e < s) {
                    // No extent to hold launches. A step among them loses its step: say so.
                    if (isStep(NvtxNames.baseName(name))) {
                        unusable.add(openRange ? "step ranges without an end (unfinished, or a damaged end) ignored"
                                : "step ranges ending before they start ignored",
                                "\"" + name + "\" at " + clock.time(s));
                    }
                    continue;
                }
                range(p, thread, clock.time(s), clock.time(e), dom, name);
            }
        }
        for (String line : unusable.lines()) {
            warnings.add(line);
        }
    }

    private void range(ProcessNvtx p, long thread, long s, long e, long dom, String name) {
        if (dom != 0 && isNcclDomain(p, dom, name)) {
            p.ncclApi.add(thread, s, e, name);
            return;
        }
        if (NvtxNames.looksLikePyTorch(name)) {
            p.pytorchRanges = true;
        }
        String base = NvtxNames.baseName(name);
        HostSpanKind kind = null;
        if (isStep(base)) {
            kind = HostSpanKind.STEP;
        } else if (NvtxNames.isOptimizer(base)) {
            kind = HostSpanKind.OPTIMIZER;
        } else if (NvtxNames.isBackward(base)) {
            kind = HostSpanKind.BACKWARD;
        } else if (NvtxNames.isC10d(base)) {
            p.c10d.add(thread, s, e, base);
        } else if (NvtxNames.isCommAnnotation(base)) {
            p.commAnnotations.add(thread, s, e, base);
        }
        if (kind != HostSpanKind.STEP) {
            p.hostRanges.add(thread, s, e, base); // what the thread was doing (metrics.md §11)
        }
        if (kind == HostSpanKind.STEP && !p.spans.isEmpty()) {
            // Step spans must not overlap (StepAssigner): a step range inside the previous one is dropped.
            HostSpan last = lastStep(p);
            if (last != null && s < last.endNs()) {
                p.stepSpansDropped++;
                return;
            }
        }
        if (kind != null) {
            p.spans.add(new HostSpan(kind, base, s, e, thread));
        }
    }

    private HostSpan lastStep(ProcessNvtx p) {
        for (int i = p.spans.size() - 1; i >= 0; i--) {
            if (p.spans.get(i).kind() == HostSpanKind.STEP) {
                return p.spans.get(i);
            }
        }
        return null;
    }

    private boolean isStep(String base) {
        return defaultStepPattern ? stepPattern.matcher(base).matches() : stepPattern.matcher(base).find();
    }

    /** NCCL's domain, by its create row; trimmed exports lose that row, so fall back to the names. */
    private boolean isNcclDomain(ProcessNvtx p, long dom, String name) {
        String d = p.domains.get(dom);
        if (d != null) {
            return d.equals("NCCL");
        }
        return name.startsWith("nccl");
    }

    private Integer mpiRankOf(String threadName) {
        Matcher m = MPI_RANK.matcher(threadName);
        return m.matches() ? Integer.valueOf(m.group(1)) : null;
    }
}
