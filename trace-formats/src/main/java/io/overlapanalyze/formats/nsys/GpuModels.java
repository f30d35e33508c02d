package io.overlapanalyze.formats.nsys;

import io.overlapanalyze.model.RankTrace;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The GPUs' model names ({@code TARGET_INFO_GPU.name} by {@code id}) and, when the export has it,
 * which GPU each process' CUDA device is ({@code TARGET_INFO_CUDA_DEVICE}: pid, cudaId → gpuId). A
 * device row's {@code deviceId} is the CUDA device as the process saw it, which is not the GPU's
 * {@code id} in general (nsys.md: id 0 → cuDevice 3 observed), so names are never joined on it
 * directly. The GPU table is absent in some exports (windowed fixtures): the model is unknown.
 */
final class GpuModels {
    /** TARGET_INFO_GPU: device id → model name; empty when the export has no such table. */
    private final Map<Integer, String> gpuNames = new HashMap<>();
    /** TARGET_INFO_CUDA_DEVICE: "pid:cudaId" → GPU id; empty when the export has no such table. */
    private final Map<String, Integer> cudaDevices = new HashMap<>();

    static GpuModels read(ExportDatabase db) throws SQLException {
        GpuModels models = new GpuModels();
        models.readTables(db);
        return models;
    }

    private void readTables(ExportDatabase db) throws SQLException {
        String t = "TARGET_INFO_GPU";
        String id = db.hasTable(t) ? db.column(t, "id") : null;
        String name = db.hasTable(t) ? db.column(t, "name") : null;
        if (id == null || name == null) {
            return;
        }
        Map<Integer, String> read = new HashMap<>();
        try (Statement st = db.statement();
             ResultSet rs = st.executeQuery("SELECT " + ExportDatabase.quote(id) + ", " + ExportDatabase.quote(name)
                     + " FROM " + ExportDatabase.quote(db.table(t)))) {
            while (rs.next()) {
                long d = rs.getLong(1);
                if (!rs.wasNull() && d >= Integer.MIN_VALUE && d <= Integer.MAX_VALUE) {
                    read.put((int) d, rs.getString(2));
                }
            }
        }
        gpuNames.putAll(RankTrace.deviceNames(read));
        t = "TARGET_INFO_CUDA_DEVICE";
        String gpu = db.hasTable(t) ? db.column(t, "gpuId") : null;
        String cuda = db.hasTable(t) ? db.column(t, "cudaId") : null;
        String pid = db.hasTable(t) ? db.column(t, "pid") : null;
        if (gpu == null || cuda == null || pid == null) {
            return;
        }
        try (Statement st = db.statement();
             ResultSet rs = st.executeQuery("SELECT " + ExportDatabase.quote(pid) + ", " + ExportDatabase.quote(cuda)
                     + ", " + ExportDatabase.quote(gpu) + " FROM " + ExportDatabase.quote(db.table(t)))) {
            while (rs.next()) {
                long p = rs.getLong(1);
                long c = rs.getLong(2);
                long g = rs.getLong(3);
                if (g >= Integer.MIN_VALUE && g <= Integer.MAX_VALUE && c >= Integer.MIN_VALUE && c <= Integer.MAX_VALUE) {
                    cudaDevices.put(p + ":" + c, (int) g);
                }
            }
        }
    }

    /**
     * The model of {@code r}'s device, keyed by its {@code deviceId} (as its lanes name it): through
     * {@code TARGET_INFO_CUDA_DEVICE} when that maps the process' device; else the node's model when
     * every GPU listed is of one model; else none (another GPU of a mixed node could be meant).
     */
    Map<Integer, String> deviceNamesOf(RankBuilder r) {
        Integer gpu = cudaDevices.get(r.pid + ":" + r.deviceId);
        String name = null;
        if (gpu != null) {
            name = gpuNames.get(gpu);
        } else {
            Set<String> models = new TreeSet<>(gpuNames.values());
            name = models.size() == 1 ? models.iterator().next() : null;
        }
        return name == null ? Map.of() : Map.of(r.deviceId, name);
    }
}
