package io.overlapanalyze.options;

import picocli.CommandLine;

import java.util.Locale;

/** Parses sizes like {@code 500m}, {@code 64g}, {@code 1t} or a plain byte count (binary units). */
public final class ByteSizeConverter implements CommandLine.ITypeConverter<Long> {
    @Override
    public Long convert(String value) {
        String v = value.trim().toLowerCase(Locale.ROOT);
        if (v.endsWith("b")) {
            v = v.substring(0, v.length() - 1);
        }
        long unit = 1;
        if (!v.isEmpty()) {
            switch (v.charAt(v.length() - 1)) {
                case 'k' -> unit = 1L << 10;
                case 'm' -> unit = 1L << 20;
                case 'g' -> unit = 1L << 30;
                case 't' -> unit = 1L << 40;
                default -> unit = 1;
            }
        }
        String digits = unit == 1 ? v : v.substring(0, v.length() - 1);
        try {
            long n = Long.parseLong(digits);
            if (n <= 0) {
                throw new CommandLine.TypeConversionException("'" + value + "' is not a positive size");
            }
            return Math.multiplyExact(n, unit);
        } catch (NumberFormatException | ArithmeticException e) {
            throw new CommandLine.TypeConversionException("'" + value + "' is not a size like 500m, 64g or 1t");
        }
    }
}
