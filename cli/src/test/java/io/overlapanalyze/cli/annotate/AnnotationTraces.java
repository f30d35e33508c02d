package io.overlapanalyze.cli.annotate;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Hand-built Kineto traces of two micro-batches, for the micro-batch overlap tests. One step
 * ({@code ProfilerStep#1}); device times in ms from the step's origin:
 * <pre>
 * stream 7  (compute):  mlp_bwd_gemm  [0, 10]                          annotation mlp(B)     [0, 10]
 * stream 30 (EP comm):  deep_ep::intranode::dispatch [2, 6]            annotation dispatch(F) [2, 6]
 *                       deep_ep::intranode::combine  [12, 12 + combineMs] annotation combine(F)
 * </pre>
 * As GPU-side ranges ({@code gpu_user_annotation}, drawn 1 ns wider at each end as Kineto does),
 * as host {@code user_annotation} ranges around each kernel's launch, or without annotations.
 */
public final class AnnotationTraces {
    public static final long MS = 1_000_000L;
    /** Epoch µs of the step's device origin. */
    private static final long BASE_US = 1_700_000_000_000_000L;

    public enum Kind { GPU, HOST, NONE }

    private AnnotationTraces() {
    }

    public static Path write(Path dir, String file, Kind kind, long combineMs) throws IOException {
        String[][] kernels = {
                // name, start ms, duration ms, stream, annotation
                {"mlp_bwd_gemm", "0", "10", "7", "mlp(B)"},
                {"void deep_ep::intranode::dispatch<8, 768, 8192>(int4*, float*, int*)", "2", "4", "30", "dispatch(F)"},
                {"void deep_ep::intranode::combine<__nv_bfloat16, 8, 768, 4096>(int4*, float*)", "12",
                        Long.toString(combineMs), "30", "combine(F)"}};
        List<String> events = new ArrayList<>();
        events.add("{\"ph\": \"X\", \"cat\": \"user_annotation\", \"name\": \"ProfilerStep#1\", \"pid\": 1, \"tid\": 1,"
                + " \"ts\": " + (BASE_US - 2000) + ", \"dur\": 40000}");
        for (int i = 0; i < kernels.length; i++) {
            int corr = 500 + i;
            long launchUs = BASE_US - 1000 + i * 100L;
            if (kind == Kind.HOST) {
                events.add("{\"ph\": \"X\", \"cat\": \"user_annotation\", \"name\": \"" + kernels[i][4] + "\", \"pid\": 1,"
                        + " \"tid\": 1, \"ts\": " + (launchUs - 10) + ", \"dur\": 50}");
            }
            events.add("{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", \"pid\": 1, \"tid\": 1,"
                    + " \"ts\": " + launchUs + ", \"dur\": 5, \"args\": {\"correlation\": " + corr + "}}");
            long startUs = BASE_US + Long.parseLong(kernels[i][1]) * 1000;
            long durUs = Long.parseLong(kernels[i][2]) * 1000;
            events.add("{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"" + kernels[i][0] + "\", \"pid\": 0, \"tid\": "
                    + kernels[i][3] + ", \"ts\": " + startUs + ", \"dur\": " + durUs
                    + ", \"args\": {\"device\": 0, \"stream\": " + kernels[i][3] + ", \"correlation\": " + corr + "}}");
            if (kind == Kind.GPU) {
                events.add("{\"ph\": \"X\", \"cat\": \"gpu_user_annotation\", \"name\": \"" + kernels[i][4] + "\","
                        + " \"pid\": 0, \"tid\": " + kernels[i][3] + ", \"ts\": " + (startUs - 1) + ".999, \"dur\": "
                        + durUs + ".002, \"args\": {\"device\": 0, \"stream\": " + kernels[i][3] + "}}");
            }
        }
        Path p = dir.resolve(file);
        Files.writeString(p, "{\"schemaVersion\": 1, \"traceEvents\": [\n" + String.join(",\n", events) + "\n]}",
                StandardCharsets.UTF_8);
        return p;
    }
}
