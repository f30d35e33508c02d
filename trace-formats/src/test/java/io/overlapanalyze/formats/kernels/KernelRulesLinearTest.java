package io.overlapanalyze.formats.kernels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.overlapanalyze.model.DeviceKind;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Issue 29 item 1: every built-in kernel rule is linear in the name. Each case is a long name
 * (about 600,000 characters) built to make a backtracking expression try the rest of the name
 * from every position; before the fix the pplx one ran for minutes. The bound is generous (a
 * linear pass over such a name takes milliseconds), a hang guard, not a benchmark.
 */
class KernelRulesLinearTest {
    private static final Duration BOUND = Duration.ofSeconds(10);
    private static final int REPEATS = 100_000;

    private static DeviceKind kind(String name) {
        return assertTimeoutPreemptively(BOUND, () -> KernelRules.builtIn().kindOfKernel(name));
    }

    private static boolean expertParallel(String name) {
        return assertTimeoutPreemptively(BOUND, () -> KernelRules.isExpertParallelKernel(name));
    }

    @Test
    void repeatedPplxPrefixesWithoutAnExchangeAreComputeAtOnce() {
        String name = "pplx::".repeat(REPEATS) + "x";
        assertEquals(DeviceKind.COMPUTE, kind(name));
        assertFalse(expertParallel(name));
    }

    @Test
    void pplxExchangeAtTheEndOfALongRunIsStillFound() {
        assertEquals(DeviceKind.COMM, kind("pplx::".repeat(REPEATS) + "dispatchKernel"));
        assertTrue(expertParallel("PPLX::".repeat(REPEATS) + "Combine<float>"));
    }

    @Test
    void pplxExchangeAfterABlankBelongsToAnotherRun() {
        // \S*? never crosses a blank: "pplx:: dispatch" is no pplx kernel, however long the name.
        assertEquals(DeviceKind.COMPUTE, kind("pplx::".repeat(REPEATS) + " dispatch"));
        assertEquals(DeviceKind.COMM, kind("x pplx::a".repeat(REPEATS) + " pplx::combine"));
        assertEquals(DeviceKind.COMPUTE, kind("applx::dispatch"), "pplx:: must start a word");
    }

    @Test
    void deepEpNamespacesRepeatedAreLinear() {
        assertEquals(DeviceKind.COMPUTE, kind("::intranode::internode_ll::".repeat(REPEATS) + "dispatcher"));
        assertEquals(DeviceKind.COMPUTE, kind(" internode::dispatchx".repeat(REPEATS)));
        assertEquals(DeviceKind.COMM, kind(" internode::dispatchx".repeat(REPEATS) + " internode::cached_notify_x"));
    }

    @Test
    void moriAndNvshmemRepeatedAreLinear() {
        assertEquals(DeviceKind.COMPUTE, kind("_epdispatc".repeat(REPEATS) + "x"));
        assertEquals(DeviceKind.COMM, kind("_epdispatc".repeat(REPEATS) + " EpCombineKernel"));
        assertEquals(DeviceKind.COMPUTE, kind("nvshme".repeat(REPEATS)));
    }

    @Test
    void fusedNamesAndExceptionsRepeatedAreLinear() {
        assertEquals(DeviceKind.COMPUTE, kind("mat_mul_all_".repeat(REPEATS) + "x"));
        assertEquals(DeviceKind.COMPUTE, kind("all_to_all_all_gather_batch_mat_".repeat(REPEATS / 4)));
        assertEquals(DeviceKind.COMPUTE, kind("moe_distribute_".repeat(REPEATS) + "x"));
        assertEquals(DeviceKind.COMPUTE, kind("get_dispatch_layou".repeat(REPEATS)));
        assertEquals(DeviceKind.COMPUTE, kind("flux:".repeat(REPEATS)));
        assertEquals(DeviceKind.FUSED, kind("mat_mul_all_".repeat(REPEATS) + "reduce"));
        assertEquals(DeviceKind.COMPUTE,
                assertTimeoutPreemptively(BOUND, () -> KernelRules.builtIn().kindOfComputeTask("mat_mul_".repeat(REPEATS))));
    }

    @Test
    void communicationSubstringsRepeatedAreLinear() {
        assertEquals(DeviceKind.COMPUTE, kind("ncc".repeat(REPEATS) + "hcom"));
        assertEquals(DeviceKind.COMM, kind("ncc".repeat(REPEATS) + "ncclKernel"));
    }
}
