package io.overlapanalyze.formats.nsys;

import io.overlapanalyze.formats.input.TraceFormatException;
import io.overlapanalyze.formats.input.Warnings;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the export is: its metadata table ({@code META_DATA_EXPORT}, or {@code EXPORT_META_DATA} in
 * 2022), the schema version read from it, and the one-line errors for an SQLite file that is no
 * Nsight export or a needed column this export lacks (nsys.md §1, §11). The other table readers ask
 * it for required columns, so every missing-column error names the schema the same way.
 */
final class ExportSchema {
    private final ExportDatabase db;
    private final String file;
    private final ExportVersion version;

    private ExportSchema(ExportDatabase db, String file, ExportVersion version) {
        this.db = db;
        this.file = file;
        this.version = version;
    }

    /**
     * Finds the export metadata; rejects SQLite files that are not Nsight exports. Warns (into
     * {@code warnings}) about an unknown or newer schema and about normalized or shifted times.
     */
    static ExportSchema identify(ExportDatabase db, String file, Warnings warnings)
            throws SQLException, TraceFormatException {
        String table = db.hasTable("META_DATA_EXPORT") ? "META_DATA_EXPORT"
                : db.hasTable("EXPORT_META_DATA") ? "EXPORT_META_DATA" : null;
        Map<String, String> meta = new LinkedHashMap<>();
        if (table != null) {
            String name = db.column(table, "name");
            String value = db.column(table, "value");
            if (name != null && value != null) {
                try (Statement st = db.statement();
                     ResultSet rs = st.executeQuery("SELECT " + ExportDatabase.quote(name) + ", "
                             + ExportDatabase.quote(value) + " FROM " + ExportDatabase.quote(db.table(table)))) {
                    while (rs.next()) {
                        // A NULL value would make ExportVersion's Map.copyOf throw (an NPE: exit 3, internal error).
                        if (rs.getString(1) != null && rs.getString(2) != null) {
                            meta.putIfAbsent(rs.getString(1), rs.getString(2));
                        }
                    }
                }
            }
        }
        boolean nsysTables = db.hasTable(NsysReader.KERNEL) || db.hasTable(NsysReader.RUNTIME)
                || db.hasTable(NsysReader.NVTX);
        if (table == null && !nsysTables) {
            throw new TraceFormatException(file + ": " + notNsight(db));
        }
        ExportVersion version = ExportVersion.of(table, meta);
        if (table == null) {
            warnings.add("no META_DATA_EXPORT / EXPORT_META_DATA table: export version unknown (a trimmed export?);"
                    + " read by column names");
        } else if (version.newerThanKnown()) {
            warnings.add(version.describe() + " is newer than the newest schema checked (" + ExportVersion.KNOWN
                    + "); read by column names");
        }
        String normalize = meta.get("EXPORT_PARAM_TIME_NORMALIZE");
        if ("true".equalsIgnoreCase(normalize)) {
            warnings.add("exported with time normalization (EXPORT_PARAM_TIME_NORMALIZE=true): times are not"
                    + " comparable with other exports");
        }
        for (String shiftKey : List.of("EXPORT_PARAM_TIME_SHIFT", "EXPORT_CONFIG_TIME_SHIFT")) {
            String shift = meta.get(shiftKey);
            if (shift != null && !shift.isBlank() && !shift.trim().equals("0")) {
                warnings.add("exported with a time shift (" + shiftKey + "=" + shift.trim() + ")");
            }
        }
        return new ExportSchema(db, file, version);
    }

    private static String notNsight(ExportDatabase db) {
        if (db.hasTable("StringTable") && !db.hasTable("StringIds")) {
            return "an nvprof database, not an Nsight Systems export (re-profile with nsys, or import the"
                    + " .nvvp into Nsight Systems and export to SQLite)";
        }
        if (db.hasTable("STRING_IDS") && (db.hasTable("TASK") || db.hasTable("COMMUNICATION_OP"))) {
            return "an Ascend profiler database, not an Nsight Systems export";
        }
        if (db.tableCount() == 0) {
            return "an empty SQLite database, not an Nsight Systems export";
        }
        return "an SQLite database but not an Nsight Systems export (no META_DATA_EXPORT or EXPORT_META_DATA"
                + " table, no CUPTI_ACTIVITY_KIND_* or NVTX_EVENTS table)";
    }

    ExportVersion version() {
        return version;
    }

    /** The export's name for {@code column} of {@code table}; a missing one is {@link #missingColumn}. */
    String required(String table, String column) throws SQLException, TraceFormatException {
        String c = db.column(table, column);
        if (c == null) {
            throw missingColumn(table, column);
        }
        return c;
    }

    /** A needed column that this export lacks: one line, naming the schema when it is newer. */
    TraceFormatException missingColumn(String table, String column) {
        String newer = version.newerThanKnown()
                ? " (" + version.describe() + " is newer than " + ExportVersion.KNOWN + ": the column may have been renamed)"
                : " (" + version.describe() + ")";
        return new TraceFormatException(file + ": table " + table + " has no column '" + column + "'" + newer);
    }
}
