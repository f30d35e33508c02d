/**
 * Findings (metrics.md §13): what to change, ranked by the time it could save. Built from the
 * numbers the report already shows (the breakdown of §11, the split of §12, the tail of §6, the
 * cross-rank section of §8), never from the trace, so a finding can always be checked against the
 * report it sits in.
 */
package io.overlapanalyze.findings;
