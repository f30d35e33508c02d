package io.overlapanalyze.options;

import picocli.CommandLine;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;

/**
 * Every path argument of every command ({@link OptionParsing#configure} registers it for {@link Path}).
 * An empty argument is refused: {@code Path.of("")} is the working directory, so {@code gate --baseline
 * "$BASELINE" traces/} with the variable unset would compare the traces with themselves and pass.
 */
public final class PathConverter implements CommandLine.ITypeConverter<Path> {
    /** Why an empty argument is refused. */
    public static final String EMPTY = "an empty path names no file (an unset variable?); write '.' for the "
            + "working directory";

    @Override
    public Path convert(String value) {
        if (value.isEmpty()) {
            throw new CommandLine.TypeConversionException(EMPTY);
        }
        try {
            return Path.of(value);
        } catch (InvalidPathException e) {
            throw new CommandLine.TypeConversionException("not a valid path: " + e.getReason());
        }
    }

    /**
     * The same check for an option kept as typed (a {@code String}): a file to the CLI, also a URI
     * to the Spark launcher ({@code Path} would fold the {@code //} of {@code hdfs://}).
     */
    public static final class AsTyped implements CommandLine.ITypeConverter<String> {
        @Override
        public String convert(String value) {
            new PathConverter().convert(value);
            return value;
        }
    }
}
