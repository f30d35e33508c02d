package io.overlapanalyze.synth;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * What a user asked the generator to write: a scenario (a built-in name or a file) and the
 * options that say how, as values ({@code null} or {@code false} where not given).
 *
 * @param scenario          a built-in scenario name or a scenario / job file
 * @param output            where to write; {@code null}: a name from the scenario
 * @param format            kineto, nsys, ascend or ascend-db as typed; {@code null}: from the output name
 * @param ranks             a healthy job of this many ranks; {@code null}: one trace (or the job file's ranks)
 * @param gzip              jobs: gzip every rank's trace
 * @param devices           Kineto: 1 or 2 devices in one process; {@code null}: 1
 * @param secondDeviceLagUs with two devices: how much later the second runs the work
 * @param accelerator       Kineto: cuda or mtia as typed; {@code null}: cuda
 * @param deviceLagUs       Kineto: the device's lag behind the host, in microseconds as typed
 * @param hostTimeSync      Kineto: cuda_sync rows at their host call's time
 * @param startsMidStep     Kineto: the capture begins at the second step's host start
 * @param pipelineUs        Kineto: a next-batch copy of this many microseconds ending each step
 */
public record SynthRequest(String scenario, Path output, String format, Integer ranks, boolean gzip,
                           Integer devices, long secondDeviceLagUs, String accelerator, String deviceLagUs,
                           boolean hostTimeSync, boolean startsMidStep, String pipelineUs) {

    /** The capture effects the options ask for ({@link CaptureEffects#NONE} without any). */
    CaptureEffects effects() {
        try {
            long lag = deviceLagUs == null ? 0 : Durations.usToNs(deviceLagUs);
            long pipeline = pipelineUs == null ? 0 : Durations.usToNs(pipelineUs);
            return new CaptureEffects(lag, hostTimeSync, startsMidStep, pipeline);
        } catch (IllegalArgumentException e) {
            throw new SynthInputException(e.getMessage(), e);
        }
    }

    /** Capture effects are written by the Kineto writer only. */
    void requireNoEffects(String what) {
        if (!effects().none()) {
            throw new SynthInputException("--device-lag-us, --host-time-sync, --capture-starts-mid-step and "
                    + "--pipeline-us apply to single Kineto traces only, not to " + what);
        }
    }

    /** Whether the options ask for another device layout than one CUDA device (single DDP scenarios only). */
    boolean asksOtherLayout() {
        return (devices != null && devices != 1) || accelerator != null || secondDeviceLagUs != 0;
    }

    /** Jobs and parallelism scenarios are written with one CUDA device per rank. */
    void requireUsualLayout() {
        if (asksOtherLayout()) {
            throw new SynthInputException("--devices, --second-device-lag-us and --accelerator apply to a single-rank"
                    + " DDP scenario only (not to jobs or FSDP, pipeline and contention scenarios)");
        }
    }

    /** The scenario file the request names, or {@code null} for a built-in name. */
    Path scenarioFile() {
        Path file = Path.of(scenario);
        return Files.isRegularFile(file) ? file : null;
    }

    /** The inputs an output must never replace: the scenario file when it exists. */
    List<Path> inputs() {
        return Files.exists(Path.of(scenario)) ? List.of(Path.of(scenario)) : List.of();
    }
}
