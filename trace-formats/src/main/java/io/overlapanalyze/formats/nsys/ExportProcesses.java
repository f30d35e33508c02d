package io.overlapanalyze.formats.nsys;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The processes of an export and what identifies their ranks: the recorded environment
 * ({@code TARGET_INFO_SYSTEM_ENV}, {@code META_DATA_CAPTURE}), thread names ({@code ThreadNames}) and
 * MPI ranks ({@code MPI_RANKS}). Each process's {@link ProcessNvtx} is created here on first mention
 * and filled further by the NVTX read ({@link NvtxRanges}); {@link RankIds} turns it into rank ids.
 */
final class ExportProcesses {
    private final ExportDatabase db;
    private final Map<Long, ProcessNvtx> processes = new HashMap<>();
    private final Map<String, String> env = new LinkedHashMap<>();

    ExportProcesses(ExportDatabase db) {
        this.db = db;
    }

    /** The process of {@code processKey} ({@link GlobalIds#process}), created on first use. */
    ProcessNvtx process(long processKey) {
        return processes.computeIfAbsent(processKey, k -> new ProcessNvtx());
    }

    /** Every process seen, by process key. */
    Map<Long, ProcessNvtx> all() {
        return processes;
    }

    /** The recorded environment variables (launcher's, then the processes' own), in read order. */
    Map<String, String> environment() {
        return env;
    }

    /** Launcher environment: DeviceEnvironment, then the launched process' own variables. */
    void readEnvironment() throws SQLException {
        String t = "TARGET_INFO_SYSTEM_ENV";
        if (db.hasTable(t) && db.column(t, "name") != null && db.column(t, "value") != null) {
            try (Statement st = db.statement();
                 ResultSet rs = st.executeQuery("SELECT " + ExportDatabase.quote(db.column(t, "value")) + " FROM "
                         + ExportDatabase.quote(db.table(t)) + " WHERE " + ExportDatabase.quote(db.column(t, "name"))
                         + " = 'DeviceEnvironment'")) {
                while (rs.next()) {
                    RankIds.parseEnvironment(rs.getString(1), env);
                }
            }
        }
        t = "META_DATA_CAPTURE";
        if (db.hasTable(t) && db.column(t, "name") != null && db.column(t, "value") != null) {
            try (Statement st = db.statement();
                 ResultSet rs = st.executeQuery("SELECT " + ExportDatabase.quote(db.column(t, "value")) + " FROM "
                         + ExportDatabase.quote(db.table(t)) + " WHERE " + ExportDatabase.quote(db.column(t, "name"))
                         + " LIKE 'PROCESS_%:ENVIRONMENT_VARIABLE'")) {
                while (rs.next()) {
                    RankIds.parseEnvironment(rs.getString(1), env);
                }
            }
        }
    }

    /** {@code ThreadNames(nameId, globalTid)}: names through {@code strings}. */
    void readThreadNames(StringTable strings) throws SQLException {
        String t = "ThreadNames";
        String nameId = db.hasTable(t) ? db.column(t, "nameId") : null;
        String tid = db.hasTable(t) ? db.column(t, "globalTid") : null;
        if (nameId == null || tid == null) {
            return;
        }
        try (Statement st = db.statement();
             ResultSet rs = st.executeQuery("SELECT " + ExportDatabase.quote(nameId) + ", " + ExportDatabase.quote(tid)
                     + " FROM " + ExportDatabase.quote(db.table(t)))) {
            while (rs.next()) {
                long id = rs.getLong(1);
                boolean nullId = rs.wasNull();
                long g = rs.getLong(2);
                if (nullId || rs.wasNull()) {
                    continue;
                }
                String name = strings.get(id);
                if (name != null && !name.isEmpty()) {
                    process(GlobalIds.process(g)).addThreadName(GlobalIds.tid(g), name);
                }
            }
        }
    }

    /** {@code MPI_RANKS(globalTid, rank)} (3.25.0 with --trace=mpi). */
    void readMpiRanks() throws SQLException {
        String t = "MPI_RANKS";
        String tid = db.hasTable(t) ? db.column(t, "globalTid") : null;
        String rank = db.hasTable(t) ? db.column(t, "rank") : null;
        if (tid == null || rank == null) {
            return;
        }
        try (Statement st = db.statement();
             ResultSet rs = st.executeQuery("SELECT " + ExportDatabase.quote(tid) + ", " + ExportDatabase.quote(rank)
                     + " FROM " + ExportDatabase.quote(db.table(t)))) {
            while (rs.next()) {
                long g = rs.getLong(1);
                int r = rs.getInt(2);
                if (!rs.wasNull() && r >= 0) {
                    process(GlobalIds.process(g)).mpiRank = r;
                }
            }
        }
    }
}
