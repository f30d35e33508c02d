package io.overlapanalyze.model;

/**
 * One device lane: a CUDA stream, an Ascend stream or HCCL plane.
 *
 * @param index  position of this lane in {@link RankTrace#lanes()}; device intervals refer to it
 * @param device device index as the trace names it (Kineto {@code pid} of device events)
 * @param stream stream id on that device ({@code -1} when the trace gives none)
 * @param label  human-readable name ("stream 7")
 */
public record Lane(int index, int device, long stream, String label) {
}
