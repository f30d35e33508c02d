package io.overlapanalyze.cli.docs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The relative links of a markdown file and whether each reaches something: a file or directory
 * of the repository and, after {@code #}, a heading of that markdown file (its anchor as GitHub
 * makes it) or an explicit {@code <a id="...">} / {@code <a name="...">}. Links inside fenced
 * blocks and code spans are text, not links; links with a scheme ({@code https:}, {@code mailto:})
 * are not checked.
 */
public final class DocLinks {
    private static final Pattern FENCE = Pattern.compile("^\\s*```.*$");
    private static final Pattern CODE_SPAN = Pattern.compile("`[^`]*`");
    private static final Pattern LINK = Pattern.compile("!?\\[[^\\]]*\\]\\(([^)\\s]+)(?:\\s+\"[^\"]*\")?\\)");
    private static final Pattern SCHEME = Pattern.compile("^[A-Za-z][A-Za-z0-9+.-]*:.*");
    private static final Pattern HEADING = Pattern.compile("^#{1,6}\\s+(.*?)\\s*#*\\s*$");
    private static final Pattern HTML_ANCHOR = Pattern.compile("<a\\s+(?:id|name)=\"([^\"]+)\"");
    private static final Pattern INLINE_LINK = Pattern.compile("\\[([^\\]]*)\\]\\([^)]*\\)");

    private DocLinks() {
    }

    /** A link as written, and where: {@code file:line}. */
    record Link(Path doc, int line, String target) {
        String where() {
            return doc.getFileName() + ":" + line + " (" + target + ")";
        }
    }

    /** Every relative link of {@code doc} outside fenced blocks and code spans, in order. */
    public static List<Link> relativeLinks(Path doc) throws IOException {
        List<Link> links = new ArrayList<>();
        boolean fenced = false;
        List<String> lines = Files.readAllLines(doc);
        for (int i = 0; i < lines.size(); i++) {
            String l = lines.get(i);
            if (FENCE.matcher(l).matches()) {
                fenced = !fenced;
                continue;
            }
            if (fenced) {
                continue;
            }
            Matcher m = LINK.matcher(CODE_SPAN.matcher(l).replaceAll(""));
            while (m.find()) {
                if (!SCHEME.matcher(m.group(1)).matches()) {
                    links.add(new Link(doc, i + 1, m.group(1)));
                }
            }
        }
        return links;
    }

    /**
     * What is wrong with a link, or {@code null} when it reaches its file (inside {@code root})
     * and, if it names one, its anchor.
     */
    public static String problem(Link link, Path root) throws IOException {
        String t = link.target();
        int hash = t.indexOf('#');
        String file = hash < 0 ? t : t.substring(0, hash);
        String anchor = hash < 0 ? null : t.substring(hash + 1);
        Path target = file.isEmpty() ? link.doc() : link.doc().getParent().resolve(file).normalize();
        if (!target.startsWith(root)) {
            return "points outside the repository";
        }
        if (!Files.exists(target)) {
            return "no such file: " + root.relativize(target);
        }
        if (anchor == null) {
            return null;
        }
        if (!target.toString().endsWith(".md") || Files.isDirectory(target)) {
            return "an anchor into something that is not a markdown file";
        }
        if (!anchors(target).contains(anchor)) {
            return "no heading or anchor '" + anchor + "' in " + root.relativize(target);
        }
        return null;
    }

    /** The anchors of a markdown file: its headings' as GitHub makes them, and explicit ones. */
    public static Set<String> anchors(Path doc) throws IOException {
        Set<String> out = new HashSet<>();
        Map<String, Integer> seen = new HashMap<>();
        boolean fenced = false;
        for (String l : Files.readAllLines(doc)) {
            if (FENCE.matcher(l).matches()) {
                fenced = !fenced;
                continue;
            }
            if (fenced) {
                continue;
            }
            Matcher h = HEADING.matcher(l);
            if (h.matches()) {
                String slug = slug(h.group(1));
                int n = seen.merge(slug, 1, Integer::sum);
                out.add(n == 1 ? slug : slug + "-" + (n - 1));
            }
            Matcher a = HTML_ANCHOR.matcher(l);
            while (a.find()) {
                out.add(a.group(1));
            }
        }
        return out;
    }

    /**
     * GitHub's anchor of a heading: its text as shown (link targets, backticks and emphasis
     * asterisks gone), lower case, every character but letters, digits, {@code _}, {@code -} and
     * spaces dropped, spaces made {@code -}.
     */
    public static String slug(String heading) {
        String shown = INLINE_LINK.matcher(heading).replaceAll("$1").replace("`", "").replace("*", "");
        StringBuilder b = new StringBuilder();
        shown.toLowerCase(Locale.ROOT).codePoints().forEach(c -> {
            if (Character.isLetterOrDigit(c) || c == '_' || c == '-') {
                b.appendCodePoint(c);
            } else if (c == ' ') {
                b.append('-');
            }
        });
        return b.toString();
    }
}
