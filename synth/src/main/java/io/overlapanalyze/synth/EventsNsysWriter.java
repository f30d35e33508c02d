package io.overlapanalyze.synth;

import io.overlapanalyze.synth.TraceEventBuilder.TraceEvent;
import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes the Kineto events of one rank ({@link EventSink#build()}) as an Nsight Systems SQLite
 * export with the tables of {@link NsysScenarioWriter}: every kernel at the same device time on
 * the same stream, every {@code cudaLaunchKernel} at the same host time with the same correlation
 * id, host ops as NVTX ranges ({@code emit_nvtx} style: {@code aten::mm, op_id = 3}; annotations
 * such as {@code ProfilerStep#1} by their plain name). So a scenario's metrics are the same in
 * both formats. Device-side annotations, flows, sync rows and allocator instants are not written
 * (Nsight has no such rows).
 */
final class EventsNsysWriter {
    private static final long CAPTURE_LEAD_NS = 1_000_000L;

    private EventsNsysWriter() {
    }

    static void write(List<TraceEvent> events, String scenarioName, int rank, int worldSize, long baseTimeNs, Path file)
            throws IOException {
        NsysScenarioWriter.writeExport(file, c -> new Rows(c, events, scenarioName, rank, worldSize, baseTimeNs).write());
    }

    private static final class Rows {
        private final Connection c;
        private final List<TraceEvent> events;
        private final String name;
        private final int rank;
        private final int worldSize;
        private final long base;
        private final Map<String, Long> stringIds = new HashMap<>();
        private long origin;
        private long nextOpId = 1;
        private int gridId = 1;

        Rows(Connection c, List<TraceEvent> events, String name, int rank, int worldSize, long base) {
            this.c = c;
            this.events = events;
            this.name = name;
            this.rank = rank;
            this.worldSize = worldSize;
            this.base = base;
        }

        void write() throws SQLException {
            long first = Long.MAX_VALUE;
            for (TraceEvent e : events) {
                if ("X".equals(e.ph())) {
                    first = Math.min(first, e.ts());
                }
            }
            origin = first - CAPTURE_LEAD_NS;
            long pid = EventSink.BASE_PID + rank;
            long globalPid = (1L << 48) | (pid << 24);
            metadata();
            exec("INSERT INTO PROCESSES (globalPid, pid, name) VALUES (?, ?, ?)", globalPid, pid, "python3");
            Map<Object, Long> tids = new HashMap<>();
            try (PreparedStatement kernel = c.prepareStatement("INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL (start, end,"
                    + " deviceId, contextId, greenContextId, streamId, correlationId, globalPid, demangledName, shortName,"
                    + " mangledName, launchType, cacheConfig, registersPerThread, gridX, gridY, gridZ, blockX, blockY,"
                    + " blockZ, staticSharedMemory, dynamicSharedMemory, localMemoryPerThread, localMemoryTotal, gridId,"
                    + " sharedMemoryExecuted, graphNodeId, sharedMemoryLimitConfig, graphId, tensorSizeMinusOneElements)"
                    + " VALUES (?, ?, ?, 1, NULL, ?, ?, ?, ?, ?, NULL, 0, 0, 128, 132, 1, 1, 256, 1, 1, 0, 0, 0, 0, ?,"
                    + " 0, NULL, 0, NULL, '[]')");
                 PreparedStatement runtime = c.prepareStatement("INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME (start, end,"
                         + " eventClass, globalTid, correlationId, nameId, returnValue, callchainId)"
                         + " VALUES (?, ?, 0, ?, ?, ?, 0, NULL)");
                 PreparedStatement nvtx = c.prepareStatement("INSERT INTO NVTX_EVENTS (start, end, eventType, text,"
                         + " globalTid, textId, domainId) VALUES (?, ?, 59, ?, ?, NULL, 0)")) {
                for (TraceEvent e : events) {
                    if (!"X".equals(e.ph()) || e.cat() == null) {
                        continue;
                    }
                    switch (e.cat()) {
                        case "kernel" -> {
                            kernel.setLong(1, e.ts() - origin);
                            kernel.setLong(2, e.ts() + e.dur() - origin);
                            kernel.setInt(3, ((Number) e.args().get("device")).intValue());
                            kernel.setInt(4, ((Number) e.args().get("stream")).intValue());
                            kernel.setLong(5, ((Number) e.args().get("correlation")).longValue());
                            kernel.setLong(6, globalPid);
                            kernel.setLong(7, string(e.name()));
                            kernel.setLong(8, string(NsysScenarioWriter.shortName(e.name())));
                            kernel.setInt(9, gridId++);
                            kernel.addBatch();
                        }
                        case "cuda_runtime" -> {
                            runtime.setLong(1, e.ts() - origin);
                            runtime.setLong(2, e.ts() + e.dur() - origin);
                            runtime.setLong(3, tid(tids, globalPid, e.tid()));
                            runtime.setLong(4, ((Number) e.args().get("correlation")).longValue());
                            runtime.setLong(5, string(e.name() + "_v7000"));
                            runtime.addBatch();
                        }
                        case "cpu_op", "user_annotation" -> {
                            nvtx.setLong(1, e.ts() - origin);
                            nvtx.setLong(2, e.ts() + e.dur() - origin);
                            nvtx.setString(3, e.cat().equals("cpu_op") ? e.name() + ", op_id = " + nextOpId++ : e.name());
                            nvtx.setLong(4, tid(tids, globalPid, e.tid()));
                            nvtx.addBatch();
                        }
                        default -> { }
                    }
                }
                kernel.executeBatch();
                runtime.executeBatch();
                nvtx.executeBatch();
            }
            for (Map.Entry<Object, Long> t : tids.entrySet()) {
                exec("INSERT INTO ThreadNames (nameId, priority, globalTid) VALUES (?, 0, ?)",
                        string(t.getKey().equals(pid) || t.getKey().equals((int) pid) ? "python3" : "pt_autograd_0"),
                        t.getValue());
            }
            try (PreparedStatement strings = c.prepareStatement("INSERT INTO StringIds (id, value) VALUES (?, ?)")) {
                for (Map.Entry<String, Long> s : stringIds.entrySet()) {
                    strings.setLong(1, s.getValue());
                    strings.setString(2, s.getKey());
                    strings.addBatch();
                }
                strings.executeBatch();
            }
        }

        private long tid(Map<Object, Long> tids, long globalPid, Object tid) {
            return tids.computeIfAbsent(tid, t -> globalPid | ((Number) t).longValue());
        }

        private void metadata() throws SQLException {
            String[][] rows = {
                {"EXPORT_PRODUCT_NAME", "NVIDIA Nsight Systems"},
                {"EXPORT_PRODUCT_VERSION", NsysScenarioWriter.PRODUCT_VERSION},
                {"EXPORT_SCHEMA_VERSION", NsysScenarioWriter.SCHEMA_VERSION},
                {"EXPORT_SCHEMA_VERSION_MAJOR", "3"},
                {"EXPORT_SCHEMA_VERSION_MINOR", "25"},
                {"EXPORT_SCHEMA_VERSION_MICRO", "0"},
                {"EXPORT_PARAM_EXPORT_TYPE", "SQLite"},
                {"EXPORT_PARAM_TIME_NORMALIZE", "false"},
                {"EXPORT_PARAM_TIME_SHIFT", "0"},
                {"DERIVED_BY", "overlap-analyze synth (scenario " + name + ")"},
            };
            for (String[] r : rows) {
                exec("INSERT INTO META_DATA_EXPORT (name, value) VALUES (?, ?)", r[0], r[1]);
            }
            long epoch = base + origin;
            String utc = java.time.Instant.ofEpochSecond(Math.floorDiv(epoch, 1_000_000_000L)).toString();
            exec("INSERT INTO TARGET_INFO_SESSION_START_TIME (utcEpochNs, utcTime, localTime, systemClockNs)"
                    + " VALUES (?, ?, ?, ?)", epoch, utc, utc, origin);
            exec("INSERT INTO TARGET_INFO_SYSTEM_ENV (globalVid, devStateName, name, nameEnum, value)"
                    + " VALUES (281474976710656, 'Unknown', 'DeviceEnvironment', 40, ?)",
                    "PATH=/usr/bin;RANK=" + rank + ";LOCAL_RANK=" + rank + ";WORLD_SIZE=" + worldSize);
        }

        private void exec(String sql, Object... values) throws SQLException {
            try (PreparedStatement ps = c.prepareStatement(sql)) {
                for (int i = 0; i < values.length; i++) {
                    ps.setObject(i + 1, values[i]);
                }
                ps.executeUpdate();
            }
        }

        private long string(String value) {
            return stringIds.computeIfAbsent(value, v -> (long) stringIds.size() + 1);
        }
    }
}
