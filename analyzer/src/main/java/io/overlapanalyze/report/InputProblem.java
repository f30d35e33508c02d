package io.overlapanalyze.report;

/**
 * An input left out of the cross-rank analysis (it may still have its own rank section).
 *
 * @param file    the file as the user named it
 * @param rank    its rank, or {@code null} when it could not be read
 * @param kind    UNREADABLE, DUPLICATE_RANK, OTHER_JOB (world size differs), RANK_OUT_OF_RANGE
 * @param message one line for people
 */
public record InputProblem(String file, Integer rank, String kind, String message) implements java.io.Serializable {
    public static final String UNREADABLE = "UNREADABLE";
    public static final String DUPLICATE_RANK = "DUPLICATE_RANK";
    public static final String OTHER_JOB = "OTHER_JOB";
    public static final String RANK_OUT_OF_RANGE = "RANK_OUT_OF_RANGE";
}
