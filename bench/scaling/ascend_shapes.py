"""Ascend (torch_npu text export) timelines of pathological shapes, for bench/scaling.sh: each shape at N
and 2N shows whether the Ascend reader's cost grows with the input or faster (bounded time and memory on
any input). Writes OUT_DIR (name it *_ascend_pt) holding profiler_info_0.json and
ASCEND_PROFILER_OUTPUT/trace_view.json, the layout of `synth ... --format ascend` (ascend.md §2).

Usage: ascend_shapes.py SHAPE N OUT_DIR

Shapes (N is the count of the thing named):
  flat      N kernels, each launched under a host op, one step, an HCCL all-reduce every 10th
  steps     N steps (ProfilerStep#i), a kernel each, an all-reduce every 4th
  hccl      N HCCL all-reduces (c10d op, Hccl launch, hcom_ op and its Memcpy task)
  overlap   N host ops that all overlap (each over nearly the whole step), launches inside them
  names     N distinct op (kernel) names
  streams   N device streams, a kernel each
"""
import json, os, shutil, sys

shape, n, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
HOST, DEV, HCCL = 3096504, 3170820512, 3170820576   # pids: Python, "Ascend Hardware", "HCCL"
HT, AT = 3096504, 3105075                            # main thread (steps), op thread (launches)
T0 = 1716423323000000 * 1000                         # ns; written as µs strings like torch_npu
ev = []
flow = [0]
streams = set()
GEMM = "MatMulV2"

def us(t):
    return "%d.%03d" % (t // 1000, t % 1000)

def X(name, pid, tid, ts, dur, cat=None, args=None):
    e = {"name": name, "pid": pid, "tid": tid, "ts": us(ts), "dur": dur / 1000.0, "ph": "X"}
    if cat:
        e["cat"] = cat
    if args:
        e["args"] = args
    ev.append(e)

def link(host_ts, dev_pid, dev_tid, dev_ts):
    flow[0] += 1
    ev.append({"name": "torch_to_npu", "pid": HOST, "tid": AT, "ts": us(host_ts), "cat": "async_npu", "id": flow[0], "bp": "e", "ph": "s"})
    ev.append({"name": "torch_to_npu", "pid": dev_pid, "tid": dev_tid, "ts": us(dev_ts), "cat": "async_npu", "id": flow[0], "bp": "e", "ph": "f"})

def launch(ts, kname, kts, kdur, stream=2):
    streams.add(stream)
    X(kname, DEV, stream, kts, kdur, args={"Model Id": 4294967295, "Task Type": "AI_CORE", "Physic Stream Id": stream, "Task Id": 1, "Batch Id": 0})
    link(ts, DEV, stream, kts)

hcom = [0]
def allreduce(ts, kts):
    hcom[0] += 1
    X("c10d::allreduce_", HOST, AT, ts, 6000, cat="cpu_op")
    X("HcclAllreduce", HOST, AT, ts + 2000, 1000, cat="cpu_op")
    X("hcom_allReduce__586_%d_1" % hcom[0], HCCL, 0, kts, 5000,
      args={"connection_id": hcom[0], "model id": 4294967295, "data_type": "FP32", "alg_type": "MESH-RING", "count": 65536})
    X("Memcpy", HCCL, 1, kts, 5000, args={"stream id": 4, "task type": "Memcpy", "transport type": "SDMA"})
    link(ts + 2000, HCCL, 0, kts)

step_len = n * 20_000 + 1_000_000
if shape == "steps":
    for i in range(n):
        s = T0 + i * 100_000
        X("ProfilerStep#%d" % i, HOST, HT, s, 90_000, cat="cpu_op")
        X("aten::mm", HOST, AT, s + 4000, 3000, cat="cpu_op")
        launch(s + 5000, GEMM, s + 10_000, 20_000)
        if i % 4 == 0:
            allreduce(s + 20_000, s + 40_000)
else:
    X("ProfilerStep#1", HOST, HT, T0, step_len, cat="cpu_op")
    if shape == "flat":
        for i in range(n):
            s = T0 + 10_000 + i * 20_000
            X("aten::mm", HOST, AT, s, 3000, cat="cpu_op")
            launch(s + 1000, GEMM, s + 5000, 12_000)
            if i % 10 == 0:
                allreduce(s + 8000, s + 18_000)
    elif shape == "hccl":
        for i in range(n):
            s = T0 + 10_000 + i * 20_000
            allreduce(s, s + 8000)
    elif shape == "overlap":
        for i in range(n):
            X("op%d" % i, HOST, AT, T0 + 10_000 + i * 10, step_len - 20_000 - 10 * i * (i % 3), cat="cpu_op")
        for i in range(n // 10):
            s = T0 + 20_000 + n * 10 + i * 100_000
            launch(s, GEMM, s + 5000, 4000)
            allreduce(s + 6000, s + 9000)
    elif shape == "names":
        for i in range(n):
            s = T0 + 10_000 + i * 20_000
            X("aten::mm", HOST, AT, s, 3000, cat="cpu_op")
            launch(s + 1000, "Op_%d_%s" % (i, "x" * 40), s + 5000, 12_000)
            if i % 10 == 0:
                allreduce(s + 8000, s + 18_000)
    elif shape == "streams":
        for i in range(n):
            s = T0 + 10_000 + i * 20_000
            X("aten::mm", HOST, AT, s, 3000, cat="cpu_op")
            launch(s + 1000, GEMM, s + 5000, 12_000, stream=100 + i)
            if i % 10 == 0:
                allreduce(s + 8000, s + 18_000)
    else:
        sys.exit("unknown shape " + shape)

meta = [
    {"ph": "M", "name": "process_name", "pid": HOST, "tid": 0, "args": {"name": "Python"}},
    {"ph": "M", "name": "process_labels", "pid": HOST, "tid": 0, "args": {"labels": "CPU"}},
    {"ph": "M", "name": "thread_name", "pid": HOST, "tid": HT, "args": {"name": "Thread %d" % HT}},
    {"ph": "M", "name": "thread_name", "pid": HOST, "tid": AT, "args": {"name": "Thread %d" % AT}},
    {"ph": "M", "name": "process_name", "pid": DEV, "tid": 0, "args": {"name": "Ascend Hardware"}},
    {"ph": "M", "name": "process_labels", "pid": DEV, "tid": 0, "args": {"labels": "NPU"}},
    {"ph": "M", "name": "process_name", "pid": HCCL, "tid": 0, "args": {"name": "HCCL"}},
    {"ph": "M", "name": "process_labels", "pid": HCCL, "tid": 0, "args": {"labels": "NPU"}},
    {"ph": "M", "name": "thread_name", "pid": HCCL, "tid": 0, "args": {"name": "Group 0 Communication"}},
    {"ph": "M", "name": "thread_name", "pid": HCCL, "tid": 1, "args": {"name": "Plane 0"}},
]
meta += [{"ph": "M", "name": "thread_name", "pid": DEV, "tid": s, "args": {"name": "Stream %d" % s}} for s in sorted(streams)]
if os.path.exists(out):
    shutil.rmtree(out)
os.makedirs(os.path.join(out, "ASCEND_PROFILER_OUTPUT"))
with open(os.path.join(out, "profiler_info_0.json"), "w") as f:
    json.dump({"config": {"experimental_config": {"_profiler_level": "Level1", "_export_type": "text"}}, "rank_id": 0}, f)
with open(os.path.join(out, "ASCEND_PROFILER_OUTPUT", "trace_view.json"), "w") as f:
    json.dump(meta + ev, f)
