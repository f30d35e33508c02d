#!/usr/bin/env python3
"""Independent derivation of the metrics.md §4/§6 markers, tail and attribution for the real
ResNet DDP trace `hta_nccl_data_resnet_ddp_rank0of2_a100.json.gz` (rank 0 of 2).

This is a second, deliberately simple implementation of the contract in Python with exact
decimal arithmetic (no floats), written from metrics.md and the raw JSON, sharing no code with
the Java analyzer. Its output is recorded in nccl_data_markers.md and is what the Java test
`NcclDataMarkersTest` checks against. Run:

    python3 docs/reference/derive_nccl_data_markers.py ../shared/traces/kineto/hta_nccl_data_resnet_ddp_rank0of2_a100.json.gz
"""
import gzip
import json
import sys
from decimal import Decimal


def ns(us):
    """Decimal microseconds with up to 3 decimals -> integer nanoseconds (exact)."""
    v = Decimal(us) * 1000
    assert v == v.to_integral_value(), us
    return int(v)


def main(path):
    with gzip.open(path) as f:
        d = json.load(f, parse_float=Decimal)
    base = int(d.get("baseTimeNanoseconds", 0))
    ev = d["traceEvents"]

    autograd_tids = {e["tid"] for e in ev if e.get("ph") == "M" and e.get("name") == "thread_name"
                     and "pt_autograd" in e["args"]["name"]}
    steps = sorted((e for e in ev if e.get("cat") == "user_annotation" and e["name"].startswith("ProfilerStep#")),
                   key=lambda e: e["ts"])
    optim = [e for e in ev if e.get("cat") == "user_annotation" and e["name"].startswith("Optimizer.step#")]
    backward_ops = [e for e in ev if e.get("cat") == "cpu_op"
                    and (e["name"].startswith("autograd::engine::evaluate_function") or "Backward" in e["name"])]
    runtime = {e["args"]["correlation"]: e for e in ev if e.get("cat") == "cuda_runtime" and "args" in e
               and "correlation" in e["args"]}
    device = [e for e in ev if e.get("cat") in ("kernel", "gpu_memcpy", "gpu_memset")]
    c10d = [e for e in ev if e.get("cat") == "cpu_op" and e["name"].startswith("c10d::")]
    rpc = {e["args"]["External id"]: e for e in ev if e.get("name") == "record_param_comms"}

    def t0(e):
        return base + ns(e["ts"])

    def t1(e):
        return base + ns(e["ts"]) + ns(e["dur"])

    def inside(t, e):
        return t0(e) <= t < t1(e)

    # Device intervals with launch time, thread, phase, kind, collective.
    items = []
    for e in device:
        r = runtime.get(e["args"].get("correlation"))
        launch = t0(r) if r else None
        tid = r["tid"] if r else None
        cat = e["cat"]
        kind = "MEM" if cat != "kernel" else ("COMM" if "nccl" in e["name"].lower() else "COMPUTE")
        phase = "FORWARD"
        if launch is not None and any(inside(launch, o) for o in optim):
            phase = "OPTIMIZER"
        elif tid in autograd_tids or (launch is not None and any(o["tid"] == tid and inside(launch, o)
                                                                  for o in backward_ops)):
            phase = "BACKWARD"
        items.append(dict(start=t0(e), end=t1(e), launch=launch, kind=kind, phase=phase,
                          lane=e["args"].get("stream"), ext=e["args"].get("External id"), name=e["name"]))

    for s in steps:
        work = [i for i in items if i["launch"] is not None and inside(i["launch"], s)]
        comm = sorted((i for i in work if i["kind"] == "COMM"), key=lambda i: i["start"])
        compute = [i for i in work if i["kind"] == "COMPUTE"]
        start = min(i["start"] for i in work)
        # G: all-reduces enqueued in BACKWARD (issued from the autograd thread).
        grads = []
        for k in comm:
            op = rpc[k["ext"]]
            coll = op["args"].get("Collective name")
            if coll != "allreduce" or op["tid"] not in autograd_tids:
                continue
            outer = [c for c in c10d if c["tid"] == op["tid"] and t0(c) <= t0(op) and t1(op) <= t1(c)]
            enqueue = min(t0(c) for c in outer) if outer else t0(op)
            grads.append(dict(k, enqueue=enqueue, nelems=op["args"]["In msg nelems"]))
        g1 = min(grads, key=lambda g: g["start"])
        gl = max(grads, key=lambda g: g["end"])

        def ready(g):
            return max(c["end"] for c in compute if c["launch"] < g["enqueue"])

        fbr = ready(g1)
        lre = gl["end"]
        lce = max(c["end"] for c in compute if c["phase"] == "BACKWARD" and c["start"] < lre)
        tail = max(0, lre - lce)

        # Attribution (metrics.md §6).
        chain = []
        g = gl
        while True:
            s0 = g["start"]
            eps = max(2000, (g["end"] - g["start"]) * 5 // 1000)
            prev = [c for c in comm if c["lane"] == g["lane"] and c["end"] <= s0 and c is not g]
            queue = max((c["end"] for c in prev), default=None)
            cands = {"DATA": ready(g), "LAUNCH": g["enqueue"], "QUEUE": queue}
            within = {k: v for k, v in cands.items() if v is not None and abs(v - s0) <= eps}
            bound = max(within, key=lambda k: within[k]) if within else "UNEXPLAINED"
            chain.append((g["nelems"], s0 - start, g["end"] - start, bound,
                          {k: (None if v is None else v - start) for k, v in cands.items()}))
            if bound != "QUEUE":
                break
            g = max(prev, key=lambda c: c["end"])
            g = next((x for x in grads if x["start"] == g["start"]), None) or dict(g, enqueue=None)
            if g.get("enqueue") is None:
                break

        print(f"{s['name']}: deviceStart={start} G={len(grads)}")
        print(f"  firstBucketReady=+{fbr - start} reduceStart=+{g1['start'] - start} "
              f"lastComputeEnd=+{lce - start} lastReduceEnd=+{lre - start}")
        print(f"  tail={tail} startDelay={g1['start'] - fbr} launchLate={max(0, g1['enqueue'] - fbr)} "
              f"lastBucketTail={lre - ready(gl)}")
        for link in chain:
            print(f"  chain: nelems={link[0]} start=+{link[1]} end=+{link[2]} bound={link[3]} cands={link[4]}")


if __name__ == "__main__":
    main(sys.argv[1])
