package io.overlapanalyze.synth;

import java.nio.file.Path;

/**
 * What the generator wrote.
 *
 * @param where     the file or directory
 * @param rankFiles for a job, how many rank traces are in the directory; 0 for one trace
 */
public record Written(Path where, int rankFiles) {
}
