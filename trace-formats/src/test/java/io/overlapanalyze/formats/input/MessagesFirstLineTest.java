package io.overlapanalyze.formats.input;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.sql.SQLException;
import java.util.zip.ZipException;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The one "first line of a message" every reader, the summary file and the Spark launcher print. */
class MessagesFirstLineTest {

    @Test
    void keepsTheFirstLineOnlyWithItsWhiteSpaceRunsMadeOne() {
        String jackson = "Unexpected character ('x' (code 120)):  expected\ta value\n"
                + " at [Source: (FileInputStream); line: 1, column: 2]";
        assertEquals("Unexpected character ('x' (code 120)): expected a value",
                Messages.firstLine(new IOException(jackson)));
        assertEquals("org.apache.spark.SparkException: Job aborted",
                Messages.firstLine("org.apache.spark.SparkException: Job aborted  \r\n\tat Foo.bar(Foo.java:1)"));
    }

    @Test
    void aWrapperWithoutMessageGivesItsCausesAndNoMessageAtAllTheClassName() {
        IOException wrapper = new IOException((String) null);
        wrapper.initCause(new SQLException("[SQLITE_CORRUPT] malformed\nmore"));
        assertEquals("[SQLITE_CORRUPT] malformed", Messages.firstLine(wrapper));
        assertEquals("ZipException", Messages.firstLine(new ZipException()));
    }

    @Test
    void keepsControlCharactersForTheEscaperThatPrintsIt() {
        assertEquals("bad \u001b[31m token", Messages.firstLine("bad \u001b[31m token\nnext"));
    }
}
