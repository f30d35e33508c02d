package io.overlapanalyze.formats.kernels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.overlapanalyze.formats.kernels.KernelRules.Target;
import io.overlapanalyze.formats.kernels.KernelRules.UserPattern;
import io.overlapanalyze.model.DeviceKind;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/** The built-in name rules of metrics.md §1, and the precedence of user patterns. */
class KernelRulesTest {
    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', value = {
            // NCCL of every generation and the other libraries (case-insensitive substrings).
            "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)|COMM",
            "ncclKernel_AllReduce_RING_LL_Sum_float(ncclWorkElem)|COMM",
            "ncclSymkDevKernel_AllReduce_AGxLLMC_R_sum_bf16|COMM",
            "rcclGenericKernel<1, false>|COMM",
            "void c10d::symmetric_memory::multimem_all_reduce_kernel<float, 16>(...)|COMM",
            // DeepEP: public namespace, a renamed in-house one, low-latency mode, notify and cached kernels.
            "void deep_ep::intranode::dispatch<8, 768, 8192>(int4*, float*, int*, long*)|COMM",
            "void deep_ep::intranode::combine<__nv_bfloat16, 8, 768, 4096>(...)|COMM",
            "void deep_ep::intranode::notify_dispatch<8>(int const*, int*, int, int const*)|COMM",
            "void deep_ep::intranode::cached_notify_combine<8>(void**, int*, int, int, int**, int)|COMM",
            "void deep_ep::internode::dispatch<true, 8, 3, 24, 6, 2, 2>(...)|COMM",
            "void acme_moe::internode_ll::dispatch<false, 3, 7168>(...)|COMM",
            "void acme_moe::internode_ll::combine<3, 7168, 128>(...)|COMM",
            "deep_ep::internode::cached_notify(int, int, int, int, int, int, int*, int, int*)|COMM",
            // Layout and quantisation helpers stay compute.
            "void deep_ep::layout::get_dispatch_layout<256, 32, 8>(long const*, int*, int*, int*, bool*, int, int, int, int)|COMPUTE",
            "void at::native::unrolled_elementwise_kernel<at::native::direct_copy_kernel_cuda>|COMPUTE",
            "void per_token_cast_to_fp8_kernel<128>(...)|COMPUTE",
            // AMD MORI, pplx-kernels, NVSHMEM.
            "void mori::moe::EpDispatchIntraNodeKernel<__hip_bfloat16>(mori::moe::EpDispatchCombineArgs<...>)|COMM",
            "void mori::moe::EpCombineInterNodeKernel<float>(...)|COMM",
            "void pplx::dispatchKernel<128, false, __nv_bfloat16>(...)|COMM",
            "void pplx::combineKernel<__nv_bfloat16, __nv_bfloat16>(...)|COMM",
            "nvshmemi_proxy_quiet_entrypoint|COMM",
            // Fused compute-communication: Ascend MC² (task and aclnn names), Flux.
            "MatmulAllReduce|FUSED",
            "aclnnMatmulAllReduceAddRmsNorm|FUSED",
            "AllGatherMatmul|FUSED",
            "MatmulReduceScatter|FUSED",
            "MoeDistributeDispatch|FUSED",
            "MoeDistributeCombineV2|FUSED",
            "GroupedMatmulAllReduce|FUSED",
            "BatchMatMulReduceScatterAlltoAll|FUSED",
            "AlltoAllAllGatherBatchMatMul|FUSED",
            "void flux::GemmRSKernel<cutlass::gemm::GemmShape<128, 256, 64>>(...)|FUSED",
            // Plain compute, and names that merely mention a collective-like word.
            "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64|COMPUTE",
            "MatMul|COMPUTE",
            "my_fused_gemm_rs_kernel|COMPUTE",
            "void at::native::reduce_kernel<512, 1>(...)|COMPUTE"})
    void builtIn(String name, DeviceKind expected) {
        assertEquals(expected, KernelRules.builtIn().kindOfKernel(name));
    }

    @Test
    void expertParallelKernelsAreAllToAllButNotTheirHelpers() {
        assertTrue(KernelRules.isExpertParallelKernel("void deep_ep::intranode::dispatch<8, 768, 8192>(...)"));
        assertTrue(KernelRules.isExpertParallelKernel("void mori::moe::EpCombineIntraNodeKernel<float>(...)"));
        assertFalse(KernelRules.isExpertParallelKernel("void deep_ep::layout::get_dispatch_layout<256, 32, 8>(...)"));
        assertFalse(KernelRules.isExpertParallelKernel("ncclDevKernel_AllReduce_Sum_f32_RING_LL"));
        assertFalse(KernelRules.isExpertParallelKernel(null));
    }

    @Test
    void userPatternsComeFirstComputeThenFusedThenComm() {
        KernelRules rules = KernelRules.withUserPatterns(List.of(
                new UserPattern(Target.COMM, Pattern.compile("my_")),
                new UserPattern(Target.FUSED, Pattern.compile("gemm_rs")),
                new UserPattern(Target.COMPUTE, Pattern.compile("ncclDevKernel_Dummy"))));
        assertEquals(DeviceKind.FUSED, rules.kindOfKernel("my_fused_gemm_rs_kernel"), "fused beats comm");
        assertEquals(DeviceKind.COMM, rules.kindOfKernel("my_sendrecv"));
        assertEquals(DeviceKind.COMPUTE, rules.kindOfKernel("ncclDevKernel_Dummy"), "a user rule beats the built-in");
        assertEquals(DeviceKind.COMM, rules.kindOfKernel("ncclDevKernel_AllGather"), "built-ins still apply");
        assertEquals(List.of(Target.COMPUTE, Target.FUSED, Target.COMM),
                rules.userPatterns().stream().map(UserPattern::target).toList());
    }

    @Test
    void userPatternsAreCaseSensitiveUnlessTheySayOtherwise() {
        KernelRules exact = KernelRules.withUserPatterns(List.of(new UserPattern(Target.COMM, Pattern.compile("MyA2A"))));
        assertEquals(DeviceKind.COMPUTE, exact.kindOfKernel("mya2a_kernel"));
        KernelRules anyCase = KernelRules.withUserPatterns(
                List.of(new UserPattern(Target.COMM, Pattern.compile("(?i)MyA2A"))));
        assertEquals(DeviceKind.COMM, anyCase.kindOfKernel("mya2a_kernel"));
    }
}
