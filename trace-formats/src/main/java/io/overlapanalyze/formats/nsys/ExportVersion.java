package io.overlapanalyze.formats.nsys;

import java.util.Map;

/**
 * The product and schema version an export declares (nsys.md §2): table {@code META_DATA_EXPORT}
 * since 2023.1, {@code EXPORT_META_DATA} in 2022.2; keys {@code EXPORT_PRODUCT_VERSION} and
 * {@code EXPORT_SCHEMA_VERSION}.
 *
 * @param metadataTable the table the metadata came from, or {@code null} when the export has none
 * @param product       product version ("2026.2.1.210"), or {@code null}
 * @param schema        schema version text ("3.25.0"), or {@code null}
 * @param major         schema major, -1 when unknown
 * @param minor         schema minor, -1 when unknown
 */
record ExportVersion(String metadataTable, String product, String schema, int major, int minor,
                     Map<String, String> metadata) {
    /** The newest schema this reader was checked against (nsys 2026.2.1). */
    static final int KNOWN_MAJOR = 3;
    static final int KNOWN_MINOR = 25;
    static final String KNOWN = "3.25.0";

    ExportVersion {
        metadata = Map.copyOf(metadata);
    }

    static ExportVersion of(String table, Map<String, String> metadata) {
        String schema = metadata.get("EXPORT_SCHEMA_VERSION");
        int major = -1;
        int minor = -1;
        if (schema != null) {
            String[] parts = schema.trim().split("\\.");
            try {
                major = Integer.parseInt(parts[0]);
                minor = parts.length > 1 ? Integer.parseInt(parts[1]) : 0;
            } catch (NumberFormatException e) {
                major = -1;
                minor = -1;
            }
        }
        return new ExportVersion(table, metadata.get("EXPORT_PRODUCT_VERSION"), schema, major, minor, metadata);
    }

    /** True for a schema newer than {@link #KNOWN}: columns may have been renamed (a minor bump may rename). */
    boolean newerThanKnown() {
        return major > KNOWN_MAJOR || (major == KNOWN_MAJOR && minor > KNOWN_MINOR);
    }

    String describe() {
        String p = product == null ? "unknown version" : product;
        return "Nsight Systems " + p + ", export schema " + (schema == null ? "unknown" : schema);
    }
}
