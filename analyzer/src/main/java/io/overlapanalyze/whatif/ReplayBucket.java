package io.overlapanalyze.whatif;

/**
 * One gradient reduction to replay: its data is complete at {@code readyNs}; it moves
 * {@code bytes}; {@code commNs} is its transfer time when known from the input (a measured or
 * scenario bucket), or {@code -1} to take it from the cost model.
 */
public record ReplayBucket(long readyNs, long bytes, long commNs) {
    public static ReplayBucket modelled(long readyNs, long bytes) {
        return new ReplayBucket(readyNs, bytes, -1);
    }
}
