package io.overlapanalyze.architecture;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The project's own references in Java sources, read from the text (import lines and fully
 * qualified names, with comments and literals removed first, so that a {@code {@link}} or a
 * message naming a class is not a dependency). No bytecode and no library: what a source names is
 * what it depends on, except for same-package simple names, which only {@link #mentions} sees.
 */
final class SourceScan {
    static final String ROOT = "io.overlapanalyze";

    /** One source file: its module, package and top-level class (names without {@link #ROOT}). */
    record Source(String module, String pkg, String cls, String code) {
        String name() {
            return pkg + "." + cls;
        }
    }

    private static final Pattern PACKAGE = Pattern.compile("^\\s*package\\s+([\\w.]+)\\s*;", Pattern.MULTILINE);
    /** A qualified name in the project: lower-case package segments, then the top-level class. */
    private static final Pattern QUALIFIED = Pattern.compile(
            "\\bio\\.overlapanalyze((?:\\s*\\.\\s*[a-z_][a-z0-9_]*)*)\\s*\\.\\s*([A-Z]\\w*)");
    private static final Pattern ON_DEMAND = Pattern.compile(
            "\\bimport\\s+io\\.overlapanalyze((?:\\s*\\.\\s*[a-z_][a-z0-9_]*)*)\\s*\\.\\s*\\*\\s*;");

    private SourceScan() {
    }

    /** Every {@code src/main/java} file of every module directly under {@code root}. */
    static List<Source> mainSources(Path root) {
        List<Source> out = new ArrayList<>();
        try (Stream<Path> modules = Files.list(root)) {
            for (Path module : modules.sorted().toList()) {
                Path src = module.resolve("src/main/java");
                if (!Files.isDirectory(src)) {
                    continue;
                }
                try (Stream<Path> files = Files.walk(src)) {
                    for (Path f : files.filter(p -> p.toString().endsWith(".java")).sorted().toList()) {
                        out.add(parse(module.getFileName().toString(), f.getFileName().toString(), Files.readString(f)));
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }

    static Source parse(String module, String fileName, String text) {
        String code = stripCommentsAndLiterals(text);
        Matcher m = PACKAGE.matcher(code);
        String pkg = m.find() ? m.group(1) : "";
        pkg = pkg.equals(ROOT) ? "" : pkg.startsWith(ROOT + ".") ? pkg.substring(ROOT.length() + 1) : pkg;
        return new Source(module, pkg, fileName.replaceFirst("\\.java$", ""), code);
    }

    /**
     * The project classes a source names by import or qualified name, as {@code pkg.Class} (an
     * import on demand as {@code pkg.*}); its own package left out.
     */
    static Set<String> references(Source s) {
        Set<String> out = new TreeSet<>();
        Matcher m = QUALIFIED.matcher(s.code());
        while (m.find()) {
            String pkg = m.group(1).replaceAll("\\s", "");
            pkg = pkg.isEmpty() ? "" : pkg.substring(1);
            if (!pkg.equals(s.pkg())) {
                out.add(pkg + "." + m.group(2));
            }
        }
        m = ON_DEMAND.matcher(s.code());
        while (m.find()) {
            String pkg = m.group(1).replaceAll("\\s", "").substring(1);
            if (!pkg.equals(s.pkg())) {
                out.add(pkg + ".*");
            }
        }
        return out;
    }

    /**
     * A field declaration with {@code static} among its modifiers (annotations allowed before
     * them): group 1 the modifiers, group 2 the field's name. A method, a nested type or a static
     * initialiser is no match (no name followed by {@code =}, {@code ;} or {@code ,}).
     */
    private static final Pattern STATIC_FIELD = Pattern.compile(
            "(?:^|(?<=[;{}]))\\s*(?:@[\\w.]+(?:\\s*\\([^)]*\\))?\\s*)*"
                    + "((?:(?:public|protected|private|static|final|volatile|transient)\\s+)*"
                    + "static\\s+(?:(?:public|protected|private|static|final|volatile|transient)\\s+)*)"
                    + "[\\w.$]+(?:\\s*<[^;=(){}]*>)?(?:\\s*\\[\\s*])*\\s+([\\w$]+)\\s*[=;,]",
            Pattern.MULTILINE);
    private static final Pattern FINAL = Pattern.compile("\\bfinal\\b");

    /**
     * The {@code static} fields of a source that are not {@code final} (state of the whole process),
     * as {@code pkg.Class.field} (a nested class's field under its top-level class).
     */
    static Set<String> staticNonFinalFields(Source s) {
        Set<String> out = new TreeSet<>();
        Matcher m = STATIC_FIELD.matcher(s.code());
        while (m.find()) {
            if (!FINAL.matcher(m.group(1)).find()) {
                out.add(s.name() + "." + m.group(2));
            }
        }
        return out;
    }

    /** Whether the code names {@code simpleName} as a whole identifier. */
    static boolean mentions(String code, String simpleName) {
        return Pattern.compile("(?<![\\w$])" + Pattern.quote(simpleName) + "(?![\\w$])").matcher(code).find();
    }

    /** The package part of {@code pkg.Class}. */
    static String packageOf(String qualified) {
        int dot = qualified.lastIndexOf('.');
        return dot < 0 ? "" : qualified.substring(0, dot);
    }

    /** The source with comments removed and every string, text block and char literal emptied. */
    static String stripCommentsAndLiterals(String s) {
        StringBuilder out = new StringBuilder(s.length());
        int n = s.length();
        int i = 0;
        while (i < n) {
            char c = s.charAt(i);
            if (s.startsWith("//", i)) {
                int end = s.indexOf('\n', i);
                i = end < 0 ? n : end;
            } else if (s.startsWith("/*", i)) {
                int end = s.indexOf("*/", i + 2);
                i = end < 0 ? n : end + 2;
                out.append(' ');
            } else if (s.startsWith("\"\"\"", i)) {
                int j = i + 3;
                while (j < n && !s.startsWith("\"\"\"", j)) {
                    j += s.charAt(j) == '\\' ? 2 : 1;
                }
                i = Math.min(n, j + 3);
                out.append("\"\"");
            } else if (c == '"' || c == '\'') {
                int j = i + 1;
                while (j < n && s.charAt(j) != c && s.charAt(j) != '\n') {
                    j += s.charAt(j) == '\\' ? 2 : 1;
                }
                i = Math.min(n, j + 1);
                out.append(c).append(c);
            } else {
                out.append(c);
                i++;
            }
        }
        return out.toString();
    }
}
