package io.overlapanalyze.cli.reliability;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.overlapanalyze.cli.ExitCodes;
import org.commonmark.ext.gfm.tables.TableCell;
import org.commonmark.ext.gfm.tables.TablesExtension;
import org.commonmark.node.AbstractVisitor;
import org.commonmark.node.CustomNode;
import org.commonmark.node.Heading;
import org.commonmark.node.HtmlBlock;
import org.commonmark.node.HtmlInline;
import org.commonmark.node.Image;
import org.commonmark.node.Link;
import org.commonmark.node.Node;
import org.commonmark.node.Text;
import org.commonmark.parser.Parser;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

import javax.xml.parsers.DocumentBuilderFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * A two-rank Kineto job whose names try to drive the terminal and forge report lines (issue 29,
 * item 5), and the checks every output of it must pass. Step, user annotation, kernel, process
 * group (name and description), thread, process, device and backend names and the file names hold
 * {@link #NAME}: ESC [2J (clear the screen), an OSC 0 window title ended by BEL, CR LF, a forged
 * {@code | pass |} table row and {@code # PASS} headline, a remote markdown image, a script tag
 * and U+202E (right-to-left override). One extra kernel with a negative duration has it too, so a
 * warning on stderr quotes it.
 */
final class HostileNames {
    static final String NAME = "\u001b[2J\u001b]0;title\u0007\r\n| pass |\n# PASS\n![x](http://evil/x.png)"
            + "<script>alert(1)</script>\u202eevil";
    /** The step's name as the text report must show it. */
    static final String STEP_SHOWN = "ProfilerStep#1 \\x1b[2J\\x1b]0;title\\x07\\x0d\\x0a| pass |\\x0a# PASS";
    private static final String FILE_PART = "\u001b]0;t\u0007\n# PASS\u202e";
    private static final ObjectMapper JSON = new ObjectMapper();

    private HostileNames() {
    }

    /** Writes rank 0 and rank 1 into {@code dir}/job; returns their files in rank order. */
    static List<Path> writeJob(Path dir) throws IOException {
        Path plain = dir.resolve("plain");
        Cli synth = Cli.run("synth", "seed-1ms-optimizer", "--ranks", "2", "-o", plain.toString());
        assertEquals(ExitCodes.OK, synth.exitCode(), synth.err());
        Path job = Files.createDirectories(dir.resolve("job"));
        List<Path> files = new ArrayList<>();
        for (int r = 0; r < 2; r++) {
            ObjectNode root = (ObjectNode) JSON.readTree(plain.resolve("rank-" + r + ".pt.trace.json").toFile());
            poison(root);
            Path file = job.resolve("rank-" + r + FILE_PART + ".pt.trace.json");
            JSON.writeValue(file.toFile(), root);
            files.add(file);
        }
        return files;
    }

    private static void poison(ObjectNode root) {
        ArrayNode events = (ArrayNode) root.get("traceEvents");
        ObjectNode firstKernel = null;
        for (JsonNode n : events) {
            ObjectNode e = (ObjectNode) n;
            String name = e.path("name").asText();
            String cat = e.path("cat").asText();
            if (name.startsWith("ProfilerStep#")) {
                e.put("name", name + " " + NAME);
            } else if (cat.equals("user_annotation") && !name.startsWith("nccl:")) {
                e.put("name", name + NAME);
            } else if (cat.equals("kernel")) {
                e.put("name", name + NAME);
                firstKernel = firstKernel == null ? e : firstKernel;
            }
            if (e.get("args") instanceof ObjectNode args) {
                for (String field : new String[] {"Process Group Name", "Process Group Description"}) {
                    if (args.has(field)) {
                        args.put(field, args.get(field).asText() + NAME);
                    }
                }
                if ((name.equals("process_name") || name.equals("thread_name")) && args.has("name")) {
                    args.put("name", args.get("name").asText() + NAME);
                }
            }
        }
        ObjectNode negative = firstKernel.deepCopy();
        negative.put("name", "negative" + NAME);
        negative.put("dur", -1.0);
        ((ObjectNode) negative.get("args")).put("correlation", 999_999);
        events.add(negative);
        ObjectNode pg = (ObjectNode) root.get("distributedInfo").get("pg_config").get(0);
        pg.put("pg_name", "pg" + NAME);
        pg.put("pg_desc", "desc" + NAME);
        ((ObjectNode) root.get("distributedInfo")).put("backend", "nccl" + NAME);
        ((ObjectNode) root.get("deviceProperties").get(0)).put("name", "gpu" + NAME);
    }

    /**
     * No character that acts on a terminal or reorders a line: C0 controls but the line feed, DEL,
     * C1, the Unicode line separators, the bidirectional formatting characters.
     */
    static void assertNoRawControl(String what, String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            boolean raw = (c < 0x20 && c != '\n') || (c >= 0x7f && c <= 0x9f) || c == 0x2028 || c == 0x2029
                    || (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069) || c == 0x200e || c == 0x200f
                    || c == 0x061c;
            if (raw) {
                int from = Math.max(0, i - 60);
                fail(what + ": raw U+" + String.format("%04X", (int) c) + " at " + i + " after \""
                        + text.substring(from, i).replace("\u001b", "<ESC>") + "\"");
            }
        }
    }

    /** A run that printed what it printed cleanly: exit 0, no crash, every stderr line one warning. */
    static Cli assertCleanRun(String what, Cli run) {
        run.assertNoCrash(what);
        assertEquals(ExitCodes.OK, run.exitCode(), what + ": " + run.err());
        assertNoRawControl(what + " stdout", run.out());
        assertNoRawControl(what + " stderr", run.err());
        for (String line : run.errLines()) {
            assertTrue(line.startsWith("overlap-analyze: "), what + ": a stderr line that is no message of the "
                    + "tool (a name split its line): " + line);
        }
        return run;
    }

    /**
     * Markdown as GitHub reads it (GFM tables): one heading at the top level (the report's title),
     * no heading from the input, and {@code headings} in all when not null; no image, no raw HTML,
     * no link to the input's address, no table cell forged out of a name.
     */
    static void assertMarkdownSafe(String what, String md, Integer headings) {
        assertNoRawControl(what, md);
        Node doc = Parser.builder().extensions(List.of(TablesExtension.create())).build().parse(md);
        List<String> headingTexts = new ArrayList<>();
        List<Integer> levels = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        doc.accept(new AbstractVisitor() {
            @Override
            public void visit(Heading heading) {
                headingTexts.add(text(heading));
                levels.add(heading.getLevel());
                visitChildren(heading);
            }

            @Override
            public void visit(Image image) {
                problems.add("an image: " + image.getDestination());
            }

            @Override
            public void visit(HtmlInline html) {
                problems.add("raw HTML: " + html.getLiteral());
            }

            @Override
            public void visit(HtmlBlock html) {
                problems.add("an HTML block: " + html.getLiteral());
            }

            @Override
            public void visit(Link link) {
                if (link.getDestination().contains("evil")) {
                    problems.add("a link: " + link.getDestination());
                }
                visitChildren(link);
            }

            @Override
            public void visit(CustomNode node) {
                if (node instanceof TableCell cell && text(cell).strip().equals("pass")) {
                    problems.add("a table cell forged out of a name: " + text(cell));
                }
                visitChildren(node);
            }
        });
        assertEquals(List.of(), problems, what + ":\n" + md);
        int top = levels.stream().mapToInt(Integer::intValue).min().orElse(0);
        assertEquals(1, levels.stream().filter(l -> l == top).count(), what + ": one title, headings " + headingTexts);
        if (headings != null) {
            assertEquals(headings, headingTexts.size(), what + ": headings " + headingTexts);
        }
        for (String h : headingTexts) {
            assertFalse(h.contains("PASS") || h.contains("evil"), what + ": a heading from the input: " + h);
        }
    }

    private static String text(Node node) {
        StringBuilder sb = new StringBuilder();
        node.accept(new AbstractVisitor() {
            @Override
            public void visit(Text t) {
                sb.append(t.getLiteral());
            }
        });
        return sb.toString();
    }

    /** JUnit XML that a CI reads: it parses, and every test case is there with its name shown. */
    static void assertJunitSafe(Path xml, int cases) throws Exception {
        String text = Files.readString(xml);
        assertNoRawControl("--junit", text);
        org.w3c.dom.Document doc = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(xml.toFile());
        NodeList testcases = doc.getElementsByTagName("testcase");
        assertEquals(cases, testcases.getLength(), text);
        boolean annotationShown = false;
        for (int i = 0; i < testcases.getLength(); i++) {
            annotationShown |= ((Element) testcases.item(i)).getAttribute("name")
                    .startsWith("annotationExposedComm[Optimizer.step#SGD.step\\x1b[2J");
        }
        assertTrue(annotationShown, "the annotation's check, its name shown: " + text);
    }

    /** The HTML page: no element, script or image from a name; nothing reordered by U+202E. */
    static void assertHtmlSafe(Path html) throws IOException {
        String page = Files.readString(html);
        assertNoRawControl("--html", page);
        Document doc = Jsoup.parse(page);
        assertTrue(doc.select("script").isEmpty(), "a script element");
        assertTrue(doc.select("img[src*=evil]").isEmpty(), "an image from a name");
        assertTrue(doc.text().contains("<script>alert(1)</script>\\u202eevil"), "the name shown as text");
    }
}
