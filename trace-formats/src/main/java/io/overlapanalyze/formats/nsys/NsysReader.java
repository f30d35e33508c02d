package io.overlapanalyze.formats.nsys;

import io.overlapanalyze.formats.input.InputLimits;
import io.overlapanalyze.formats.input.Messages;
import io.overlapanalyze.formats.input.TraceFormatException;
import io.overlapanalyze.formats.input.TraceReader;
import io.overlapanalyze.formats.input.Warnings;
import io.overlapanalyze.formats.kernels.KernelClassifier;
import io.overlapanalyze.model.DeviceKind;
import io.overlapanalyze.model.RankTrace;
import org.sqlite.SQLiteErrorCode;
import org.sqlite.SQLiteException;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Reads an Nsight Systems SQLite export ({@code nsys export --type sqlite}) into one
 * {@link RankTrace} per (process, CUDA device) that ran kernels (nsys.md; metrics.md §1–§2).
 *
 * <p>How it reads (nsys.md §1, §11–§12):
 * <ul>
 *   <li>read-only and immutable ({@link ExportDatabase}); nothing is created in or beside the file;</li>
 *   <li>version-aware: {@code META_DATA_EXPORT} or (2022) {@code EXPORT_META_DATA}; a schema newer than the
 *       newest one checked gives one warning and is read by column names; a needed column that is
 *       missing gives one error line naming table and column;</li>
 *   <li>every table optional, columns selected by name (never {@code SELECT *}); each table streamed
 *       forward-only, no table loaded as a list of objects;</li>
 *   <li>rows sorted by time <em>in Java</em>, not in SQL (nsys.md §9, §12): nsys creates no
 *       indexes and promises no row order, so {@code ORDER BY start} on the kernel or runtime table made
 *       SQLite build a temp B-tree of the whole table (~80 % of the read time on 2 M kernels). Device
 *       rows are read unsorted into primitive per-rank buffers ({@link RankBuilder#pend}) and ordered by
 *       (start, end) with {@link PrimitiveSort} when the table ends ({@link RankBuilder#flush}), so the model
 *       is exactly what the sorted query built, and memory stays bounded by the retained rows. The
 *       runtime table is read at the same time on a second read-only connection ({@link LaunchIndex}
 *       keeps the earliest call of a key); only the small NVTX range query still sorts in SQL;</li>
 *   <li>kernel/memcpy/memset → launch call: a hash join in Java on (process, correlationId), over runtime
 *       and driver calls only ({@code eventClass} 0/1; class 67 backtrace rows duplicate ids);</li>
 *   <li>NVTX: text or registered string ({@code textId}); domains per process; step ranges by pattern,
 *       {@code Optimizer.step#}, autograd ranges, {@code c10d::}/{@code nccl:} ops and NCCL's own API
 *       ranges are kept, nothing else.</li>
 * </ul>
 * Times are integer ns from the start of the capture plus {@code TARGET_INFO_SESSION_START_TIME.utcEpochNs}
 * when present, so that several exports (one per rank) share the epoch clock.
 *
 * <p>This class opens the export and runs the table readers in order, each with one job:
 * {@link ExportSchema} (what the export is, required columns), {@link SessionClock} (the epoch),
 * {@link ExportProcesses} (environment, thread names, MPI ranks), {@link GpuModels} (GPU model names),
 * {@link LaunchCalls} (launch calls, in parallel with the kernels), {@link DeviceTables} (kernels,
 * memcpy, memset, graphs into ranks), {@link NvtxRanges} (NVTX ranges) and {@link ExportRanks} (the
 * ranks assembled into {@link RankTrace}s).
 */
public final class NsysReader implements TraceReader {
    private static final byte[] SQLITE_MAGIC = "SQLite format 3\0".getBytes(StandardCharsets.US_ASCII);
    static final String KERNEL = "CUPTI_ACTIVITY_KIND_KERNEL";
    static final String RUNTIME = "CUPTI_ACTIVITY_KIND_RUNTIME";
    static final String MEMCPY = "CUPTI_ACTIVITY_KIND_MEMCPY";
    static final String MEMSET = "CUPTI_ACTIVITY_KIND_MEMSET";
    static final String GRAPH = "CUPTI_ACTIVITY_KIND_GRAPH_TRACE";
    static final String NVTX = "NVTX_EVENTS";
    /** Every table the reader may read: a view or virtual table under one of these names is refused. */
    private static final String[] READ_TABLES = {KERNEL, RUNTIME, MEMCPY, MEMSET, GRAPH, NVTX, "StringIds",
            "META_DATA_EXPORT", "EXPORT_META_DATA", "TARGET_INFO_SESSION_START_TIME", "TARGET_INFO_SYSTEM_ENV",
            "META_DATA_CAPTURE", "ThreadNames", "MPI_RANKS", "TARGET_INFO_GPU",
            "TARGET_INFO_CUDA_DEVICE"};

    private final Pattern stepPattern;
    private final boolean defaultStepPattern;
    private final KernelClassifier classifier;
    /** What the export may weigh: the run's limits, passed in. */
    private final InputLimits limits;

    /** One rank of an export with where it came from: for tests and reports that need the process. */
    public record NsysRank(long pid, int deviceId, String rankOrigin, RankTrace trace) {
    }

    /** A reader with the default step patterns and communication kernel names. */
    public NsysReader() {
        this(null, new KernelClassifier());
    }

    /**
     * @param stepPattern NVTX range names that mark a step ({@code find} on the name without the
     *                    emit_nvtx suffix), or {@code null} for the defaults of metrics.md §2
     * @param classifier  communication kernel names
     */
    public NsysReader(Pattern stepPattern, KernelClassifier classifier) {
        this(stepPattern, classifier, InputLimits.DEFAULT);
    }

    /** As {@link #NsysReader(Pattern, KernelClassifier)}, under the run's input limits ({@code --max-input-size}). */
    public NsysReader(Pattern stepPattern, KernelClassifier classifier, InputLimits limits) {
        this.limits = limits;
        this.defaultStepPattern = stepPattern == null;
        this.stepPattern = stepPattern == null ? NvtxNames.DEFAULT_STEP_PATTERN : stepPattern;
        this.classifier = classifier;
    }

    /** True when the file starts with the SQLite header. */
    public static boolean looksLikeSqlite(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            return Arrays.equals(in.readNBytes(SQLITE_MAGIC.length), SQLITE_MAGIC);
        }
    }

    @Override
    public List<RankTrace> read(Path input) throws TraceFormatException, IOException {
        List<RankTrace> out = new ArrayList<>();
        for (NsysRank r : readRanks(input)) {
            out.add(r.trace());
        }
        return out;
    }

    /** Reads every rank of the export; an export without device activity gives one empty rank. */
    public List<NsysRank> readRanks(Path input) throws TraceFormatException, IOException {
        String file = input.toString();
        if (!Files.isRegularFile(input)) {
            throw new java.nio.file.NoSuchFileException(file);
        }
        if (!looksLikeSqlite(input)) {
            throw new TraceFormatException(file + ": not an SQLite database (no \"SQLite format 3\" header), "
                    + "expected an Nsight Systems export (nsys export --type sqlite)");
        }
        try (ExportDatabase db = ExportDatabase.open(input, limits, READ_TABLES); StringTable strings = new StringTable(db)) {
            return readExport(input, db, strings);
        } catch (SQLException e) {
            throw new TraceFormatException(file + ": " + describe(e), e);
        } catch (ArithmeticException e) {
            throw new TraceFormatException(file + ": a time plus the session start (utcEpochNs) is out of range", e);
        }
    }

    /** One line for an SQLite failure: corrupt, not a database, or another error. */
    static String describe(SQLException e) {
        String msg = Messages.oneLine(e);
        if (e instanceof SQLiteException se) {
            SQLiteErrorCode code = se.getResultCode();
            if (code == SQLiteErrorCode.SQLITE_CORRUPT || code.code == SQLiteErrorCode.SQLITE_CORRUPT.code) {
                return "corrupt SQLite database (" + msg + ")";
            }
            if (code == SQLiteErrorCode.SQLITE_NOTADB) {
                return "not an SQLite database, or a damaged one (" + msg + ")";
            }
        }
        if (msg.contains("malformed") || msg.contains("SQLITE_CORRUPT")) {
            return "corrupt SQLite database (" + msg + ")";
        }
        if (msg.contains("SQLITE_NOTADB")) {
            return "not an SQLite database, or a damaged one (" + msg + ")";
        }
        return "cannot read the SQLite database (" + msg + ")";
    }

    /**
     * Reads one open export: the tables in a fixed order (the warnings follow it), the launch calls
     * alongside the kernel table.
     */
    private List<NsysRank> readExport(Path input, ExportDatabase db, StringTable strings)
            throws SQLException, TraceFormatException {
        String file = input.toString();
        Warnings warnings = new Warnings();
        ExportSchema schema = ExportSchema.identify(db, file, warnings);
        SessionClock clock = SessionClock.read(db);
        ExportProcesses processes = new ExportProcesses(db);
        processes.readEnvironment();
        GpuModels gpus = GpuModels.read(db);
        processes.readThreadNames(strings);
        processes.readMpiRanks();
        boolean kernelTable = db.hasTable(KERNEL);
        // The runtime table (launch calls) and the kernel table are the two big tables: they are
        // read at the same time on two read-only connections; kernels join their launches when
        // they are ordered (RankBuilder.flush), after both are in.
        LaunchCalls launches = new LaunchCalls(db, schema, clock, warnings);
        launches.start(kernelTable, strings);
        DeviceTables devices = new DeviceTables(db, schema, strings, clock, classifier, launches, warnings);
        if (kernelTable) {
            devices.read(KERNEL, DeviceKind.COMPUTE);
            devices.read(MEMCPY, DeviceKind.MEMCPY);
            devices.read(MEMSET, DeviceKind.MEMSET);
            devices.read(GRAPH, DeviceKind.OTHER);
        }
        new NvtxRanges(db, schema, strings, clock, processes, warnings, stepPattern, defaultStepPattern).read();
        if (devices.droppedRows() > 0) {
            warnings.add("memcpy/memset rows of processes or devices that ran no kernel skipped",
                    devices.droppedRows() + " rows");
        }
        ExportRanks ranks = new ExportRanks(file, warnings, processes, gpus, launches.index(), devices);
        if (devices.ranks().isEmpty()) {
            return List.of(ranks.noDeviceActivity(kernelTable));
        }
        return ranks.build();
    }
}
