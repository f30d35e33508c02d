#!/usr/bin/env bash
# Parse + analyse throughput of the Kineto reader on the largest shared trace, and proof that
# peak heap does not grow with the JSON text: the same trace padded to ~5x its size with events
# the reader skips (python_function, as with_stack=True traces have) must run in the same small heap.
#
# Usage: bench/kineto-throughput.sh [SHARED_TRACES_DIR]   (results go to bench/out/)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
shared="${1:-$root/../shared/traces}"
trace="$shared/kineto/hta_df_index_resolver_rank1of2_v100_memory.json.gz"
out="$root/bench/out"
mkdir -p "$out"
[[ -f "$trace" ]] || { echo "missing $trace" >&2; exit 2; }

(cd "$root" && mvn -B -q -ntp -Pbench -DskipTests package >/dev/null)
jar="$root/cli/target/overlap-analyze.jar"
bench_jar="$root/bench/java/target/overlap-analyze-bench.jar" # ReadBenchmark (bench/java, -Pbench)

plain="$out/df_index.json"
padded="$out/df_index_padded.json"
[[ -f "$plain" ]] || gzip -dc "$trace" >"$plain"
if [[ ! -f "$padded" ]]; then
  python3 - "$plain" "$padded" <<'PY'
import json, sys
src, dst = sys.argv[1], sys.argv[2]
with open(src) as f:
    d = json.load(f)
ev = d["traceEvents"]
pad = []
for i, e in enumerate(ev):
    if e.get("ph") == "X" and e.get("cat") == "cpu_op":
        for k in range(4):
            pad.append({"ph": "X", "cat": "python_function", "name": "torch/nn/modules/module.py(1501): _call_impl " * 2,
                        "pid": e["pid"], "tid": e["tid"], "ts": e["ts"], "dur": 1,
                        "args": {"Python parent id": i, "Python id": i * 4 + k, "Ev Idx": i}})
d["traceEvents"] = ev + pad
with open(dst, "w") as f:
    json.dump(d, f)
PY
fi

{
  echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(free -g | awk '/Mem:/{print $2}') GiB RAM"
  echo "jvm: $(java -version 2>&1 | head -1)"
  for heap in 1g 96m; do
    for f in "$plain" "$padded"; do
      echo "--- -Xmx$heap $(basename "$f")"
      /usr/bin/time -f "maxRSS=%MkB wall=%es" java -Xmx$heap -XX:+UseParallelGC -cp "$jar:$bench_jar" \
        io.overlapanalyze.bench.ReadBenchmark "$f" 5 2>&1
    done
  done
  echo "--- python3 json.load of the same file (reference floor of any pandas-based tool)"
  python3 -c "
import json, time, sys
t = time.perf_counter(); json.load(open('$plain')); dt = time.perf_counter() - t
print('python json.load: %.3f s, %.0f MB/s' % (dt, $(stat -c %s "$plain") / 1e6 / dt))"
} | tee "$out/kineto-throughput.txt"
