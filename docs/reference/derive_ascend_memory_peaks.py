#!/usr/bin/env python3
"""Peak allocated device memory per step of torch_npu (Ascend) captures, derived independently of
the Java readers and analyzer (issue 10, "Ascend memory records").

Rules (the same as derive_memory_peaks.py for Kineto, metrics.md §9 "Memory"), exact arithmetic:
  * text export (`*_ascend_pt/ASCEND_PROFILER_OUTPUT/`):
      - steps: events named `ProfilerStep#N` (ph "X") of `trace_view.json`; host span
        [ts, ts + dur) in integer ns (`ts` is a decimal-µs string, `dur` a decimal-µs number; both
        read as Decimal, ns rounded half-up where a value has more than 3 decimals);
      - samples: rows of `memory_record.csv` whose `Component` is `PTA` (torch_npu's caching
        allocator: the counterpart of the CUDA caching allocator that Kineto's `[memory]` reports)
        and whose `Device Type` is `NPU:<n>`; `Timestamp(us)` is a decimal-µs text with a trailing
        tab; `Total Allocated(MB)` is MiB (bytes / 1024²), converted exactly: Decimal × 1048576,
        which is an integer for every row of these captures;
  * DB export (`ascend_pytorch_profiler_<rank>.db`, opened from a temporary copy, read-only):
      - steps: `PYTORCH_API` rows named (via `STRING_IDS`) `ProfilerStep#N`, [startNs, endNs)
        (TEXT ns), else `STEP_TIME`;
      - samples: `MEMORY_RECORD` rows whose `component` is the `STRING_IDS` id of `PTA`;
        `timestamp` ns and `totalAllocated` bytes are integers already;
  * a sample belongs to a step when its time is in the step's host span; the step's peak is the
    largest Total Allocated of its samples.

Usage: derive_ascend_memory_peaks.py CAPTURE_DIR...   (each a `rank<N>_ascend_pt` directory)
"""
import csv
import json
import os
import shutil
import sqlite3
import sys
import tempfile
from decimal import Decimal, ROUND_HALF_UP

MIB = 1024 * 1024


def ns(v):
    return int((Decimal(str(v).strip()) * 1000).quantize(Decimal(1), rounding=ROUND_HALF_UP))


def mib_to_bytes(text):
    b = Decimal(text.strip()) * MIB
    if b != b.to_integral_value():
        raise SystemExit("not a whole number of bytes: %s MB" % text)
    return int(b)


def text_export(out):
    with open(os.path.join(out, "trace_view.json")) as f:
        events = json.load(f, parse_float=Decimal)
    steps = []
    for e in events:
        name = str(e.get("name") or "")
        if e.get("ph") == "X" and name.startswith("ProfilerStep#"):
            start = ns(e["ts"])
            steps.append((start, start + ns(e["dur"]), name))
    samples = []
    components = {}
    with open(os.path.join(out, "memory_record.csv"), newline="") as f:
        for row in csv.DictReader(f):
            comp = row["Component"].strip()
            components[comp] = components.get(comp, 0) + 1
            if comp == "PTA" and row["Device Type"].strip().startswith("NPU:") and row["Total Allocated(MB)"].strip():
                samples.append((ns(row["Timestamp(us)"]), mib_to_bytes(row["Total Allocated(MB)"])))
    return sorted(steps), samples, components


def db_export(out):
    dbs = [n for n in os.listdir(out) if n.startswith("ascend_pytorch_profiler") and n.endswith(".db")]
    with tempfile.TemporaryDirectory() as tmp:
        copy = os.path.join(tmp, "copy.db")
        shutil.copyfile(os.path.join(out, sorted(dbs)[-1]), copy)
        c = sqlite3.connect("file:%s?mode=ro" % copy, uri=True)
        strings = dict(c.execute("SELECT id, value FROM STRING_IDS"))
        steps = [(int(s), int(e), strings[n]) for s, e, n in c.execute("SELECT startNs, endNs, name FROM PYTORCH_API")
                 if strings.get(n, "").startswith("ProfilerStep#")]
        if not steps:
            steps = [(s, e, "ProfilerStep#%d" % i) for i, s, e in c.execute("SELECT id, startNs, endNs FROM STEP_TIME")]
        components = {}
        samples = []
        for comp, t, alloc in c.execute("SELECT component, timestamp, totalAllocated FROM MEMORY_RECORD"):
            name = strings.get(comp, str(comp))
            components[name] = components.get(name, 0) + 1
            if name == "PTA" and alloc is not None:
                samples.append((int(t), int(alloc)))
        c.close()
    return sorted(steps), samples, components


def main(dirs):
    rows = []
    for d in dirs:
        out = os.path.join(d, "ASCEND_PROFILER_OUTPUT")
        if os.path.isfile(os.path.join(out, "memory_record.csv")):
            rows.append(("text", d) + text_export(out))
        else:
            rows.append(("db", d) + db_export(out))
    print("| export | capture | components (rows) | PTA samples | step | host span start (ns) | end (ns) "
          "| PTA samples in step | peak allocated (bytes) |")
    print("|---|---|---|---|---|---|---|---|---|")
    for kind, d, steps, samples, components in rows:
        comps = ", ".join("%s %d" % kv for kv in sorted(components.items()))
        for start, end, name in steps:
            inside = [v for t, v in samples if start <= t < end]
            print("| %s | %s | %s | %d | %s | %d | %d | %d | %s |" % (
                kind, capture(d), comps, len(samples), name, start, end, len(inside),
                max(inside) if inside else "none"))
    # A steady-state step peaks at the same value in every capture, so also the peak over the first
    # 20 ms of each step's host span, where the captures differ (same rules).
    print()
    print("| export | capture | step | PTA samples in [start, start + 20 ms) | peak allocated (bytes) |")
    print("|---|---|---|---|---|")
    for kind, d, steps, samples, components in rows:
        for start, end, name in steps:
            inside = [v for t, v in samples if start <= t < min(end, start + 20_000_000)]
            print("| %s | %s | %s | %d | %s |" % (kind, capture(d), name, len(inside),
                                                 max(inside) if inside else "none"))


def capture(d):
    parts = os.path.normpath(d).split(os.sep)
    return "/".join(parts[-2:])


if __name__ == "__main__":
    main(sys.argv[1:])
