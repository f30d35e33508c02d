package io.overlapanalyze.report;

import java.util.List;

/**
 * The tail's classification and the chain that explains it, last collective first.
 */
public record Attribution(TailKind kind, List<ChainLink> chain) implements java.io.Serializable {
    public Attribution {
        chain = List.copyOf(chain);
    }

    public static Attribution none() {
        return new Attribution(TailKind.NONE, List.of());
    }
}
