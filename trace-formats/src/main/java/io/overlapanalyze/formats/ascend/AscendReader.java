package io.overlapanalyze.formats.ascend;

import io.overlapanalyze.formats.kernels.KernelRules;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.overlapanalyze.formats.input.BoundedLineReader;
import io.overlapanalyze.formats.input.FormatDetector;
import io.overlapanalyze.formats.input.InputLimits;
import io.overlapanalyze.formats.input.SniffedInput;
import io.overlapanalyze.formats.input.TraceFormatException;
import io.overlapanalyze.formats.input.TraceReader;
import io.overlapanalyze.formats.sqlite.ReadOnlySqlite;
import io.overlapanalyze.model.RankSource;
import io.overlapanalyze.model.RankTrace;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.IntFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Reads Ascend profiler output (ascend.md §2): a torch_npu {@code *_ascend_pt} directory, an msprof
 * {@code PROF_*} tree, a bare {@code trace_view.json} / {@code msprof_*.json}, or a DB export
 * ({@code ascend_pytorch_profiler_<rank>.db}, {@code msprof_*.db}), into one {@link RankTrace} per
 * device.
 *
 * <p>Which file is the timeline: torch_npu's {@code ASCEND_PROFILER_OUTPUT/trace_view.json}, else
 * its DB; msprof's newest {@code mindstudio_profiler_output/msprof_<14 digits>.json}, else the
 * slices {@code msprof_slice_<i>_<ts>.json} of the newest timestamp (read as one timeline), else
 * the newest {@code msprof_*.db} (the rule of msprof-analyze's {@code find_msprof_json}). The rank
 * comes from {@code profiler_info_<rank>.json} {@code rank_id} (an int or a string), from msprof's
 * {@code device_<n>/info.json.<n>}, or from the database's {@code RANK_DEVICE_MAP}. torch_npu's
 * allocator records ({@code memory_record.csv} beside the timeline, the DB's {@code MEMORY_RECORD})
 * are attached by {@link AscendMemoryRecords}; the profiler's transfer / waiting split of each HCCL op
 * ({@code communication.json}, {@code analysis.db CommAnalyzerTime}) by {@link AscendCommSplits}.
 */
public final class AscendReader implements TraceReader {
    private static final Pattern MSPROF_JSON = Pattern.compile("^msprof_(\\d{14})\\.json(\\.gz)?$");
    private static final Pattern MSPROF_SLICE = Pattern.compile("^msprof_slice_(\\d+)_(\\d{14})\\.json(\\.gz)?$");
    private static final Pattern MSPROF_DB = Pattern.compile("^msprof_(\\d+)\\.db$");
    private static final Pattern TORCH_DB = Pattern.compile("^ascend_pytorch_profiler(_\\d+)?\\.db$");
    private static final Pattern PROFILER_INFO = Pattern.compile("^profiler_info(?:_(\\d+))?\\.json$");
    private static final Pattern DEVICE_DIR = Pattern.compile("^device_(\\d+)$");
    private static final ObjectMapper JSON = new ObjectMapper();

    /** What a kernel is: the run's rules, passed in (the readers never read process-wide settings). */
    private final KernelRules rules;
    /** What each file of the capture may weigh: the run's limits, passed in. */
    private final InputLimits limits;

    /** A reader with the built-in kernel rules and the default limits (tests and tools). */
    public AscendReader() {
        this(KernelRules.builtIn(), InputLimits.DEFAULT);
    }

    /**
     * A reader with these kernel rules ({@code --comm-kernel} and the others, as the run's options
     * give them) and input limits ({@code --max-input-size}, {@code --max-ratio}).
     */
    public AscendReader(KernelRules rules, InputLimits limits) {
        this.rules = rules;
        this.limits = limits;
    }

    /**
     * True for a directory that is one Ascend capture: a torch_npu {@code *_ascend_pt} directory
     * (by name, by its {@code ASCEND_PROFILER_OUTPUT}, or by its {@code profiler_info*.json}) or an
     * msprof {@code PROF_*} tree. Such a directory is read as a whole, never as loose JSON files.
     */
    public static boolean isCaptureDirectory(Path dir) {
        if (!Files.isDirectory(dir)) {
            return false;
        }
        String name = dir.getFileName() == null ? "" : dir.getFileName().toString();
        if (name.endsWith("_ascend_pt") || Files.isDirectory(dir.resolve("ASCEND_PROFILER_OUTPUT"))) {
            return true;
        }
        if (name.startsWith("PROF_") && (Files.isDirectory(dir.resolve("mindstudio_profiler_output"))
                || Files.isDirectory(dir.resolve("host")) || hasChild(dir, DEVICE_DIR))) {
            return true;
        }
        return hasChild(dir, PROFILER_INFO);
    }

    /** True when an SQLite file is an Ascend export (or torch_npu's analysis.db): by its tables. */
    public static boolean isAscendDatabase(Path file) {
        try (ReadOnlySqlite c = ReadOnlySqlite.open(file)) {
            return (c.hasTable("TASK") && c.hasTable("STRING_IDS")) || c.hasTable("StepTraceTime");
        } catch (SQLException | TraceFormatException | IOException e) {
            return false;
        }
    }

    /** Reads {@code input}, sniffing it first ({@link SniffedInput#of}): for callers without the front door. */
    @Override
    public List<RankTrace> read(Path input) throws TraceFormatException, IOException {
        return read(SniffedInput.of(input, limits));
    }

    /** Reads an input the front door has sniffed, by what its head said (the file is not sniffed again). */
    public List<RankTrace> read(SniffedInput input) throws TraceFormatException, IOException {
        if (input.content() == FormatDetector.Content.DIRECTORY) {
            return readDirectory(input.path());
        }
        return readFile(input.path(), input.path().toString(), input.content());
    }

    private List<RankTrace> readFile(Path file, String source, FormatDetector.Content content)
            throws TraceFormatException, IOException {
        IntFunction<RankInfo> ranks = rankInfoNear(file);
        if (content == FormatDetector.Content.SQLITE) {
            return AscendCommSplits.attachDb(AscendMemoryRecords.attachDb(new DbReader(file, source, ranks, rules, limits).read(), file, limits),
                    file.toAbsolutePath().resolveSibling(AscendCommSplits.ANALYSIS_DB), limits);
        }
        if (content == FormatDetector.Content.EMPTY) {
            throw new TraceFormatException(file + ": file is empty");
        }
        List<RankTrace> traces = AscendMemoryRecords.attachCsv(new TimelineReader(List.of(file), source, ranks, rules, limits).read(),
                file.toAbsolutePath().resolveSibling(AscendMemoryRecords.FILE), limits);
        // The split lies beside a torch_npu timeline only (msprof's analyze/ output is another layout).
        Path parent = file.toAbsolutePath().getParent();
        return parent != null && parent.getFileName() != null
                && parent.getFileName().toString().equals("ASCEND_PROFILER_OUTPUT")
                ? AscendCommSplits.attachJson(traces, parent, limits) : traces;
    }

    private List<RankTrace> readDirectory(Path dir) throws TraceFormatException, IOException {
        Path out = dir.resolve("ASCEND_PROFILER_OUTPUT");
        if (Files.isDirectory(out)) {
            Path trace = out.resolve("trace_view.json");
            if (Files.isRegularFile(trace)) {
                return AscendCommSplits.attachJson(AscendMemoryRecords.attachCsv(new TimelineReader(List.of(trace),
                        dir.toString(), torchNpuRank(dir, limits), rules, limits).read(), out.resolve(AscendMemoryRecords.FILE),
                        limits), out, limits);
            }
            Path db = newest(out, TORCH_DB);
            if (db != null) {
                return AscendCommSplits.attachDb(AscendMemoryRecords.attachDb(new DbReader(db, dir.toString(),
                        torchNpuRank(dir, limits), rules, limits).read(), db, limits), out.resolve(AscendCommSplits.ANALYSIS_DB),
                        limits);
            }
        }
        Path prof = dir.getFileName() != null && dir.getFileName().toString().startsWith("PROF_") ? dir
                : newest(dir, Pattern.compile("^PROF_.*"));
        if (prof != null) {
            List<RankTrace> fromProf = readProf(prof, dir.toString(), dir.equals(prof) ? msprofRank(prof, limits) : torchNpuRank(dir, limits));
            if (fromProf != null) {
                return fromProf;
            }
        }
        throw new TraceFormatException(dir + ": no Ascend timeline: expected ASCEND_PROFILER_OUTPUT/trace_view.json,"
                + " ASCEND_PROFILER_OUTPUT/ascend_pytorch_profiler_<rank>.db, or a PROF_*/mindstudio_profiler_output/"
                + "msprof_*.json (was the profile exported?)");
    }

    /** The msprof tree's timeline, or {@code null} when it holds none. */
    private List<RankTrace> readProf(Path prof, String source, IntFunction<RankInfo> ranks)
            throws TraceFormatException, IOException {
        Path out = prof.resolve("mindstudio_profiler_output");
        if (Files.isDirectory(out)) {
            Path json = newest(out, MSPROF_JSON);
            if (json != null) {
                return new TimelineReader(List.of(json), source, ranks, rules, limits).read();
            }
            List<Path> slices = slices(out);
            if (!slices.isEmpty()) {
                return new TimelineReader(slices, source, ranks, rules, limits).read();
            }
        }
        Path db = newest(prof, MSPROF_DB);
        return db == null ? null : new DbReader(db, source, ranks, rules, limits).read();
    }

    /** The slices of the newest timestamp, by slice number. */
    private static List<Path> slices(Path dir) throws IOException {
        List<Path> all = list(dir).stream().filter(p -> MSPROF_SLICE.matcher(p.getFileName().toString()).matches()).toList();
        String newest = all.stream().map(p -> group(MSPROF_SLICE, p, 2)).max(String::compareTo).orElse(null);
        List<Path> out = new ArrayList<>();
        for (Path p : all) {
            if (group(MSPROF_SLICE, p, 2).equals(newest)) {
                out.add(p);
            }
        }
        out.sort(Comparator.comparingLong(p -> Long.parseLong(group(MSPROF_SLICE, p, 1))));
        return out;
    }

    private static String group(Pattern pattern, Path p, int g) {
        Matcher m = pattern.matcher(p.getFileName().toString());
        return m.matches() ? m.group(g) : "";
    }

    /** The lexicographically last matching child (msprof names carry a sortable timestamp). */
    private static Path newest(Path dir, Pattern pattern) throws IOException {
        return list(dir).stream().filter(p -> pattern.matcher(p.getFileName().toString()).matches())
                .max(Comparator.comparing(p -> p.getFileName().toString())).orElse(null);
    }

    private static List<Path> list(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> s = Files.list(dir)) {
            return s.sorted().toList();
        }
    }

    private static boolean hasChild(Path dir, Pattern pattern) {
        try {
            return newest(dir, pattern) != null;
        } catch (IOException e) {
            return false;
        }
    }

    /** Rank information for a bare file: look where torch_npu or msprof would have put it. */
    private IntFunction<RankInfo> rankInfoNear(Path file) {
        Path parent = file.toAbsolutePath().getParent();
        if (parent == null) {
            return d -> RankInfo.UNKNOWN;
        }
        String name = parent.getFileName() == null ? "" : parent.getFileName().toString();
        if ((name.equals("ASCEND_PROFILER_OUTPUT")) && parent.getParent() != null) {
            return torchNpuRank(parent.getParent(), limits);
        }
        if (name.equals("mindstudio_profiler_output") && parent.getParent() != null) {
            return msprofRank(parent.getParent(), limits);
        }
        return d -> RankInfo.UNKNOWN;
    }

    /** torch_npu: {@code profiler_info_<rank>.json} {@code rank_id}; the file name when it has none. */
    static IntFunction<RankInfo> torchNpuRank(Path dir, InputLimits limits) {
        RankInfo info = RankInfo.UNKNOWN;
        Path f = null;
        String fromName = null;
        try {
            f = newest(dir, PROFILER_INFO);
            if (f != null) {
                fromName = group(PROFILER_INFO, f, 1);
                Integer fromContent = rankId(f, limits);
                if (fromContent != null && fromContent >= 0) {
                    info = new RankInfo(fromContent, RankSource.TRACE);
                } else if (fromContent == null && fromName != null && !fromName.isEmpty()) {
                    info = new RankInfo(Integer.parseInt(fromName), RankSource.FILE_NAME);
                }
            }
        } catch (IOException | NumberFormatException e) {
            // A rank_id that is no number ("zero") is metadata gone wrong, a file that cannot be read
            // (NUL-filled, too big) is damage: say so, and use the file name's rank
            // (profiler_info_<rank>.json) when it has one; the rest of the capture is read.
            String what = f == null ? "the profiler_info file" : f.getFileName().toString();
            boolean named = fromName != null && !fromName.isEmpty();
            info = (named ? new RankInfo(Integer.parseInt(fromName), RankSource.FILE_NAME) : RankInfo.UNKNOWN)
                    .withWarning(what + ": " + (e instanceof com.fasterxml.jackson.core.JsonProcessingException j
                            ? "not readable JSON (" + io.overlapanalyze.formats.input.JsonProblem.describe(j) + ")"
                            : e instanceof NumberFormatException ? "rank_id is not a rank number"
                            : "not read (" + io.overlapanalyze.formats.input.Messages.oneLine(e) + ")") + "; "
                            + (named ? "using rank " + fromName + " from the file name" : "rank unknown"));
        }
        RankInfo fixed = info;
        return d -> fixed;
    }

    /** msprof: {@code device_<n>/info.json.<n>} {@code rank_id} of each device. */
    static IntFunction<RankInfo> msprofRank(Path prof, InputLimits limits) {
        return dev -> {
            Path info = prof.resolve("device_" + dev).resolve("info.json." + dev);
            try {
                Integer r = Files.isRegularFile(info) ? rankId(info, limits) : null;
                return r != null && r >= 0 ? new RankInfo(r, RankSource.TRACE) : RankInfo.UNKNOWN;
            } catch (IOException | NumberFormatException e) {
                return RankInfo.UNKNOWN;
            }
        };
    }

    /**
     * The most a metadata file ({@code profiler_info_<rank>.json}, msprof's {@code info.json.<n>})
     * may hold: real ones are about 1.2 KiB, and the file is read as a tree (several times its size
     * in heap), so a damaged or foreign one of gigabytes is refused before it is read.
     */
    static final long METADATA_MAX_BYTES = 16L << 20;

    /** {@code rank_id}, an int or (torch_npu 2.7.1) a string; {@code null} when absent. */
    private static Integer rankId(Path f, InputLimits limits) throws IOException {
        long size = Files.size(f);
        long max = Math.min(METADATA_MAX_BYTES, limits.maxDecompressedBytes());
        if (size > max) {
            throw new BoundedLineReader.DamagedFileException(size + " bytes, more than the " + max
                    + " a metadata file may hold (a few KiB when written by the profiler): a damaged file");
        }
        JsonNode root = JSON.readTree(f.toFile());
        JsonNode r = root == null ? null : root.get("rank_id");
        if (r == null || r.isNull()) {
            return null;
        }
        return r.isNumber() ? r.asInt() : Integer.parseInt(r.asText().trim());
    }
}
