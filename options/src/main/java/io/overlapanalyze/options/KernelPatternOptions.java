package io.overlapanalyze.options;

import io.overlapanalyze.formats.input.Messages;
import io.overlapanalyze.formats.kernels.KernelRules;
import io.overlapanalyze.formats.kernels.KernelRules.Target;
import io.overlapanalyze.formats.kernels.KernelRules.UserPattern;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * The kernel-name patterns every command that reads traces accepts (a picocli mixin): user rules
 * that override the built-in classification of kernels as communication, fused or compute.
 */
public final class KernelPatternOptions {
    @Option(names = "--comm-kernel", paramLabel = "REGEX",
            description = "Kernels whose name matches REGEX are communication (repeatable; searched anywhere "
                    + "in the name, case-sensitive unless (?i)).")
    List<String> comm = new ArrayList<>();

    @Option(names = "--fused-kernel", paramLabel = "REGEX",
            description = "Kernels whose name matches REGEX compute and communicate inside themselves (fused; "
                    + "repeatable). Beats --comm-kernel.")
    List<String> fused = new ArrayList<>();

    @Option(names = "--compute-kernel", paramLabel = "REGEX",
            description = "Kernels whose name matches REGEX are compute (repeatable). Beats --fused-kernel "
                    + "and --comm-kernel.")
    List<String> compute = new ArrayList<>();

    @Option(names = "--kernel-patterns", paramLabel = "FILE",
            description = "Read more patterns from FILE: one 'comm|fused|compute REGEX' a line, '#' comments.")
    Path file;

    /**
     * The built-in rules with the user's patterns in front (each checked: a bad one is exit 2);
     * the run reads with them through its {@code ReadOptions}, nothing is set for the process.
     */
    public KernelRules rules() {
        return KernelRules.withUserPatterns(userPatterns());
    }

    /**
     * The user's patterns as plain data (each checked; {@code --kernel-patterns} read), in the
     * order given: {@link KernelRules#withUserPatterns} makes the same rules of them in another
     * JVM (a {@link UserPattern} is serialisable), without the file.
     */
    public List<UserPattern> userPatterns() {
        List<UserPattern> user = new ArrayList<>();
        for (String r : compute) {
            user.add(pattern(Target.COMPUTE, r, "--compute-kernel"));
        }
        for (String r : fused) {
            user.add(pattern(Target.FUSED, r, "--fused-kernel"));
        }
        for (String r : comm) {
            user.add(pattern(Target.COMM, r, "--comm-kernel"));
        }
        if (file != null) {
            user.addAll(readFile(file));
        }
        return user;
    }

    static List<UserPattern> readFile(Path file) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (java.nio.file.NoSuchFileException e) {
            throw new UserInputException(file + ": cannot read kernel patterns: no such file", e);
        } catch (IOException e) {
            throw new UserInputException(file + ": cannot read kernel patterns: " + Messages.oneLine(e), e);
        }
        List<UserPattern> out = new ArrayList<>();
        for (int n = 0; n < lines.size(); n++) {
            String line = lines.get(n).strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            String[] parts = line.split("\\s+", 2);
            Target target = switch (parts[0].toLowerCase(Locale.ROOT)) {
                case "comm" -> Target.COMM;
                case "fused" -> Target.FUSED;
                case "compute" -> Target.COMPUTE;
                default -> null;
            };
            if (target == null || parts.length < 2) {
                throw new UserInputException(file + ":" + (n + 1) + ": expected 'comm|fused|compute REGEX', got '"
                        + line + "'");
            }
            out.add(pattern(target, parts[1], file + ":" + (n + 1)));
        }
        return out;
    }

    private static UserPattern pattern(Target target, String regex, String where) {
        try {
            return new UserPattern(target, Pattern.compile(regex));
        } catch (PatternSyntaxException e) {
            throw new UserInputException(where + ": not a valid regular expression '" + regex + "': "
                    + e.getDescription() + " near index " + e.getIndex(), e);
        }
    }
}
