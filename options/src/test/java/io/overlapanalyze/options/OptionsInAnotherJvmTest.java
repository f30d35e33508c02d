package io.overlapanalyze.options;

import io.overlapanalyze.formats.input.InputLimits;
import io.overlapanalyze.formats.kernels.KernelRules;
import io.overlapanalyze.model.DeviceKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A launcher other than the CLI declares the same mixins and gets the same meaning; what the
 * options ask for can be sent, as plain serialised data, to another JVM (a Spark executor) and
 * rebuilt there without the command line or the patterns file.
 */
class OptionsInAnotherJvmTest {
    @Command(name = "other")
    static final class OtherLauncher {
        @Mixin InputOptions input;
        @Mixin KernelPatternOptions kernels;
        @Mixin FormatOption format;
        @Mixin DebugOption debug;
    }

    private static OtherLauncher parse(String... args) {
        OtherLauncher l = new OtherLauncher();
        OptionParsing.configure(new CommandLine(l)).parseArgs(args);
        return l;
    }

    @SuppressWarnings("unchecked")
    private static <T> T roundTrip(T value) throws IOException, ClassNotFoundException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(value);
        }
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            return (T) in.readObject();
        }
    }

    @Test
    void kernelPatternsRebuildTheSameRulesFromSerialisedData(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("patterns.txt");
        Files.writeString(file, "# mine\nfused (?i)myfusedgemm\n");
        OtherLauncher l = parse("--comm-kernel", "(?i)mycollective", "--compute-kernel", "nccl",
                "--kernel-patterns", file.toString());

        List<KernelRules.UserPattern> sent = roundTrip(new ArrayList<>(l.kernels.userPatterns()));
        Files.delete(file); // the executor has no patterns file: the data alone must do
        KernelRules rebuilt = KernelRules.withUserPatterns(sent);

        // (?i) travels with the pattern: any case of the name matches.
        assertEquals(DeviceKind.COMM, rebuilt.kindOfKernel("MyCollective_kernel"));
        // A user compute pattern beats the built-in communication rule for nccl names.
        assertEquals(DeviceKind.COMPUTE, rebuilt.kindOfKernel("ncclKernel_AllReduce"));
        assertEquals(DeviceKind.FUSED, rebuilt.kindOfKernel("MYFUSEDGEMM_v2"));
        // Without user patterns the same names are what the built-in rules say.
        assertEquals(DeviceKind.COMPUTE, KernelRules.builtIn().kindOfKernel("MyCollective_kernel"));
        assertEquals(DeviceKind.COMM, KernelRules.builtIn().kindOfKernel("ncclKernel_AllReduce"));
        assertEquals(3, sent.size());
    }

    @Test
    void inputLimitsTravelAsPlainData() throws Exception {
        OtherLauncher l = parse("--max-input-size", "500m", "--max-ratio", "50");
        // 500 MiB = 500 * 2^20 bytes (binary units).
        assertEquals(new InputLimits(500L * 1024 * 1024, 50), roundTrip(l.input.limits()));
        assertEquals(InputLimits.DEFAULT, parse().input.limits());
    }

    @Test
    void theFormatDebugAndBadValuesMeanWhatTheyMeanInTheCli() {
        OtherLauncher l = parse("-f", "json", "--debug");
        assertEquals(OutputFormat.JSON, l.format.format());
        assertTrue(l.debug.debug());
        assertFalse(parse().debug.debug());
        assertEquals(OutputFormat.TEXT, parse().format.format());
        UserInputException e = assertThrows(UserInputException.class,
                () -> parse("--comm-kernel", "(unclosed").kernels.userPatterns());
        assertTrue(e.getMessage().startsWith("--comm-kernel: not a valid regular expression '(unclosed'"),
                e.getMessage());
    }
}
