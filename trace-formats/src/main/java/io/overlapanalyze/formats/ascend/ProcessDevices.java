package io.overlapanalyze.formats.ascend;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Which device each device-side process of a timeline (Ascend Hardware, HCCL/Communication,
 * Overlap Analysis) belongs to, decided once every process's metadata is known. A file is one
 * rank per device, so a process is put on a device of its own only when the file says so clearly:
 * <ol>
 *   <li>a {@code process_labels} of {@code "NPU <n>"} (msprof files holding several devices);</li>
 *   <li>else a pid that is the encoding {@code (osPid << 10) | (sortIndex << 5) | device} (msprof
 *       {@code GetFormatPid}, torch_npu {@code get_pid_format}, ascend.md §3): an {@code osPid}
 *       above 0, and, when the file gives the process's {@code process_sort_index}, the sort-index
 *       bits equal to it (the shared 2025 captures: {@code 3170820512 = (3096504 << 10) | (13 << 5) | 0}
 *       with sort index 13). Such a pid names device {@code pid & 31}.</li>
 * </ol>
 * Older files number processes otherwise (a 2024 torch_npu timeline: {@code Ascend Hardware} pid
 * 800, {@code Overlap Analysis} pid 4376751100 with sort index 11, i.e. the OS pid and the sort index
 * written one after the other), and {@code pid & 31} of those is noise (0 and 28 there). A process
 * whose pid is not such an encoding names no device: it belongs to the device whose encoding its pid
 * happens to match when the file has that device, else to the file's one device; in a file that
 * clearly names several it goes to the lowest, with a warning. Without any clear device the file is
 * one device, the lowest {@code pid & 31} among its processes (a number nothing else depends on).
 */
final class ProcessDevices {
    private static final Pattern NPU_LABEL = Pattern.compile("^NPU\\s+(\\d+)$");

    private final Map<String, Integer> byPid = new HashMap<>();
    private final List<String> warnings = new ArrayList<>();

    /**
     * @param pids       the device-side processes, by pid text as the file writes it
     * @param name       process name by pid (for warnings)
     * @param label      {@code process_labels} by pid
     * @param sortIndex  {@code process_sort_index} by pid, as text
     */
    ProcessDevices(Collection<String> pids, Map<String, String> name, Map<String, String> label,
                   Map<String, String> sortIndex) {
        Map<String, Integer> clear = new HashMap<>();
        TreeSet<Integer> clearDevices = new TreeSet<>();
        for (String pid : pids) {
            Integer d = clearDevice(pid, label.get(pid), sortIndex.get(pid));
            if (d != null) {
                clear.put(pid, d);
                clearDevices.add(d);
            }
        }
        int lowestGuess = Integer.MAX_VALUE;
        for (String pid : pids) {
            if (!clear.containsKey(pid)) {
                lowestGuess = Math.min(lowestGuess, lowBits(pid));
            }
        }
        for (String pid : pids) {
            Integer d = clear.get(pid);
            if (d == null) {
                int guess = lowBits(pid);
                if (clearDevices.isEmpty()) {
                    d = lowestGuess;
                } else if (clearDevices.contains(guess)) {
                    d = guess;
                } else {
                    d = clearDevices.first();
                    if (clearDevices.size() > 1) {
                        warnings.add("process \"" + name.getOrDefault(pid, "?") + "\" (pid " + pid + ") names no device"
                                + " in a file of devices " + clearDevices + ": read as device " + d);
                    }
                }
            }
            byPid.put(pid, d);
        }
    }

    /** The device of a process given to the constructor. */
    int of(String pid) {
        Integer d = byPid.get(pid);
        return d == null ? 0 : d;
    }

    /** What could not be decided cleanly, one line each. */
    List<String> warnings() {
        return warnings;
    }

    private static Integer clearDevice(String pid, String label, String sortIndex) {
        if (label != null) {
            Matcher m = NPU_LABEL.matcher(label.trim());
            if (m.matches() && m.group(1).length() <= 6) { // "NPU 99999999999" must not overflow
                return Integer.parseInt(m.group(1));
            }
        }
        long p;
        try {
            p = Long.parseLong(pid);
        } catch (NumberFormatException ex) {
            return null;
        }
        if (p >> 10 <= 0) {
            return null; // no OS pid above the sort index and device bits: not the encoding
        }
        if (sortIndex != null) {
            try {
                if (Long.parseLong(sortIndex.trim()) != ((p >> 5) & 0x1F)) {
                    return null; // the file's own sort index contradicts the encoding
                }
            } catch (NumberFormatException ex) {
                return null;
            }
        }
        return (int) (p & 0x1F);
    }

    private static int lowBits(String pid) {
        try {
            return (int) (Long.parseLong(pid) & 0x1F);
        } catch (NumberFormatException ex) {
            return 0;
        }
    }
}
