package io.overlapanalyze.cli.docs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The fenced code blocks of a markdown file, each with the marker comment on the line right before
 * its opening fence (or none). Markers say what a block is to the examples test:
 * <ul>
 *   <li>{@code <!-- output: [exit=N] [VAR=value ...] overlap-analyze ARGS -->} before a block with no
 *       language: the block is the whole standard output of that command (a first line
 *       {@code $ ./overlap-analyze ARGS} is the command as a reader types it, not output);</li>
 *   <li>{@code <!-- excerpt: [exit=N] [VAR=value ...] overlap-analyze ARGS -->} before a block with no
 *       language: every line of the block is a line of that output, in this order;</li>
 *   <li>{@code <!-- excerpt -->} before an {@code sh} block: its {@code ./overlap-analyze} lines are
 *       run in order, and its {@code # } lines are lines of the output of the command above them;</li>
 *   <li>{@code <!-- runs -->} before an {@code sh} block without output lines: its commands run
 *       as shown, exit 0;</li>
 *   <li>{@code <!-- not-output -->}: a block with no language that is not the tool's output
 *       (usage synopses);</li>
 *   <li>{@code <!-- job-file example -->} before a {@code json} block: a job file that synth must accept.</li>
 * </ul>
 */
public record DocBlock(Path doc, int line, String language, String marker, List<String> lines) {
    private static final Pattern OPEN = Pattern.compile("^(\\s*)```(\\S*)\\s*$");
    private static final Pattern CLOSE = Pattern.compile("^\\s*```\\s*$");
    private static final Pattern COMMENT = Pattern.compile("^\\s*<!--\\s*(.*?)\\s*-->\\s*$");

    /** Every fenced block of {@code doc}, in order; the content lines lose the fence's indentation. */
    public static List<DocBlock> of(Path doc) throws IOException {
        List<String> all = Files.readAllLines(doc);
        List<DocBlock> blocks = new ArrayList<>();
        for (int i = 0; i < all.size(); i++) {
            Matcher open = OPEN.matcher(all.get(i));
            if (!open.matches()) {
                continue;
            }
            String indent = open.group(1);
            String marker = null;
            if (i > 0) {
                Matcher c = COMMENT.matcher(all.get(i - 1));
                if (c.matches()) {
                    marker = c.group(1);
                }
            }
            List<String> body = new ArrayList<>();
            int j = i + 1;
            while (j < all.size() && !CLOSE.matcher(all.get(j)).matches()) {
                String l = all.get(j);
                body.add(l.startsWith(indent) ? l.substring(indent.length()) : l.stripLeading());
                j++;
            }
            if (j == all.size()) {
                throw new IllegalStateException(doc + ":" + (i + 1) + ": fence never closed");
            }
            blocks.add(new DocBlock(doc, i + 1, open.group(2), marker, List.copyOf(body)));
            i = j;
        }
        return blocks;
    }

    /** Line numbers (1-based) of marker comments that stand before no opening fence. */
    public static List<Integer> strayMarkers(Path doc, List<String> markerWords) throws IOException {
        List<String> all = Files.readAllLines(doc);
        List<Integer> stray = new ArrayList<>();
        for (int i = 0; i < all.size(); i++) {
            Matcher c = COMMENT.matcher(all.get(i));
            if (c.matches() && markerWords.stream().anyMatch(w -> c.group(1).startsWith(w))
                    && (i + 1 >= all.size() || !OPEN.matcher(all.get(i + 1)).matches())) {
                stray.add(i + 1);
            }
        }
        return stray;
    }

    String where() {
        return doc.getFileName() + ":" + line;
    }
}
