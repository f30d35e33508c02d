"""Nsight Systems SQLite exports of pathological shapes, for bench/scaling.sh: each shape at N and 2N
shows whether the Nsight reader's cost grows with the input or faster (bounded time and memory on any
input). Minimal exports: only the tables and columns the reader uses (nsys.md §3; the schema copied
from `synth ... -o x.sqlite`), one process, one GPU.

Usage: nsys_shapes.py SHAPE N OUT.sqlite

Shapes (N is the count of the thing named):
  flat      N kernels, each launched under an NVTX op range, one step, a collective every 10th
  deep      N NVTX ranges each enclosing the next on one thread (nesting depth N), launches inside
  overlap   N NVTX ranges that all overlap (each over nearly the whole step), launches inside
  enclose   one c10d:: range and one nccl: range enclosing N short ones, NCCL launches after them
  names     N distinct kernel names (N StringIds)
  streams   N streams, a kernel each
  threads   N threads, an NVTX range and a launch each
  steps     N steps (NVTX ProfilerStep#i), a kernel each, a collective every 4th
  nccl      N NCCL kernels, each under c10d::/nccl: ranges and an NCCL-domain API range
  shuffled  the flat shape with the rows of every table in random order
"""
import os, random, sqlite3, sys

shape, n, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
PID = 4242
GPID = (1 << 48) | (PID << 24)          # globalPid: HW 0, VM 1, PID, TID 0 (nsys.md §4)
def gtid(tid): return GPID | tid
HT, AT = gtid(4242), gtid(4290)         # main thread (steps) and autograd thread (ops, launches)
T0 = 1_000_000                          # ns from the start of the capture

strings = {}
def sid(s):
    if s not in strings:
        strings[s] = len(strings) + 1
    return strings[s]

kernels, runtime, nvtx = [], [], []
corr = [1000]
LAUNCH = sid("cudaLaunchKernel_v7000")
LAUNCH_EX = sid("cuLaunchKernelEx")
GEMM = "void cutlass::Kernel2<cutlass_80_tensorop_s1688gemm_128x128_32x3_tn_align4>(Params)"
NCCL = "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)"

def rng(tid, s, e, text, domain=0, text_id=None):
    # eventType 59: push/pop range
    nvtx.append((s, e, 59, text, tid, text_id, domain))

def launch(tid, ts, kname, kts, kdur, stream=7, api=LAUNCH):
    corr[0] += 1
    c = corr[0]
    runtime.append((ts, ts + 1000, 0, tid, c, api))
    kernels.append((kts, kts + kdur, 0, 1, stream, c, GPID, sid(kname), sid(kname.split("(")[0])))

def coll(tid, ts, kts):
    # what PyTorch (emit_nvtx) and NCCL (NCCL domain, id 1) put around an all-reduce
    rng(tid, ts, ts + 6000, "c10d::allreduce_")
    rng(tid, ts + 1000, ts + 5000, "record_param_comms")
    rng(tid, ts + 2000, ts + 4000, "nccl:all_reduce")
    rng(tid, ts + 2500, ts + 3500, None, domain=1, text_id=sid("ncclAllReduce"))
    launch(tid, ts + 3000, NCCL, kts, 5000, stream=20, api=LAUNCH_EX)

# NCCL's domain create row
nvtx.append((-500_000, None, 75, "NCCL", HT, None, 1))
step_len = n * 20_000 + 1_000_000
if shape == "steps":
    for i in range(n):
        s = T0 + i * 100_000
        rng(HT, s, s + 90_000, "ProfilerStep#%d" % i)
        launch(HT, s + 5000, GEMM, s + 10_000, 20_000)
        if i % 4 == 0:
            coll(HT, s + 20_000, s + 40_000)
else:
    rng(HT, T0, T0 + step_len, "ProfilerStep#1")
    if shape in ("flat", "shuffled"):
        for i in range(n):
            s = T0 + 10_000 + i * 20_000
            rng(AT, s, s + 3000, "aten::mm")
            launch(AT, s + 1000, GEMM, s + 5000, 12_000)
            if i % 10 == 0:
                coll(AT, s + 8000, s + 18_000)
    elif shape == "deep":
        for i in range(n):
            rng(AT, T0 + 10_000 + i, T0 + step_len - 20_000 - 2 * i, "aten::op%d" % (i % 7))
        for i in range(n // 10):
            s = T0 + 10_000 + n + 1000 + i * 100_000
            launch(AT, s, GEMM, s + 5000, 12_000)
            coll(AT, s + 10_000, s + 50_000)
    elif shape == "overlap":
        for i in range(n):
            rng(AT, T0 + 10_000 + i * 10, T0 + step_len - 20_000 - 10 * i * (i % 3), "range%d" % i)
        for i in range(n // 10):
            s = T0 + 20_000 + n * 10 + i * 100_000
            launch(AT, s, GEMM, s + 5000, 4000)
            coll(AT, s + 6000, s + 9000)
    elif shape == "enclose":
        rng(AT, T0 + 5000, T0 + step_len - 10_000, "c10d::allreduce_")
        rng(AT, T0 + 5000, T0 + step_len - 10_000, "nccl:all_reduce")
        for i in range(n):
            rng(AT, T0 + 10_000 + i * 10_000, T0 + 12_000 + i * 10_000, "aten::add")
            rng(AT, T0 + 13_000 + i * 10_000, T0 + 14_000 + i * 10_000, "nccl:all_reduce")
        for i in range(n // 2):
            s = T0 + 10_000 + n * 10_000 + i * 10_000
            launch(AT, s, NCCL, s + 5000, 5000, stream=20, api=LAUNCH_EX)
    elif shape == "names":
        for i in range(n):
            s = T0 + 10_000 + i * 20_000
            launch(AT, s, "kernel_%d_%s" % (i, "x" * 40), s + 5000, 12_000)
            if i % 10 == 0:
                coll(AT, s + 8000, s + 18_000)
    elif shape == "streams":
        for i in range(n):
            s = T0 + 10_000 + i * 20_000
            launch(AT, s, GEMM, s + 5000, 12_000, stream=100 + i)
            if i % 10 == 0:
                coll(AT, s + 8000, s + 18_000)
    elif shape == "threads":
        for i in range(n):
            s = T0 + 10_000 + i * 20_000
            t = gtid(10_000 + i)
            rng(t, s, s + 3000, "aten::mm")
            launch(t, s + 1000, GEMM, s + 5000, 12_000)
            if i % 10 == 0:
                coll(t, s + 8000, s + 18_000)
    elif shape == "nccl":
        for i in range(n):
            s = T0 + 10_000 + i * 20_000
            coll(AT, s, s + 8000)
    else:
        sys.exit("unknown shape " + shape)

if shape == "shuffled":
    r = random.Random(32)
    for rows in (kernels, runtime, nvtx):
        r.shuffle(rows)

if os.path.exists(out):
    os.remove(out)
db = sqlite3.connect(out)
db.executescript("""
CREATE TABLE META_DATA_EXPORT (name TEXT NOT NULL, value TEXT);
CREATE TABLE StringIds (id INTEGER NOT NULL PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE PROCESSES (globalPid INTEGER, pid INTEGER, name TEXT);
CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER NOT NULL, end INTEGER NOT NULL, deviceId INTEGER NOT NULL,
  contextId INTEGER NOT NULL, streamId INTEGER NOT NULL, correlationId INTEGER, globalPid INTEGER,
  demangledName INTEGER NOT NULL, shortName INTEGER NOT NULL);
CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (start INTEGER NOT NULL, end INTEGER NOT NULL, eventClass INTEGER NOT NULL,
  globalTid INTEGER, correlationId INTEGER, nameId INTEGER NOT NULL);
CREATE TABLE NVTX_EVENTS (start INTEGER NOT NULL, end INTEGER, eventType INTEGER NOT NULL, text TEXT,
  globalTid INTEGER, textId INTEGER, domainId INTEGER);
""")
db.executemany("INSERT INTO META_DATA_EXPORT VALUES (?, ?)", [
    ("EXPORT_PRODUCT_NAME", "NVIDIA Nsight Systems"), ("EXPORT_PRODUCT_VERSION", "2026.2.1.210"),
    ("EXPORT_SCHEMA_VERSION", "3.25.0"), ("EXPORT_SCHEMA_VERSION_MAJOR", "3"),
    ("EXPORT_SCHEMA_VERSION_MINOR", "25"), ("EXPORT_SCHEMA_VERSION_MICRO", "0"),
    ("EXPORT_PARAM_TIME_NORMALIZE", "false"), ("EXPORT_PARAM_TIME_SHIFT", "0")])
db.executemany("INSERT INTO StringIds VALUES (?, ?)", [(i, s) for s, i in strings.items()])
db.execute("INSERT INTO PROCESSES VALUES (?, ?, ?)", (GPID, PID, "python3"))
db.executemany("INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", kernels)
db.executemany("INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (?, ?, ?, ?, ?, ?)", runtime)
db.executemany("INSERT INTO NVTX_EVENTS VALUES (?, ?, ?, ?, ?, ?, ?)", nvtx)
db.commit()
db.close()
