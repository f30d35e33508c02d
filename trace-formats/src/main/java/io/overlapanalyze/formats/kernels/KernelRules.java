package io.overlapanalyze.formats.kernels;

import io.overlapanalyze.model.DeviceKind;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a kernel (or device task) is, by its name (metrics.md §1): {@code COMPUTE}, {@code COMM}
 * or {@code FUSED}. Every reader asks the same rules, so a name means the same in every format.
 *
 * <p>Order of precedence: the user's patterns first (compute, then fused, then communication),
 * then the built-in ones (compute exceptions, fused kernels, communication kernels), else compute.
 * Built-in rules:
 * <ul>
 *   <li>communication: NCCL of every generation, RCCL, HCCL, symmetric-memory all-reduce kernels
 *       (substrings, any case), and expert-parallel all-to-all kernels: DeepEP's
 *       {@code intranode} / {@code internode} / {@code internode_ll} {@code dispatch},
 *       {@code combine}, {@code notify_dispatch}, {@code cached_notify…} under any namespace (in-house
 *       builds rename {@code deep_ep::}), AMD MORI's {@code EpDispatch…} / {@code EpCombine…},
 *       pplx-kernels' dispatch/combine, and NVSHMEM-based kernels;</li>
 *   <li>compute exceptions: DeepEP's {@code get_dispatch_layout} (it only counts tokens per
 *       expert, no traffic);</li>
 *   <li>fused compute-communication: Ascend MC² operators ({@code MatmulAllReduce},
 *       {@code AllGatherMatmul}, {@code MatmulReduceScatter}, {@code MatmulAllReduceAddRmsNorm},
 *       {@code MoeDistributeDispatch}, {@code MoeDistributeCombine}, grouped and batch variants,
 *       {@code aclnn…} names) and Flux's fused GEMM+collective kernels ({@code flux::}).</li>
 * </ul>
 * User patterns are Java regular expressions searched anywhere in the name (case-sensitive unless
 * they say {@code (?i)}); built-in ones ignore case.
 */
public final class KernelRules {
    /** What a user pattern makes of the kernels it matches. */
    public enum Target {
        COMPUTE, FUSED, COMM;

        DeviceKind kind() {
            return switch (this) {
                case COMPUTE -> DeviceKind.COMPUTE;
                case FUSED -> DeviceKind.FUSED;
                case COMM -> DeviceKind.COMM;
            };
        }
    }

    /**
     * One user rule: kernels whose name matches {@code regex} are {@code target}. Serialisable
     * (an enum and a {@link Pattern} with its flags), so that the rules can be rebuilt in another
     * JVM with {@link #withUserPatterns}.
     */
    public record UserPattern(Target target, Pattern regex) implements java.io.Serializable {
        public UserPattern {
            Objects.requireNonNull(target, "target");
            Objects.requireNonNull(regex, "regex");
        }
    }

    private static final String[] COMM_SUBSTRINGS = {
            "nccl", "rccl", "hccl", "hcom_", "multimem_all_reduce", "cross_device_reduce"};

    /**
     * DeepEP (any namespace), MORI and NVSHMEM kernels: expert-parallel all-to-all (pplx-kernels:
     * {@link #isPplxExchange}). Every alternative has a bounded length, so a search costs a bounded
     * amount per position of the name: linear in the name, whatever it holds (issue 29).
     */
    private static final Pattern EXPERT_PARALLEL = Pattern.compile(
            "(?:^|[^a-z0-9_])(?:intranode|internode_ll|internode)::(?:cached_notify"
                    + "|(?:notify_dispatch|notify_combine|dispatch|combine)\\b)"
                    + "|\\bep(?:dispatch|combine)"
                    + "|nvshmem",
            Pattern.CASE_INSENSITIVE);

    /** Where a pplx-kernels name can start ({@code \b} before {@code pplx::}). */
    private static final Pattern PPLX = Pattern.compile("\\bpplx::", Pattern.CASE_INSENSITIVE);

    private static final Pattern COMPUTE_EXCEPTIONS = Pattern.compile("get_dispatch_layout", Pattern.CASE_INSENSITIVE);

    private static final Pattern FUSED = Pattern.compile(
            "mat_?mul_?all_?reduce|all_?gather_?(?:batch_?)?mat_?mul|(?:batch_?)?mat_?mul_?reduce_?scatter"
                    + "|moe_?distribute_?(?:dispatch|combine)|all_?to_?all_?all_?gather_?batch_?mat_?mul"
                    + "|\\bflux::",
            Pattern.CASE_INSENSITIVE);

    private static final KernelRules BUILT_IN = new KernelRules(List.of());

    private static final int MAX_CACHED_NAMES = 1 << 16;

    private final List<UserPattern> user;
    private final Map<String, DeviceKind> computeTaskKinds = new ConcurrentHashMap<>();

    private KernelRules(List<UserPattern> user) {
        this.user = List.copyOf(user);
    }

    /** The built-in rules alone. */
    public static KernelRules builtIn() {
        return BUILT_IN;
    }

    /**
     * The built-in rules with {@code user} patterns in front; within the user's patterns compute
     * beats fused beats communication, whatever order they were given in.
     */
    public static KernelRules withUserPatterns(List<UserPattern> user) {
        if (user.isEmpty()) {
            return BUILT_IN;
        }
        List<UserPattern> ordered = new ArrayList<>();
        for (Target t : Target.values()) {
            for (UserPattern p : user) {
                if (p.target() == t) {
                    ordered.add(p);
                }
            }
        }
        return new KernelRules(ordered);
    }

    /** The user's patterns in the order they are tried. */
    public List<UserPattern> userPatterns() {
        return user;
    }

    /** The same rules plus plain substrings (any case) that mean communication. */
    public KernelRules withCommSubstrings(List<String> substrings) {
        List<UserPattern> all = new ArrayList<>(user);
        for (String s : substrings) {
            if (s != null && !s.isBlank()) {
                all.add(new UserPattern(Target.COMM, Pattern.compile(Pattern.quote(s), Pattern.CASE_INSENSITIVE)));
            }
        }
        return withUserPatterns(all);
    }

    /** {@code COMPUTE}, {@code COMM} or {@code FUSED} for a kernel called {@code name} ({@code null}: compute). */
    public DeviceKind kindOfKernel(String name) {
        if (name == null) {
            return DeviceKind.COMPUTE;
        }
        DeviceKind mine = userKind(name);
        if (mine != null) {
            return mine;
        }
        if (COMPUTE_EXCEPTIONS.matcher(name).find()) {
            return DeviceKind.COMPUTE;
        }
        if (FUSED.matcher(name).find()) {
            return DeviceKind.FUSED;
        }
        return isBuiltInComm(name) ? DeviceKind.COMM : DeviceKind.COMPUTE;
    }

    /**
     * For a task its format already calls compute by type (Ascend's AI_CORE, MIX_AIC…): the user's
     * patterns, then the built-in fused names (MC² operators run as compute-type tasks); else
     * compute. The built-in communication names are not applied: the format's task types and
     * communication tables say what communicates.
     */
    public DeviceKind kindOfComputeTask(String name) {
        if (name == null) {
            return DeviceKind.COMPUTE;
        }
        // Ascend captures hold hundreds of thousands of tasks of a few hundred operators: the
        // regular expressions run once per name. Bounded, for traces that name every task apart.
        DeviceKind known = computeTaskKinds.get(name);
        if (known != null) {
            return known;
        }
        DeviceKind kind = classifyComputeTask(name);
        if (computeTaskKinds.size() < MAX_CACHED_NAMES) {
            computeTaskKinds.put(name, kind);
        }
        return kind;
    }

    private DeviceKind classifyComputeTask(String name) {
        DeviceKind mine = userKind(name);
        if (mine != null) {
            return mine;
        }
        return !COMPUTE_EXCEPTIONS.matcher(name).find() && FUSED.matcher(name).find()
                ? DeviceKind.FUSED : DeviceKind.COMPUTE;
    }

    /**
     * True when the built-in rules call {@code name} an expert-parallel all-to-all kernel: its
     * collective is an {@code ALL_TO_ALL} even though the name does not say "alltoall".
     */
    public static boolean isExpertParallelKernel(String name) {
        return name != null && !COMPUTE_EXCEPTIONS.matcher(name).find() && isBuiltInExpertParallel(name);
    }

    private static boolean isBuiltInExpertParallel(String name) {
        return EXPERT_PARALLEL.matcher(name).find() || isPplxExchange(name);
    }

    /** {@code \s} of {@link Pattern}: space, tab, line feed, vertical tab, form feed, carriage return. */
    private static boolean isRegexSpace(char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == 0x0B || c == '\f' || c == '\r';
    }

    /**
     * pplx-kernels' dispatch and combine kernels: {@code pplx::} (at a word start) followed, within
     * the same run of non-blank characters, by {@code dispatch} or {@code combine} (any case). Said
     * by one pass instead of the regular expression {@code \bpplx::\S*?(?:dispatch|combine)},
     * which is quadratic in a name of repeated {@code pplx::} (issue 29: a 193 KB trace took 10 s).
     * The first {@code pplx::} of a run sees the longest rest of it, so only that one is looked
     * after; the search then resumes after the run.
     */
    static boolean isPplxExchange(String name) {
        Matcher m = PPLX.matcher(name);
        int from = 0;
        while (from < name.length() && m.find(from)) {
            int end = m.end();
            int runEnd = end;
            while (runEnd < name.length() && !isRegexSpace(name.charAt(runEnd))) {
                runEnd++;
            }
            String rest = name.substring(end, runEnd).toLowerCase(Locale.ROOT);
            if (rest.contains("dispatch") || rest.contains("combine")) {
                return true;
            }
            from = runEnd;
        }
        return false;
    }

    /** What the user's first matching pattern makes of {@code name}, or {@code null}. */
    private DeviceKind userKind(String name) {
        for (UserPattern p : user) {
            if (p.regex().matcher(name).find()) {
                return p.target().kind();
            }
        }
        return null;
    }

    private static boolean isBuiltInComm(String name) {
        String n = name.toLowerCase(Locale.ROOT);
        for (String p : COMM_SUBSTRINGS) {
            if (n.contains(p)) {
                return true;
            }
        }
        return isBuiltInExpertParallel(name);
    }
}
