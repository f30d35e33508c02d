package io.overlapanalyze.formats;

import io.overlapanalyze.formats.ascend.AscendFormat;
import io.overlapanalyze.formats.input.FormatDetector;
import io.overlapanalyze.formats.input.FormatReader;
import io.overlapanalyze.formats.input.InputLimitExceededException;
import io.overlapanalyze.formats.input.InputLimits;
import io.overlapanalyze.formats.input.InputStreams;
import io.overlapanalyze.formats.input.Messages;
import io.overlapanalyze.formats.input.ReadOptions;
import io.overlapanalyze.formats.input.SniffedInput;
import io.overlapanalyze.formats.input.Sniffer;
import io.overlapanalyze.formats.input.TraceFormatException;
import io.overlapanalyze.formats.flightrecorder.FlightRecorderFormat;
import io.overlapanalyze.formats.kineto.KinetoFormat;
import io.overlapanalyze.formats.nsys.NsysFormat;
import io.overlapanalyze.model.RankTrace;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Map;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * Reading traces, as a library with one entry point: turns the paths a user gave into rank
 * traces. It expands them (files, directories recursively, quoted globs, a capture directory as
 * one input), sniffs each file's content, hands it to the first reader of its registry that
 * recognises it (the fallback readers last), and turns every failure into a
 * {@link TraceFormatException} whose message is one line naming the file.
 *
 * <p>The registry ({@link #standard()}: Kineto, Nsight, Ascend) is the only place that lists the
 * formats; a new format is a {@link FormatReader} in its own package and one entry here.
 */
public final class TraceFormats {
    private static final TraceFormats STANDARD = new TraceFormats(List.of(new FlightRecorderFormat(), new KinetoFormat(), new NsysFormat(),
            new AscendFormat()));

    private final List<FormatReader> readers;
    /** How an input is opened to be told apart: once per input, its result handed on. */
    private final Sniffer sniffer;

    /** A front door over these readers, asked in this order (fallback readers after the others). */
    public TraceFormats(List<FormatReader> readers) {
        this(readers, Sniffer.STANDARD);
    }

    private TraceFormats(List<FormatReader> readers, Sniffer sniffer) {
        this.readers = List.copyOf(readers);
        this.sniffer = sniffer;
    }

    /** The same readers, inputs sniffed through {@code s} (a test that counts the opens). */
    public TraceFormats withSniffer(Sniffer s) {
        return new TraceFormats(readers, s);
    }

    /** Every format this tool reads. */
    public static TraceFormats standard() {
        return STANDARD;
    }

    /** These readers and one more, asked after them. */
    public TraceFormats withReader(FormatReader reader) {
        List<FormatReader> all = new ArrayList<>(readers);
        all.add(reader);
        return new TraceFormats(all, sniffer);
    }

    public List<FormatReader> readers() {
        return readers;
    }

    /**
     * The files a set of paths stands for, and the files found in directories that are not traces.
     *
     * @param files   the inputs to read, in order, without duplicates
     * @param skipped one line per file left out, naming it and why
     */
    /**
     * @param unreadableDirectories directories below an input that could not be listed (permission
     *                              denied): their traces are not read, the rest is; the caller names
     *                              them as unreadable inputs
     * @param sniffed               what the walk's check sniffed of the files it kept, by file, so
     *                              that reading them does not sniff them again (a head of up to
     *                              {@link FormatDetector#HEAD_BYTES} each, until the expansion is dropped)
     * @param sniffedUnder          the limits those files were sniffed under: a read under other
     *                              limits sniffs again
     */
    public record Expanded(List<Path> files, List<String> skipped, List<Path> unreadableDirectories,
                           Map<Path, SniffedInput> sniffed, InputLimits sniffedUnder) {
        public Expanded {
            files = List.copyOf(files);
            skipped = List.copyOf(skipped);
            unreadableDirectories = List.copyOf(unreadableDirectories);
            sniffed = Map.copyOf(sniffed);
            sniffedUnder = sniffedUnder == null ? InputLimits.DEFAULT : sniffedUnder;
        }

        public Expanded(List<Path> files, List<String> skipped, List<Path> unreadableDirectories) {
            this(files, skipped, unreadableDirectories, Map.of(), null);
        }

        public Expanded(List<Path> files, List<String> skipped) {
            this(files, skipped, List.of());
        }

        /** The sniffs a read under {@code limits} may take as its own (none under other limits). */
        public Map<Path, SniffedInput> sniffsFor(InputLimits limits) {
            return sniffedUnder.equals(limits) ? sniffed : Map.of();
        }
    }

    /** The inputs a path stands for (see {@link #expand(Path, PathMatcher)}), with the usual names. */
    public List<Path> expand(Path path) throws TraceFormatException {
        return expand(path, null);
    }

    /**
     * The files a path stands for: itself; the files below a directory (recursively) whose name
     * {@code nameFilter} accepts (default: the names some reader accepts: *.json, *.json.gz,
     * *.sqlite); a capture directory some reader reads whole (Ascend {@code *_ascend_pt},
     * {@code PROF_*}: its loose JSON files are not traces); or, for a path that does not exist and
     * holds glob characters ({@code traces/rank-*.json.gz}, quoted so the shell leaves it alone),
     * the matching files.
     */
    public List<Path> expand(Path path, PathMatcher nameFilter) throws TraceFormatException {
        return expand(path, nameFilter, new ArrayList<>());
    }

    /**
     * As {@link #expand(Path, PathMatcher)}, adding to {@code notes} one line per symbolic link met in
     * a directory that is not followed ({@link LinkedDirectoryWalk}): a link to a directory outside
     * the input, a loop, a link to nothing.
     */
    public List<Path> expand(Path path, PathMatcher nameFilter, List<String> notes) throws TraceFormatException {
        return expand(path, nameFilter, notes, null);
    }

    /**
     * As {@link #expand(Path, PathMatcher, List)}; a directory below {@code path} that cannot be
     * listed (permission denied) is added to {@code unlisted} and the walk goes on, when
     * {@code unlisted} is given (else it is the error, as {@code path} itself is).
     */
    private List<Path> expand(Path path, PathMatcher nameFilter, List<String> notes, List<Path> unlisted)
            throws TraceFormatException {
        if (!Files.exists(path) && isGlob(path.toString())) {
            return expandGlob(path.toString(), nameFilter);
        }
        if (!Files.exists(path)) {
            throw new TraceFormatException(path + ": no such file or directory");
        }
        if (!Files.isDirectory(path)) {
            return List.of(path);
        }
        if (isInputDirectory(path)) {
            return List.of(path);
        }
        List<String> linkNotes = new ArrayList<>();
        List<Path> found;
        try {
            found = new LinkedDirectoryWalk(this, path, nameFilter, linkNotes, unlisted).walk();
        } catch (IOException e) {
            throw new TraceFormatException(path + ": cannot list directory: " + e.getMessage(), e);
        }
        if (found.isEmpty()) {
            throw new TraceFormatException(path + ": directory holds no trace files (" + (nameFilter != null
                    ? "none matches the name filter" : inputNames()) + ")" + (linkNotes.isEmpty() ? ""
                    : "; " + linkNotes.get(0) + (linkNotes.size() > 1 ? " (and " + (linkNotes.size() - 1)
                    + " more links not followed)" : "")) + (unlisted == null || unlisted.isEmpty() ? ""
                    : "; " + unlisted.size() + " of its directories cannot be listed (permission denied), first "
                    + Messages.quote(unlisted.get(0))));
        }
        notes.addAll(linkNotes);
        return found;
    }

    /**
     * Which files that are no trace a caller keeps (diff and gate: saved summaries), told from what the
     * front door sniffed of each file, so that a file is opened once for the caller's look, the walk's
     * not-a-trace check and the read.
     */
    @FunctionalInterface
    public interface Keep {
        /** Keeps nothing: every walked file that is no trace is left out. */
        Keep NOTHING = (file, sniffed) -> false;

        /**
         * Whether to keep {@code file} although it may be no trace (it is then neither checked nor
         * handed to the read as sniffed: the caller reads it).
         *
         * @param sniffed what the front door sniffed of it; {@code null} when it could not be sniffed (not
         *                a regular file, unreadable, over the limits: the readers say why)
         */
        boolean keep(Path file, SniffedInput sniffed);

        /**
         * Whether the files the user named are shown to {@link #keep} too (sniffed for it, and the sniff
         * of those not kept handed to the read). They are read whether kept or not: this is for a caller
         * that tells them apart itself. Files found by walking a directory or a glob are always shown.
         */
        default boolean looksAtNamedFiles() {
            return false;
        }
    }

    /**
     * Expands every path, in order, each file once; a file found by walking a directory or matching
     * a glob that is not a trace by content ({@link TraceContent}: a job's {@code config.json}, a
     * saved result) is left out with a line saying so, unless {@code keep} accepts it (a saved
     * summary, for diff and gate). A file named by the user is always read: they asked for it.
     * When every file was left out, that is the error.
     */
    public Expanded expand(List<Path> paths, PathMatcher nameFilter, Keep keep) throws TraceFormatException {
        return expand(paths, nameFilter, keep, InputLimits.DEFAULT);
    }

    /**
     * As {@link #expand(List, PathMatcher, Keep)}, looking into walked files under the run's
     * {@code limits} (a file over them is left to the readers, which refuse it). Each file looked into
     * is sniffed once, for {@code keep} and the not-a-trace check together, and its sniff kept for the read.
     */
    public Expanded expand(List<Path> paths, PathMatcher nameFilter, Keep keep, InputLimits limits)
            throws TraceFormatException {
        LinkedHashSet<Path> files = new LinkedHashSet<>();
        List<String> skipped = new ArrayList<>();
        List<Path> unlisted = new ArrayList<>();
        Map<Path, SniffedInput> sniffed = new HashMap<>();
        for (Path p : paths) {
            List<Path> found = expand(p, nameFilter, skipped, unlisted);
            boolean walked = !found.equals(List.of(p));
            for (Path f : found) {
                if (!walked && !keep.looksAtNamedFiles()) {
                    files.add(f); // named: read as named, sniffed by the read
                    continue;
                }
                // A trace found twice (named and walked, or by two paths) is looked at again on its first sniff.
                SniffedInput s = sniffed.containsKey(f) ? sniffed.get(f) : sniffQuietly(f, limits);
                boolean kept = keep.keep(f, s);
                String why = !walked || kept || s == null ? null : TraceContent.notATrace(s, limits, sniffer);
                if (why != null) {
                    skipped.add(Messages.quote(f) + ": " + why + ", skipped");
                } else {
                    if (s != null && !kept) {
                        sniffed.put(f, s);
                    }
                    files.add(f);
                }
            }
        }
        if (files.isEmpty() && !skipped.isEmpty()) {
            throw nothingToRead(skipped);
        }
        return new Expanded(new ArrayList<>(files), skipped, unlisted, sniffed, limits);
    }

    /** Every file found was left out as no trace ({@code skipped}: their lines, not empty): the error, naming the first. */
    public static TraceFormatException nothingToRead(List<String> skipped) {
        return new TraceFormatException(skipped.get(0).replaceFirst(", skipped$", "")
                + (skipped.size() > 1 ? " (and " + (skipped.size() - 1) + " more)" : "") + ": no trace to read");
    }

    /**
     * The check {@link #expand(List, PathMatcher, Keep)} applies to what it walks, for a caller
     * that walks elsewhere (a remote file system): whether a file found by walking a directory is no
     * trace by content (a job's {@code config.json}, a saved result), with what was sniffed of it so
     * that reading it opens it only once more ({@link JobReader#readOne(TraceFormats, Path, SniffedInput,
     * Path, ReadOptions, RankNaming, Function)}).
     */
    public Walked checkWalked(Path walkedFile, InputLimits limits) {
        SniffedInput s = sniffQuietly(walkedFile, limits);
        return new Walked(s, s == null ? null : TraceContent.notATrace(s, limits, sniffer));
    }

    /**
     * A walked file as {@link #checkWalked} found it.
     *
     * @param sniffed   what was sniffed, for the read to take instead of sniffing again; {@code null}
     *                  when the file could not be sniffed (the readers say why)
     * @param notATrace why it is no trace, or {@code null} when it may be one
     */
    public record Walked(SniffedInput sniffed, String notATrace) {
    }

    /**
     * A walked file sniffed for the not-a-trace check, or {@code null} when it cannot be (not a
     * regular file: a FIFO must not be opened; or not openable, over the limits: the readers say why).
     */
    private SniffedInput sniffQuietly(Path file, InputLimits limits) {
        if (!Files.isRegularFile(file)) {
            return null;
        }
        try {
            return sniffer.sniff(file, limits);
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /**
     * Opens a file from its start because what was sniffed of it could not tell what it is (a caller
     * that tells files apart itself, as {@link Keep} does, and reads on): through the same seam as the
     * sniffs, so that a test counts every open that tells a file apart.
     */
    public InputStream readOn(Path file, InputLimits limits) throws IOException {
        return sniffer.readOn(file, limits);
    }

    /** Whether a directory walk reads a file of this name: some reader accepts it. */
    public boolean isTraceFileName(String name) {
        for (FormatReader r : readers) {
            if (r.acceptsFileName(name)) {
                return true;
            }
        }
        return false;
    }

    /** Whether some reader reads this directory whole. */
    public boolean isInputDirectory(Path dir) {
        for (FormatReader r : readers) {
            if (r.isInputDirectory(dir)) {
                return true;
            }
        }
        return false;
    }

    /** What the readers look for in a directory, in registry order: "*.json, *.json.gz, *.sqlite, …". */
    private String inputNames() {
        List<String> names = new ArrayList<>();
        for (FormatReader r : readers) {
            if (!r.inputNames().isEmpty()) {
                names.add(r.inputNames());
            }
        }
        return String.join(", ", names);
    }

    /** The formats the readers read, in registry order, for the line refusing a file: "…; an Nsight Systems SQLite export; …". */
    private String formatNames() {
        List<String> names = new ArrayList<>();
        for (FormatReader r : readers) {
            if (!r.formatName().isEmpty()) {
                names.add(r.formatName());
            }
        }
        return String.join("; ", names);
    }

    /** Whether a path as typed holds glob characters ({@code * ? [ {}). */
    public static boolean isGlob(String s) {
        return s.indexOf('*') >= 0 || s.indexOf('?') >= 0 || s.indexOf('[') >= 0 || s.indexOf('{') >= 0;
    }

    /** Walks from the longest glob-free leading directory and keeps the files the whole pattern matches. */
    private static List<Path> expandGlob(String pattern, PathMatcher nameFilter) throws TraceFormatException {
        Path full = Path.of(pattern);
        Path base = full.isAbsolute() ? full.getRoot() : Path.of("");
        int depth = 0;
        boolean inGlob = false;
        for (Path part : full) {
            if (!inGlob && !isGlob(part.toString())) {
                base = base.resolve(part);
            } else {
                inGlob = true;
                depth++;
            }
        }
        PathMatcher matcher = FileSystems.getDefault().getPathMatcher("glob:" + pattern);
        boolean relativeToHere = base.toString().isEmpty();
        Path start = relativeToHere ? Path.of(".") : base;
        if (!Files.isDirectory(start)) {
            throw new TraceFormatException(pattern + ": no such directory " + start);
        }
        int maxDepth = pattern.contains("**") ? Integer.MAX_VALUE : depth;
        try (Stream<Path> walk = Files.walk(start, maxDepth)) {
            List<Path> files = walk.filter(Files::isRegularFile)
                    .map(p -> relativeToHere ? start.relativize(p) : p)
                    .filter(matcher::matches)
                    .filter(p -> nameFilter == null || nameFilter.matches(p.getFileName()))
                    .sorted()
                    .toList();
            if (files.isEmpty()) {
                throw new TraceFormatException(pattern + ": no file matches");
            }
            return files;
        } catch (IOException e) {
            throw new TraceFormatException(pattern + ": cannot list " + start + ": " + e.getMessage(), e);
        }
    }

    /** Reads one input into its rank traces, with the default options. */
    public List<RankTrace> read(Path input) throws TraceFormatException {
        return read(input, ReadOptions.DEFAULT);
    }

    /** Reads one input (a file, or a directory some reader reads whole) into its rank traces. */
    public List<RankTrace> read(Path input, ReadOptions options) throws TraceFormatException {
        return read(input, options, null);
    }

    /**
     * As {@link #read(Path, ReadOptions)}; {@code known}, when given, is what the front door
     * already sniffed of {@code input} (the walk's check, {@link Expanded#sniffed}), taken
     * instead of opening the file to sniff it again.
     */
    public List<RankTrace> read(Path input, ReadOptions options, SniffedInput known) throws TraceFormatException {
        boolean directory = Files.isDirectory(input);
        if (directory && !isInputDirectory(input)) {
            throw new TraceFormatException(input + ": is a directory");
        }
        if (!Files.exists(input) && Files.isSymbolicLink(input)) {
            throw new TraceFormatException(input + (isLinkLoop(input) ? ": a loop of symbolic links"
                    : ": a symbolic link to a file that does not exist") + linkTarget(input));
        }
        if (!Files.isReadable(input)) {
            throw new TraceFormatException(input + (Files.exists(input) ? ": permission denied" : ": no such file"));
        }
        if (!directory && !Files.isRegularFile(input)) {
            // Opening a FIFO blocks until a writer comes, a device may never end: neither is a trace file.
            throw new TraceFormatException(input + ": not a regular file (a FIFO, socket or device); not read");
        }
        try {
            SniffedInput sniffed = known != null && known.path().equals(input) ? known
                    : sniffer.sniff(input, options.limits());
            if (sniffed.content() == FormatDetector.Content.EMPTY) {
                throw new TraceFormatException(input + ": file is empty");
            }
            FormatReader reader = readerFor(sniffed);
            if (reader == null) {
                throw new TraceFormatException(input + ": not a trace this tool reads (expected one of: "
                        + formatNames() + ")");
            }
            try {
                return reader.read(sniffed, options);
            } catch (TraceFormatException e) {
                // A reader may quote a value from the file that holds a newline or control characters;
                // the user still gets one line.
                throw reader.explain(sniffed, new TraceFormatException(Messages.oneLine(e), e));
            }
        } catch (InputLimitExceededException e) {
            throw new TraceFormatException(Messages.oneLine(e), e);
        } catch (NoSuchFileException e) {
            throw new TraceFormatException(input + ": no such file", e);
        } catch (AccessDeniedException e) {
            throw new TraceFormatException(input + ": permission denied", e);
        } catch (IOException e) {
            throw new TraceFormatException(input + ": cannot read: " + Messages.oneLine(e), e);
        }
    }

    /** Whether following {@code link} by hand comes back to a link already met (at most 40, as the kernel). */
    static boolean isLinkLoop(Path link) {
        java.util.Set<Path> seen = new java.util.HashSet<>();
        Path p = link.toAbsolutePath().normalize();
        for (int i = 0; i < 40 && Files.isSymbolicLink(p); i++) {
            if (!seen.add(p)) {
                return true;
            }
            try {
                p = p.resolveSibling(Files.readSymbolicLink(p)).normalize();
            } catch (IOException | UnsupportedOperationException | SecurityException e) {
                return false;
            }
        }
        return Files.isSymbolicLink(p);
    }

    /** " (→ TARGET)" for a link whose target can be read, else "". */
    private static String linkTarget(Path link) {
        try {
            return " (" + Messages.quote(Files.readSymbolicLink(link)) + ")";
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            return "";
        }
    }

    /** Expands and reads every path, in order, one file at a time. */
    public List<RankTrace> readAll(List<Path> paths, ReadOptions options) throws TraceFormatException {
        List<RankTrace> traces = new ArrayList<>();
        for (Path p : paths) {
            for (Path f : expand(p)) {
                traces.addAll(read(f, options));
            }
        }
        return traces;
    }

    /**
     * Reads expanded files in parallel (bounded by the cores and the heap, {@link JobReader}),
     * names each file's rank ({@code naming}; only for a file that gives one rank) and hands every
     * rank to {@code then} on the reader's thread (an analysis, so that it runs in parallel too).
     * A file that cannot be read is collected, not thrown: one bad rank file must not hide the
     * others; only when nothing could be read is it the error.
     *
     * @param progress where a long read shows its progress (on a terminal only), or {@code null}
     */
    public <T> JobReader.Read<T> readInParallel(List<Path> files, ReadOptions options, RankNaming naming,
                                                Function<RankTrace, T> then, PrintWriter progress)
            throws TraceFormatException {
        return JobReader.read(this, files, Map.of(), options, naming, then, progress);
    }

    /**
     * As {@link #readInParallel(List, ReadOptions, RankNaming, Function, PrintWriter)} over the
     * expanded files, each file the walk has sniffed taken as sniffed (not opened to sniff again).
     */
    public <T> JobReader.Read<T> readInParallel(Expanded expanded, ReadOptions options, RankNaming naming,
                                                Function<RankTrace, T> then, PrintWriter progress)
            throws TraceFormatException {
        return JobReader.read(this, expanded.files(), expanded.sniffsFor(options.limits()), options, naming, then,
                progress);
    }

    /** The first reader that recognises the input, the fallback readers asked last; {@code null}: none. */
    private FormatReader readerFor(SniffedInput input) throws IOException {
        for (boolean fallback : new boolean[] {false, true}) {
            for (FormatReader r : readers) {
                if (r.isFallback() == fallback && r.recognises(input)) {
                    return r;
                }
            }
        }
        return null;
    }
}
