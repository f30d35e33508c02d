package io.overlapanalyze.cli;

import io.overlapanalyze.model.RankSource;
import io.overlapanalyze.model.RankTrace;

import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * The rank id of a trace, in order of trust: the trace itself (Kineto {@code distributedInfo.rank}),
 * else the user's {@code --rank-regex} on the file path, else the usual file names:
 * {@code rank-3}, {@code rank3_}, {@code rank_3}, {@code rank0of128} (in the file name, then in a
 * parent directory name), {@code <anything>_3.pt.trace.json[.gz]}. A user regex replaces the
 * built-in name patterns (the user knows their naming); it never overrides the trace's own rank.
 */
final class RankNaming {
    private static final Pattern RANK_WORD = Pattern.compile("(?i)(?<![a-z])rank[-_]?(\\d+)(?!\\d)");
    private static final Pattern TRAILING = Pattern.compile("_(\\d+)\\.pt\\.trace\\.json(\\.gz)?$");

    private final Pattern user;

    RankNaming(String userRegex) {
        if (userRegex == null) {
            user = null;
            return;
        }
        try {
            user = Pattern.compile(userRegex);
        } catch (PatternSyntaxException e) {
            throw new UserInputException("--rank-regex: not a valid regular expression: "
                    + e.getDescription() + " in '" + userRegex + "'");
        }
        if (user.matcher("").groupCount() < 1) {
            throw new UserInputException("--rank-regex: needs a capture group for the rank number, e.g. 'worker(\\d+)'");
        }
    }

    /** The rank the path names, or {@code null}. */
    Integer fromPath(Path file) {
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

    /** The trace with its rank set from the path when the trace does not say; a warning when they disagree. */
    RankTrace apply(RankTrace t, Path file) {
        Integer named = fromPath(file);
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
}
