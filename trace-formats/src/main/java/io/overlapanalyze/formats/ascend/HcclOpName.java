package io.overlapanalyze.formats.ascend;

import io.overlapanalyze.model.CollectiveType;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The device name of an HCCL collective, {@code hcom_<op>__<g3>_<seq>_<n>} (ascend.md §4): the same
 * on every rank of the group, so it is the cross-rank key. {@code <g3>} is the last 3 digits of the
 * group hash, {@code <seq>} the per-group sequence number; {@code <n>} is not understood and kept
 * only as text. Older CANN writes two fields ({@code hcom_broadcast__483_0}); AICPU variants put a
 * kernel suffix after the op ({@code hcom_reduceScatter_AicpuKernel_503_490_1}).
 *
 * @param op       the op as written ({@code allReduce})
 * @param type     its collective type
 * @param groupTag {@code <g3>}
 * @param sequence {@code <seq>}
 */
public record HcclOpName(String op, CollectiveType type, String groupTag, long sequence) {
    private static final Pattern NAME =
            Pattern.compile("^hcom_([A-Za-z0-9]+?)(_[A-Za-z]+Kernel)?__?(\\d++)_(\\d++)(?:_(\\d++))?$");

    /** Parses {@code name}; {@code null} when it is not an hcom op name. */
    public static HcclOpName parse(String name) {
        if (name == null) {
            return null;
        }
        Matcher m = NAME.matcher(name);
        if (!m.matches()) {
            return null;
        }
        try {
            return new HcclOpName(m.group(1), typeOf(m.group(1)), m.group(3), Long.parseLong(m.group(4)));
        } catch (NumberFormatException e) {
            return null; // a sequence beyond long: not a name we understand
        }
    }

    /** HCCL op names ({@code receive}, {@code batchSendRecv}) that the generic rule would misread. */
    static CollectiveType typeOf(String op) {
        String o = op.toLowerCase(Locale.ROOT);
        return switch (o) {
            case "send" -> CollectiveType.SEND;
            case "receive", "recv" -> CollectiveType.RECV;
            case "batchsendrecv" -> CollectiveType.UNKNOWN;
            case "alltoallv", "alltoallvc", "alltoall" -> CollectiveType.ALL_TO_ALL;
            default -> CollectiveType.fromName(op);
        };
    }
}
