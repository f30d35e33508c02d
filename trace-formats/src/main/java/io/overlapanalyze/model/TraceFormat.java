package io.overlapanalyze.model;

/** The profiler file format a rank trace was read from. */
public enum TraceFormat {
    KINETO, NSYS, ASCEND, FLIGHT_RECORDER
}
