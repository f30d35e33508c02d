package io.overlapanalyze.formats;

import io.overlapanalyze.model.RankSource;
import io.overlapanalyze.model.RankTrace;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * The rank id of a trace, in order of trust: the trace itself (Kineto {@code distributedInfo.rank}),
 * else the user's {@code --rank-regex} on the file path, else the usual file names:
 * {@code rank-3}, {@code rank3_}, {@code rank_3}, {@code rank0of128} (in the file name, then in a
 * parent directory name), {@code <anything>_3.pt.trace.json[.gz]}. A user regex replaces the
 * built-in name patterns (the user knows their naming); it never overrides the trace's own rank.
 * A regex that cannot be used is an {@link IllegalArgumentException} whose message is the one
 * line for the user ({@code --rank-regex: …}).
 */
public final class RankNaming {
    private static final Pattern RANK_WORD = Pattern.compile("(?i)(?<![a-z])rank[-_]?(\\d+)(?!\\d)");
    private static final Pattern TRAILING = Pattern.compile("_(\\d+)\\.pt\\.trace\\.json(\\.gz)?$");

    /** {@link RankTrace#MAX_WORLD_SIZE}. */
    public static final int MAX_WORLD_SIZE = RankTrace.MAX_WORLD_SIZE;

    private final Pattern user;

    public RankNaming(String userRegex) {
        if (userRegex == null) {
            user = null;
            return;
        }
        try {
            user = Pattern.compile(userRegex);
        } catch (PatternSyntaxException e) {
            throw new IllegalArgumentException("--rank-regex: not a valid regular expression: "
                    + e.getDescription() + " in '" + userRegex + "'");
        }
        if (user.matcher("").groupCount() < 1) {
            throw new IllegalArgumentException("--rank-regex: needs a capture group for the rank number, e.g. 'worker(\\d+)'");
        }
    }

    /** The rank the path names, or {@code null}. */
    public Integer fromPath(Path file) {
        if (user != null) {
            Matcher m = user.matcher(file.toString());
            if (m.find()) {
                return parse(m.group(1));
            }
            return null;
        }
        String name = file.getFileName().toString();
        Matcher m = RANK_WORD.matcher(name);
        if (m.find()) {
            return parse(m.group(1));
        }
        m = TRAILING.matcher(name);
        if (m.find()) {
            return parse(m.group(1));
        }
        for (Path p = file.toAbsolutePath().getParent(); p != null && p.getFileName() != null; p = p.getParent()) {
            m = RANK_WORD.matcher(p.getFileName().toString());
            if (m.find()) {
                return parse(m.group(1));
            }
        }
        return null;
    }

    private static Integer parse(String digits) {
        try {
            return Integer.parseInt(digits);
        } catch (NumberFormatException e) {
            return null; // absurdly long digit run: not a rank
        }
    }

    /**
     * The trace with its rank set from the path when the trace does not say, or says something
     * that cannot be (a negative rank, a rank not below the world size, a world size below 1); a
     * warning when they disagree or when the trace's own metadata was set aside.
     */
    public RankTrace apply(RankTrace t, Path file) {
        Integer named = fromPath(file);
        if (t.rankSource() != RankSource.TRACE && t.worldSize() > MAX_WORLD_SIZE) {
            t = t.withWorldSize(-1).withWarning("the trace's world size " + t.worldSize() + " cannot be right (more than "
                    + MAX_WORLD_SIZE + " ranks); world size unknown");
        }
        if (t.rankSource() == RankSource.TRACE) {
            String impossible = impossibleRank(t);
            if (impossible != null) {
                List<String> w = new ArrayList<>(t.warnings());
                int world = t.worldSize() >= 1 && t.worldSize() <= MAX_WORLD_SIZE ? t.worldSize() : -1;
                if (named != null && (world < 0 || named < world)) {
                    w.add("the trace's rank metadata cannot be right (" + impossible + "); using rank " + named
                            + " from the file name" + (world < 0 && t.worldSize() != -1 ? ", world size unknown" : ""));
                    return copy(t, named, user != null ? RankSource.USER : RankSource.FILE_NAME, world, w);
                }
                w.add("the trace's rank metadata cannot be right (" + impossible + ") and the file name gives no "
                        + "usable rank; keeping rank " + t.rank() + (world < 0 && t.worldSize() != -1
                        ? ", world size unknown" : "") + " (name the rank with --rank-regex)");
                return copy(t, t.rank(), t.rankSource(), world, w);
            }
        }
        if (named == null) {
            return t;
        }
        if (t.rankSource() == RankSource.TRACE) {
            if (named != t.rank()) {
                return t.withWarning("the file name says rank " + named + " but the trace says rank " + t.rank()
                        + "; using the trace's");
            }
            return t;
        }
        return t.withRank(named, user != null ? RankSource.USER : RankSource.FILE_NAME);
    }

    /** What is impossible about the trace's own rank and world size, or {@code null}. */
    static String impossibleRank(RankTrace t) {
        if (t.rank() < 0) {
            return "rank " + t.rank();
        }
        if (t.worldSize() != -1 && t.worldSize() < 1) {
            return "world size " + t.worldSize();
        }
        if (t.worldSize() > MAX_WORLD_SIZE) {
            return "world size " + t.worldSize() + ", more than " + MAX_WORLD_SIZE + " ranks";
        }
        if (t.rank() >= MAX_WORLD_SIZE) {
            return "rank " + t.rank() + ", beyond " + MAX_WORLD_SIZE + " ranks";
        }
        if (t.worldSize() >= 1 && t.rank() >= t.worldSize()) {
            return "rank " + t.rank() + " of a world of " + t.worldSize();
        }
        return null;
    }

    private static RankTrace copy(RankTrace t, int rank, RankSource source, int worldSize, List<String> warnings) {
        return t.withRank(rank, source).withWorldSize(worldSize).withWarnings(warnings);
    }
}
