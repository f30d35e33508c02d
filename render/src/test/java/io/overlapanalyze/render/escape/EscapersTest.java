package io.overlapanalyze.render.escape;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.io.StringReader;
import java.util.Map;

import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.stream.XMLOutputFactory;
import javax.xml.stream.XMLStreamWriter;
import java.io.StringWriter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;

/** Each output kind's escaper, with expected texts written by hand. */
class EscapersTest {
    /** ESC [2J (clear screen), OSC 0 (window title) ended by BEL, CR LF, a forged row and headline. */
    private static final String HOSTILE = "a\u001b[2J\u001b]0;t\u0007\r\n| pass |\n# PASS";

    @Test
    void terminalShowsEveryControlAndBidiCharacter() {
        assertEquals("a\\x1b[2J\\x1b]0;t\\x07\\x0d\\x0a| pass |\\x0a# PASS", TerminalEscape.text(HOSTILE));
        assertEquals("x\\x7fy\\x9bz\\x85", TerminalEscape.text("x\u007fy\u009bz\u0085"));
        assertEquals("evil\\u202egnp.exe \\u2066i\\u2069 \\u200f \\u2028", TerminalEscape.text(
                "evil\u202egnp.exe \u2066i\u2069 \u200f \u2028"));
        assertEquals("lone \\ud800 pair \ud83d\ude00", TerminalEscape.text("lone \ud800 pair \ud83d\ude00"));
        String plain = "ProfilerStep#4 — ünïcödé, עברית";
        assertSame(plain, TerminalEscape.text(plain));
    }

    @Test
    void markdownKeepsANameOnItsLineAndMakesNoMarkup() {
        assertEquals("a\\x1b\\[2J\\x1b]0;t\\x07\\x0d\\x0a\\| pass \\|\\x0a# PASS", MarkdownEscape.text(HOSTILE));
        assertEquals("!\\[x](http://evil/x.png)\\<script>alert(1)\\</script>",
                MarkdownEscape.text("![x](http://evil/x.png)<script>alert(1)</script>"));
        assertEquals("\\*b\\* \\_i\\_ \\`c\\` \\~\\~s\\~\\~ \\&#x202e; \\$x\\$ a\\\\\\|b",
                MarkdownEscape.text("*b* _i_ `c` ~~s~~ &#x202e; $x$ a\\|b"));
        assertEquals("", MarkdownEscape.text(null));
    }

    @Test
    void markdownCodeSpanCannotBeClosedFromInside() {
        assertEquals("`rank0.json`", MarkdownEscape.code("rank0.json"));
        assertEquals("``a`b``", MarkdownEscape.code("a`b"));
        assertEquals("``` ``x ```", MarkdownEscape.code("``x"));
        assertEquals("`a\\x0a# b`", MarkdownEscape.code("a\n# b"));
    }

    @Test
    void xmlValuesAreValidXml10() throws Exception {
        StringWriter sw = new StringWriter();
        XMLStreamWriter x = XMLOutputFactory.newFactory().createXMLStreamWriter(sw);
        x.writeStartDocument("UTF-8", "1.0");
        x.writeStartElement("t");
        x.writeAttribute("name", XmlEscape.chars(HOSTILE + "\u0000\ufffe\udc00"));
        x.writeCharacters(XmlEscape.chars(HOSTILE + "<b>&"));
        x.writeEndElement();
        x.writeEndDocument();
        x.close();
        var doc = DocumentBuilderFactory.newInstance().newDocumentBuilder()
                .parse(new org.xml.sax.InputSource(new StringReader(sw.toString())));
        assertEquals("a\\x1b[2J\\x1b]0;t\\x07\\x0d\\x0a| pass |\\x0a# PASS\\x00\\ufffe\\udc00",
                doc.getDocumentElement().getAttribute("name"));
        assertEquals("a\\x1b[2J\\x1b]0;t\\x07\\x0d\\x0a| pass |\\x0a# PASS<b>&", doc.getDocumentElement().getTextContent());
    }

    @Test
    void htmlEscapesMarkupShowsControlsAndIsolatesRightToLeftNames() {
        assertEquals("&lt;script&gt;x&lt;/script&gt; &amp; &quot;q&quot; &#39;s&#39; \\x1b]0;t\\x07",
                HtmlEscape.text("<script>x</script> & \"q\" 's' \u001b]0;t\u0007"));
        // U+202E is shown, never obeyed: nothing after it in the cell is reordered.
        assertEquals("step \\u202e7.500 ms", HtmlEscape.text("step \u202e7.500 ms"));
        // Hebrew is isolated (first strong isolate .. pop directional isolate): it keeps its own
        // direction without moving the text around it.
        assertEquals("\u2068שלב 1\u2069", HtmlEscape.text("שלב 1"));
        String plain = "ProfilerStep#4";
        assertSame(plain, HtmlEscape.text(plain));
    }

    @Test
    void jsonWritesHiddenCharactersAsEscapesAndReadsBackTheSameName() throws Exception {
        ObjectMapper m = new ObjectMapper();
        m.getFactory().setCharacterEscapes(new JsonEscapes());
        String name = "a\u001b\u007f\u009b\u202e\u2028b ü \ud83d\ude00";
        String json = m.writeValueAsString(Map.of("name", name));
        assertEquals("{\"name\":\"a\\u001B\\u007F\\u009b\\u202e\\u2028b ü \ud83d\ude00\"}", json);
        assertEquals(name, m.readValue(json, Map.class).get("name"));
        assertFalse(json.chars().anyMatch(c -> c < 0x20 || (c >= 0x7f && c <= 0x9f) || c == 0x202e));
    }
}
