package io.overlapanalyze.spark;

import io.overlapanalyze.options.ReportOutput;
import io.overlapanalyze.options.TraceInputs;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

import java.lang.reflect.Field;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;

/**
 * The Spark launcher declares none of the report's or the inputs' options itself: they come from the
 * mixins the CLI's analyse command declares too, so the two cannot drift apart.
 */
class SparkSharedOptionsTest {
    @Test
    void theReportAndInputOptionsAreTheSharedMixins() {
        CommandLine cl = new CommandLine(new SparkAnalyze(null));
        assertEquals(ReportOutput.class, cl.getCommandSpec().mixins().get("report").userObject().getClass());
        assertEquals(TraceInputs.class, cl.getCommandSpec().mixins().get("inputs").userObject().getClass());
        for (String name : new String[] {"-f", "-o", "--html", "--cross-check", "--detail", "--rank-rows",
                "--comm-kernel", "--include", "--steps", "--debug"}) {
            OptionSpec o = cl.getCommandSpec().findOption(name);
            assertNotNull(o, name);
            Field f = assertInstanceOf(Field.class, o.userObject(), name);
            assertEquals("io.overlapanalyze.options", f.getDeclaringClass().getPackageName(),
                    name + " is declared by " + f.getDeclaringClass().getName());
        }
    }
}
