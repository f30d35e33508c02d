package io.overlapanalyze.model;

import java.util.List;

/**
 * A host thread and every name the trace gave it (the same tid can be named twice).
 *
 * @param threadId the OS thread id
 * @param names    all names seen, in file order
 * @param autograd true when the thread is the autograd engine's ({@code pt_autograd_N}): work it
 *                 launches is backward work
 */
public record HostThread(long threadId, List<String> names, boolean autograd) {
    public HostThread {
        names = List.copyOf(names);
    }
}
