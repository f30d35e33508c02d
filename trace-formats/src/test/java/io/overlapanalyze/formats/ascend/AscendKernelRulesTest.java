package io.overlapanalyze.formats.ascend;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.overlapanalyze.formats.TraceFormats;
import io.overlapanalyze.formats.input.ReadOptions;
import io.overlapanalyze.formats.kernels.KernelRules;
import io.overlapanalyze.model.DeviceKind;
import io.overlapanalyze.model.RankTrace;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The Ascend readers read with the kernel rules they are given ({@code --fused-kernel} and the
 * others, which Spark tasks get only through {@link ReadOptions}), never with process-wide ones:
 * with a rule marking every task fused, the advisor timeline's 11 compute tasks (its 12th is a
 * MEMCPY_ASYNC copy) are FUSED whatever the rules in force say.
 */
class AscendKernelRulesTest {
    @Test
    void theRulesInTheReadOptionsDecideWhatAKernelIs() throws Exception {
        KernelRules everyTaskFused = KernelRules.withUserPatterns(List.of(
                new KernelRules.UserPattern(KernelRules.Target.FUSED, Pattern.compile(""))));
        ReadOptions options = ReadOptions.DEFAULT.withKernelRules(everyTaskFused);
        List<RankTrace> ranks = TraceFormats.standard().read(AscendLegacyTimelineTest.ADVISOR_2024, options);
        Map<DeviceKind, Integer> kinds = new EnumMap<>(DeviceKind.class);
        RankTrace t = ranks.get(0);
        for (int i = 0; i < t.device().size(); i++) {
            if (!"MEMCPY_ASYNC".equals(t.device().name(i))) {
                kinds.merge(t.device().kind(i), 1, Integer::sum);
            }
        }
        assertEquals(Map.of(DeviceKind.FUSED, 11), kinds);
    }
}
