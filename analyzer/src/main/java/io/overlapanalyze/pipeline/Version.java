package io.overlapanalyze.pipeline;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/** The tool's version, filtered into a resource at build time. */
public final class Version {
    private static final String VERSION = load();

    private Version() {
    }

    public static String get() {
        return VERSION;
    }

    /** "overlap-analyze 0.1.0": what reports record as their producer. */
    public static String tool() {
        return "overlap-analyze " + VERSION;
    }

    private static String load() {
        try (InputStream in = Version.class.getResourceAsStream("/overlap-analyze.properties")) {
            if (in == null) {
                return "dev";
            }
            Properties p = new Properties();
            p.load(in);
            return p.getProperty("version", "dev");
        } catch (IOException e) {
            return "dev";
        }
    }
}
