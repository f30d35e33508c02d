package io.overlapanalyze.formats.kineto;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Small handcrafted Kineto documents for the scanner parity and fuzz tests: one of every kind of
 * event the reader keeps (thread names, steps, CPU ops, launches, kernels with collective args,
 * a stream wait, memcpy, allocator samples, an unmatched launch) and some it ignores (flows,
 * Python frames, counters), so that a change to any field shows in the model.
 */
final class KinetoDocs {
    private KinetoDocs() {
    }

    static final String KERNEL_NAME = "void gemm_kernel<float>(float*)";

    /** The events of the base document, one JSON object each; {@code KNAME} is the compute kernel's name. */
    static List<String> baseEvents(String kernelNameJson) {
        List<String> e = new ArrayList<>();
        e.add("{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":100,\"tid\":100,\"args\":{\"name\":\"thread 100 (pt_main_thread)\"}}");
        e.add("{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":100,\"tid\":101,\"args\":{\"name\":\"thread 101 (pt_autograd_0)\"}}");
        e.add("{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":0,\"tid\":7,\"args\":{\"name\":\"stream 7 \"}}");
        e.add("{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":0,\"tid\":0,\"args\":{\"name\":\"python3\"}}");
        e.add("{\"ph\":\"X\",\"cat\":\"user_annotation\",\"name\":\"ProfilerStep#1\",\"pid\":100,\"tid\":100,\"ts\":1000,\"dur\":5000,"
                + "\"args\":{\"External id\":1}}");
        e.add("{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::mm\",\"pid\":100,\"tid\":100,\"ts\":1010,\"dur\":20,"
                + "\"args\":{\"External id\":2,\"Input Dims\":[[2,2],[2,2]],\"Input type\":[\"float\",\"float\"]}}");
        e.add("{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":100,\"tid\":100,\"ts\":1015.5,\"dur\":3,"
                + "\"args\":{\"External id\":2,\"cbid\":211,\"correlation\":501}}");
        e.add("{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":" + kernelNameJson + ",\"pid\":0,\"tid\":7,\"ts\":1030.125,\"dur\":100.5,"
                + "\"args\":{\"External id\":2,\"device\":0,\"stream\":7,\"correlation\":501,\"grid\":[1,1,1],\"block\":[128,1,1],"
                + "\"registers per thread\":32,\"est. achieved occupancy %\":0}}");
        e.add("{\"ph\":\"f\",\"id\":501,\"pid\":0,\"tid\":7,\"ts\":1030.125,\"cat\":\"ac2g\",\"name\":\"ac2g\",\"bp\":\"e\"}");
        e.add("{\"ph\":\"s\",\"id\":501,\"pid\":100,\"tid\":100,\"ts\":1015.5,\"cat\":\"ac2g\",\"name\":\"ac2g\"}");
        e.add("{\"ph\":\"X\",\"cat\":\"python_function\",\"name\":\"train.py(10): step\",\"pid\":100,\"tid\":100,\"ts\":1005,"
                + "\"dur\":100,\"args\":{\"Python parent id\":1,\"Python id\":2}}");
        e.add("{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"autograd::engine::evaluate_function: MmBackward0\",\"pid\":100,\"tid\":101,"
                + "\"ts\":2000,\"dur\":500,\"args\":{\"External id\":3}}");
        e.add("{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"c10d::allreduce_\",\"pid\":100,\"tid\":101,\"ts\":2600,\"dur\":50}");
        e.add("{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"record_param_comms\",\"pid\":100,\"tid\":101,\"ts\":2605,\"dur\":40,"
                + "\"args\":{\"External id\":20,\"Collective name\":\"allreduce\",\"In msg nelems\":1000,\"Out msg nelems\":1000,"
                + "\"dtype\":\"Float\",\"Group size\":2,\"Process Group Name\":\"0\",\"Process Group Description\":\"default_pg\","
                + "\"Process Group Ranks\":[0,1],\"Seq\":7,\"Comms Id\":10159970886766084423}}");
        e.add("{\"ph\":\"X\",\"cat\":\"user_annotation\",\"name\":\"nccl:all_reduce\",\"pid\":100,\"tid\":101,\"ts\":2606,\"dur\":30}");
        e.add("{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernelExC\",\"pid\":100,\"tid\":101,\"ts\":2610,\"dur\":5,"
                + "\"args\":{\"External id\":20,\"correlation\":502}}");
        e.add("{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)\","
                + "\"pid\":0,\"tid\":20,\"ts\":2700,\"dur\":300,\"args\":{\"External id\":20,\"device\":0,\"stream\":20,"
                + "\"correlation\":502,\"Collective name\":\"allreduce\",\"dtype\":\"Float\",\"In msg nelems\":1000,"
                + "\"Out msg nelems\":1000,\"Group size\":2,\"Process Group Name\":\"0\",\"Process Group Ranks\":\"[0, 1]\"}}");
        e.add("{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaEventRecord\",\"pid\":100,\"tid\":100,\"ts\":2550,\"dur\":2,"
                + "\"args\":{\"correlation\":600}}");
        e.add("{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaStreamWaitEvent\",\"pid\":100,\"tid\":101,\"ts\":2590,\"dur\":2,"
                + "\"args\":{\"correlation\":601}}");
        e.add("{\"ph\":\"X\",\"cat\":\"cuda_sync\",\"name\":\"Stream Wait Event\",\"pid\":0,\"tid\":20,\"ts\":2591,\"dur\":0,"
                + "\"args\":{\"cuda_sync_kind\":\"Stream Wait Event\",\"wait_on_stream\":7,\"wait_on_cuda_event_record_corr_id\":600,"
                + "\"stream\":20,\"correlation\":601,\"device\":0}}");
        e.add("{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":100,\"tid\":100,\"ts\":3000,\"dur\":3,"
                + "\"args\":{\"correlation\":777}}");
        e.add("{\"ph\":\"X\",\"cat\":\"gpu_memcpy\",\"name\":\"Memcpy HtoD (Pageable -> Device)\",\"pid\":0,\"tid\":7,\"ts\":3100,"
                + "\"dur\":10,\"args\":{\"stream\":7,\"correlation\":778,\"bytes\":1024,\"memory bandwidth (GB/s)\":1.5}}");
        e.add("{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaMemcpyAsync\",\"pid\":100,\"tid\":100,\"ts\":3090,\"dur\":4,"
                + "\"args\":{\"correlation\":778,\"External id\":2}}");
        e.add("{\"ph\":\"X\",\"cat\":\"user_annotation\",\"name\":\"Optimizer.step#SGD.step\",\"pid\":100,\"tid\":100,\"ts\":4000,\"dur\":500}");
        e.add("{\"ph\":\"i\",\"s\":\"t\",\"name\":\"[memory]\",\"pid\":100,\"tid\":100,\"ts\":1012,\"args\":{\"Device Type\":1,"
                + "\"Device Id\":0,\"Addr\":140000,\"Bytes\":4096,\"Total Allocated\":8192,\"Total Reserved\":20971520}}");
        e.add("{\"ph\":\"i\",\"s\":\"t\",\"name\":\"[memory]\",\"pid\":100,\"tid\":100,\"ts\":1013,\"args\":{\"Device Type\":0,"
                + "\"Device Id\":-1,\"Total Allocated\":64}}");
        e.add("{\"ph\":\"X\",\"cat\":\"gpu_user_annotation\",\"name\":\"mlp(B)\",\"pid\":0,\"tid\":7,\"ts\":1029.125,"
                + "\"dur\":102.5,\"args\":{\"External id\":9,\"device\":0,\"stream\":7}}");
        e.add("{\"ph\":\"C\",\"name\":\"counter\",\"pid\":100,\"ts\":1000,\"args\":{\"v\":1}}");
        return e;
    }

    static final String DIST = "{\"backend\":\"nccl\",\"rank\":1,\"world_size\":2,\"pg_count\":1,\"pg_config\":[{\"pg_name\":\"0\","
            + "\"pg_desc\":\"default_pg\",\"backend_config\":\"cuda:nccl\",\"pg_size\":2,\"ranks\":[0,1]}],\"nccl_version\":\"2.21.5\"}";
    static final String BASE_NS = "1700000000000000000";
    static final String DEVICE_PROPS = "[{\"id\":0,\"name\":\"NVIDIA A100\",\"totalGlobalMem\":85097971712},"
            + "{\"id\":1,\"name\":\"NVIDIA A100\",\"totalGlobalMem\":85097971712}]";

    /** A document with the given events, {@code distributedInfo} and device properties before, the base after. */
    static String doc(List<String> events) {
        return "{\"schemaVersion\":1,\"deviceProperties\":" + DEVICE_PROPS + ",\"distributedInfo\":" + DIST
                + ",\"traceEvents\":[" + String.join(",\n", events) + "],\"traceName\":\"rank1.pt.trace.json\","
                + "\"baseTimeNanoseconds\":" + BASE_NS + "}\n";
    }

    /** The base document. */
    static String base() {
        return doc(baseEvents(quote(KERNEL_NAME)));
    }

    /** The base document with event {@code index} replaced by {@code replacement}. */
    static String withEvent(int index, String replacement) {
        List<String> e = baseEvents(quote(KERNEL_NAME));
        e.set(index, replacement);
        return doc(e);
    }

    /** Index of the compute kernel, the record_param_comms op and the nccl kernel in {@link #baseEvents}. */
    static final int KERNEL = 7;
    static final int THREAD_MAIN = 0;
    static final int RECORD_PARAM_COMMS = 13;
    static final int NCCL_KERNEL = 16;
    static final int STREAM_WAIT = 19;
    static final int MEMORY = 24;

    /** A JSON string literal of plain text (only {@code "} and {@code \} escaped). */
    static String quote(String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }

    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** Concatenates byte pieces (Strings as UTF-8, byte[] as is). */
    static byte[] bytes(Object... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (Object p : parts) {
            byte[] b = p instanceof byte[] a ? a : utf8(p.toString());
            out.write(b, 0, b.length);
        }
        return out.toByteArray();
    }

    /** The base document with the compute kernel's name given as raw bytes between the quotes. */
    static byte[] kernelNamed(byte[] rawNameBytes) {
        String marker = "@@NAME@@";
        String d = doc(baseEvents("\"" + marker + "\""));
        int at = d.indexOf(marker);
        return bytes(d.substring(0, at), rawNameBytes, d.substring(at + marker.length()));
    }
}
