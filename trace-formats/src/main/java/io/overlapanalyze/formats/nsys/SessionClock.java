package io.overlapanalyze.formats.nsys;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The export's clock: capture ns plus {@code TARGET_INFO_SESSION_START_TIME.utcEpochNs} when the
 * export has it (else 0), so that several exports (one per rank) share the epoch clock.
 *
 * @param epochNs the session start, ns since the epoch; 0 when the export does not say
 */
record SessionClock(long epochNs) {

    static SessionClock read(ExportDatabase db) throws SQLException {
        String t = "TARGET_INFO_SESSION_START_TIME";
        String col = db.hasTable(t) ? db.column(t, "utcEpochNs") : null;
        if (col == null) {
            return new SessionClock(0);
        }
        long epochNs = 0;
        try (Statement st = db.statement();
             ResultSet rs = st.executeQuery("SELECT " + ExportDatabase.quote(col) + " FROM "
                     + ExportDatabase.quote(db.table(t)) + " LIMIT 1")) {
            if (rs.next()) {
                long v = rs.getLong(1);
                epochNs = rs.wasNull() ? 0 : v;
            }
        }
        return new SessionClock(epochNs);
    }

    /** A capture time on the epoch clock; an {@link ArithmeticException} when out of range. */
    long time(long t) {
        return Math.addExact(t, epochNs);
    }
}
