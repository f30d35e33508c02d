package io.overlapanalyze.spark;

import java.io.Serializable;

/**
 * One input of the job, as a task receives it.
 *
 * @param location where a task reads it: an absolute local path, or a Hadoop FileSystem URI
 * @param shownAs  the name the user knows it by, in the report and in every message: the path as
 *                 expanded from what they typed, or the URI; never a task's local copy
 * @param local    true for a local path (read in place: local mode, or a file system every
 *                 executor mounts at the same path), false for a URI a task copies before reading
 * @param walked   true when found by walking a directory or matching a glob (then a file that is
 *                 not a trace by content is left out, as the CLI does), false when named
 */
record RankFile(String location, String shownAs, boolean local, boolean walked) implements Serializable {
    private static final long serialVersionUID = 1L;
}
