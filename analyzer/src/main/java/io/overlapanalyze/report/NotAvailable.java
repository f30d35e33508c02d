package io.overlapanalyze.report;

/**
 * Why a section of the analyses has nothing to show for a rank: one line each, or
 * {@code null} when the section is available. Renderers print "not available: &lt;why&gt;" from
 * these instead of zeros.
 *
 * @param prefetch   FSDP / ZeRO prefetch (needs all-gathers)
 * @param pipeline   pipeline send/recv and bubbles (needs send/recv collectives)
 * @param contention compute slowdown under overlap (needs enough overlapped and isolated instances)
 * @param memory     peak allocated memory (needs allocator events)
 * @param launch     launch diagnostics (needs gradient collectives and host launch data)
 * @param communication every communication figure (comm busy, overlap, exposure, tail): the trace
 *                   cannot tell communication from compute (no kernel names, no communication
 *                   table), so its communication numbers are unknown, not zero
 */
public record NotAvailable(String prefetch, String pipeline, String contention, String memory, String launch,
                           String communication) implements java.io.Serializable {
    public static NotAvailable none() {
        return new NotAvailable(null, null, null, null, null, null);
    }
}
