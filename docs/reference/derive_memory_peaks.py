#!/usr/bin/env python3
"""Peak allocated device memory per step of a Kineto trace, derived independently of the Java
reader and analyzer (issue 10, acceptance 3).

Rules (kineto.md §3.3, metrics.md §9 "Memory"), exact integers only:
  * steps: `user_annotation` / `cpu_op` events named `ProfilerStep#N` (ph "X"), host span
    [ts, ts + dur) in integer nanoseconds;
  * samples: `ph: "i"` events named `[memory]` with args "Device Type" == 1 (CUDA) and the rank's
    GPU as "Device Id" (the device that ran the kernels: the pid of the `kernel` events);
  * a sample belongs to a step when ts_ns is in [step start, step end);
  * peak of a step = max "Total Allocated" of its samples.
Times: `ts`/`dur` are decimal microseconds; they are converted with Decimal (never float) to ns.

Usage: derive_memory_peaks.py TRACE.json[.gz]
"""
import gzip
import json
import sys
from decimal import Decimal


def ns(v):
    return int(Decimal(str(v)) * 1000)


def main(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        doc = json.load(f, parse_float=Decimal)
    events = doc["traceEvents"]
    base = int(doc.get("baseTimeNanoseconds") or 0)
    kernel_pids = sorted({e["pid"] for e in events if e.get("ph") == "X" and e.get("cat") == "kernel"})
    steps = []
    for e in events:
        name = e.get("name") or ""
        if e.get("ph") == "X" and name.startswith("ProfilerStep#"):
            start = ns(e["ts"]) + base
            steps.append((start, start + ns(e["dur"]), name))
    steps.sort()
    samples = []
    for e in events:
        if e.get("ph") != "i" or e.get("name") != "[memory]":
            continue
        a = e.get("args") or {}
        if a.get("Device Type") == 1 and a.get("Device Id") in kernel_pids:
            samples.append((ns(e["ts"]) + base, int(a["Total Allocated"])))
    print("kernel device(s): %s; CUDA [memory] samples of it: %d" % (kernel_pids, len(samples)))
    print()
    print("| step | host span start (ns) | end (ns) | samples | peak allocated (bytes) |")
    print("|---|---|---|---|---|")
    for start, end, name in steps:
        inside = [v for t, v in samples if start <= t < end]
        peak = max(inside) if inside else None
        print("| %s | %d | %d | %d | %s |" % (name, start, end, len(inside), peak if peak is not None else "none"))
    # A finer check than whole steps (whose peaks are all equal in a steady-state loop): the peak
    # in the first 100 ms of each step's host span, same rules.
    print()
    print("| step | samples in [start, start + 100 ms) | peak allocated (bytes) |")
    print("|---|---|---|")
    for start, end, name in steps:
        inside = [v for t, v in samples if start <= t < min(end, start + 100_000_000)]
        print("| %s | %d | %s |" % (name, len(inside), max(inside) if inside else "none"))


if __name__ == "__main__":
    main(sys.argv[1])
