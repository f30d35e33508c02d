"""Kineto traces of pathological shapes, for bench/scaling.sh: each shape at N and 2N shows whether
the tool's cost grows with the input or faster (bounded time and memory on any input).

Usage: kineto_shapes.py SHAPE N OUT.json

Shapes (N is the count of the thing named):
  flat         N kernels, each launched by an op, one step, a collective every 10th
  deep         N host ops each enclosing the next (nesting depth N)
  enclose      one long span and one long nccl:* label enclosing N short ones, launches after them
  overlap_ann  N user annotations that all overlap (each over nearly the whole step)
  names        N distinct kernel names
  streams      N streams, a kernel each
  threads      N host threads, an op and a launch each
  groups       N collectives, each in a process group of its own
  memcpy       N copies with stream waits, kernels on three streams
  steps        N steps (ProfilerStep#i), a kernel each, a collective every 4th
  samesteps    N steps all named ProfilerStep#1
  dupcorr      N kernels sharing one correlation id
  dupext       N ops, launches and kernels sharing one External id
  collnokernel N collectives (c10d op + record_param_comms) of which a tenth reach the device
  memory       N allocator events
"""
import json, sys
shape, n, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
T0 = 4458677000000.0
ev = []
PID, HT, AT = 4242, 4242, 4290
ext = [0]
corr = [1000]
def X(cat, name, pid, tid, ts, dur, **args):
    ext[0] += 1
    a = {"External id": ext[0]}; a.update(args)
    ev.append({"ph": "X", "cat": cat, "name": name, "pid": pid, "tid": tid, "ts": round(ts, 3), "dur": round(dur, 3), "args": a})
def launch(tid, ts, kname, kts, kdur, stream=7, kargs=None, ext_of=None):
    corr[0] += 1; c = corr[0]
    X("cuda_runtime", "cudaLaunchKernel", PID, tid, ts, 1.0, cbid=211, correlation=c)
    a = {"queued": 0, "device": 0, "context": 1, "stream": stream, "correlation": c, "grid": [8, 1, 1], "block": [128, 1, 1]}
    if kargs: a.update(kargs)
    X("kernel", kname, 0, stream, kts, kdur, **a)
    ev.append({"ph": "s", "cat": "ac2g", "name": "ac2g", "pid": PID, "tid": tid, "ts": round(ts, 3), "id": c})
    ev.append({"ph": "f", "cat": "ac2g", "name": "ac2g", "pid": 0, "tid": stream, "ts": round(kts, 3), "id": c, "bp": "e"})
GEMM = "void cutlass::Kernel2<gemm>(Params)"
NCCL = "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)"
def coll(tid, ts, kts, pg="0", ranks="[0, 1]", size=2):
    comm = {"Collective name": "allreduce", "In msg nelems": 65536, "Out msg nelems": 65536, "Group size": size, "dtype": "Float",
            "In split size": "[]", "Out split size": "[]", "Process Group Name": pg, "Process Group Description": "pg" + pg, "Process Group Ranks": ranks}
    X("cpu_op", "c10d::allreduce_", PID, tid, ts, 6)
    X("cpu_op", "record_param_comms", PID, tid, ts + 1, 4, **comm)
    X("user_annotation", "nccl:all_reduce", PID, tid, ts + 2, 2)
    launch(tid, ts + 3, NCCL, kts, 5.0, stream=20, kargs=comm)

step_len = n * 20.0 + 1000
if shape == "steps":
    for i in range(n):
        s = T0 + i * 100.0
        X("user_annotation", "ProfilerStep#%d" % i, PID, HT, s, 90)
        launch(HT, s + 5, GEMM, s + 10, 20)
        if i % 4 == 0: coll(HT, s + 20, s + 40)
else:
    X("user_annotation", "ProfilerStep#1", PID, HT, T0, step_len)
    if shape == "flat":
        for i in range(n):
            s = T0 + 10 + i * 20.0
            X("cpu_op", "aten::mm", PID, AT, s, 3)
            launch(AT, s + 1, GEMM, s + 5, 12)
            if i % 10 == 0: coll(AT, s + 8, s + 18)
    elif shape == "deep":
        # each op encloses the next: depth n
        for i in range(n):
            X("cpu_op", "aten::op%d" % (i % 7), PID, AT, T0 + 10 + i * 0.001, step_len - 20 - i * 0.002)
        for i in range(n // 10):
            s = T0 + 10 + n * 0.001 + 1 + i * 100.0
            launch(AT, s, GEMM, s + 5, 12)
            coll(AT, s + 10, s + 50)
    elif shape == "enclose":
        X("user_annotation", "nccl:all_reduce", PID, AT, T0 + 5, step_len - 10)
        X("cpu_op", "c10d::allreduce_", PID, AT, T0 + 5, step_len - 10)
        for i in range(n):
            X("cpu_op", "aten::add", PID, AT, T0 + 10 + i * 10.0, 2)
            X("user_annotation", "nccl:all_reduce", PID, AT, T0 + 13 + i * 10.0, 1)
        for i in range(n // 2):
            s = T0 + 10 + n * 10.0 + i * 10.0
            launch(AT, s, NCCL, s + 5, 5, stream=20, kargs={"Collective name": "allreduce", "In msg nelems": 65536, "Out msg nelems": 65536, "Group size": 2, "dtype": "Float", "Process Group Name": "0", "Process Group Ranks": "[0, 1]"})
    elif shape == "overlap_ann":
        for i in range(n):
            X("user_annotation", "ann%d" % i, PID, AT, T0 + 10 + i * 0.01, step_len - 20 - i * 0.01 * (i % 3))
        for i in range(n // 10):
            s = T0 + 20 + i * 10.0
            launch(AT, s, GEMM, s + 5, 4)
            coll(AT, s + 6, s + 9)
    elif shape == "names":
        for i in range(n):
            s = T0 + 10 + i * 20.0
            launch(AT, s, "kernel_%d_%s" % (i, "x" * 40), s + 5, 12)
            if i % 10 == 0: coll(AT, s + 8, s + 18)
    elif shape == "streams":
        for i in range(n):
            s = T0 + 10 + i * 20.0
            launch(AT, s, GEMM, s + 5, 12, stream=100 + i)
            if i % 10 == 0: coll(AT, s + 8, s + 18)
    elif shape == "threads":
        for i in range(n):
            s = T0 + 10 + i * 20.0
            X("cpu_op", "aten::mm", PID, 10000 + i, s, 3)
            launch(10000 + i, s + 1, GEMM, s + 5, 12)
            if i % 10 == 0: coll(10000 + i, s + 8, s + 18)
    elif shape == "groups":
        for i in range(n):
            s = T0 + 10 + i * 20.0
            launch(AT, s, GEMM, s + 5, 12)
            coll(AT, s + 8, s + 18, pg=str(i + 1), ranks="[0, %d]" % (i + 1), size=2)
    elif shape == "memcpy":
        for i in range(n):
            s = T0 + 10 + i * 20.0
            corr[0] += 1; c = corr[0]
            X("cuda_runtime", "cudaMemcpyAsync", PID, AT, s, 1, cbid=41, correlation=c)
            X("gpu_memcpy", "Memcpy HtoD (Pageable -> Device)", 0, 7, s + 2, 3, device=0, context=1, stream=7, correlation=c, bytes=4096)
            X("cuda_runtime", "cudaStreamWaitEvent", PID, AT, s + 4, 1, cbid=147, correlation=c + 100000000, wait_on_stream=7, wait_on_cuda_event_record_corr_id=c)
            launch(AT, s + 6, GEMM, s + 8, 10, stream=20 + (i % 3))
            if i % 10 == 0: coll(AT, s + 12, s + 19)
    elif shape == "dupcorr":
        for i in range(n):
            s = T0 + 10 + i * 20.0
            X("cuda_runtime", "cudaLaunchKernel", PID, AT, s, 1.0, cbid=211, correlation=777)
            X("kernel", GEMM, 0, 7, s + 5, 12, queued=0, device=0, context=1, stream=7, correlation=777)
            ev.append({"ph": "s", "cat": "ac2g", "name": "ac2g", "pid": PID, "tid": AT, "ts": round(s, 3), "id": 777})
            ev.append({"ph": "f", "cat": "ac2g", "name": "ac2g", "pid": 0, "tid": 7, "ts": round(s + 5, 3), "id": 777, "bp": "e"})
            if i % 10 == 0: coll(AT, s + 8, s + 18)
    elif shape == "dupext":
        for i in range(n):
            s = T0 + 10 + i * 20.0
            ev.append({"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": PID, "tid": AT, "ts": s, "dur": 3, "args": {"External id": 5}})
            corr[0] += 1; c = corr[0]
            ev.append({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": PID, "tid": AT, "ts": s + 1, "dur": 1, "args": {"External id": 5, "correlation": c}})
            ev.append({"ph": "X", "cat": "kernel", "name": NCCL, "pid": 0, "tid": 20, "ts": s + 5, "dur": 5, "args": {"External id": 5, "device": 0, "stream": 20, "correlation": c}})
            if i % 10 == 0: coll(AT, s + 8, s + 18)
    elif shape == "collnokernel":
        for i in range(n):
            s = T0 + 10 + i * 20.0
            comm = {"Collective name": "allreduce", "In msg nelems": 65536, "Out msg nelems": 65536, "Group size": 2, "dtype": "Float", "Process Group Name": "0", "Process Group Ranks": "[0, 1]"}
            X("cpu_op", "c10d::allreduce_", PID, AT, s, 6)
            X("cpu_op", "record_param_comms", PID, AT, s + 1, 4, **comm)
        for i in range(n // 10):
            s = T0 + 10 + i * 200.0
            launch(AT, s + 3, NCCL, s + 10, 5, stream=20)
    elif shape == "memory":
        for i in range(n):
            s = T0 + 10 + i * 20.0
            ev.append({"ph": "i", "cat": "cpu_instant_event", "name": "[memory]", "pid": PID, "tid": AT, "ts": s, "s": "t", "args": {"Total Reserved": 1000 + i, "Total Allocated": 500 + i, "Bytes": 64, "Device Id": 0, "Device Type": 1, "Addr": 1000 + i}})
            if i % 10 == 0:
                launch(AT, s + 1, GEMM, s + 5, 12)
                coll(AT, s + 8, s + 18)
    elif shape == "samesteps":
        ev.pop()
        for i in range(n):
            s = T0 + i * 100.0
            X("user_annotation", "ProfilerStep#1", PID, HT, s, 90)
            launch(HT, s + 5, GEMM, s + 10, 20)
            if i % 4 == 0: coll(HT, s + 20, s + 40)
    else:
        sys.exit("unknown shape " + shape)
doc = {"schemaVersion": 1, "distributedInfo": {"backend": "nccl", "rank": 0, "world_size": 2},
       "deviceProperties": [{"id": 0, "name": "NVIDIA A100-SXM4-80GB", "numSms": 108}], "traceEvents": ev}
json.dump(doc, open(out, "w"))
