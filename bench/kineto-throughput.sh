#!/usr/bin/env bash
# Throughput per core of the Kineto path end to end (read, build the model, analyse, render JSON):
# the CLI on the 1 GB benchmark trace (bench/scenarios/kineto-bench.scenario.json, 2,780 steps), each
# run a cold JVM under /usr/bin/time -v, next to Python's json.load of the same file in the same
# run. Reports MB per CPU-second (user+sys of the whole process: scan threads, GC and JIT count),
# wall time and peak RSS, median of RUNS runs (issue 32: >= 354 MB/CPU-s, peak RSS <= 400 MB, on a
# quiet machine). CPU seconds are what to compare on a busy machine: contention inflates wall time
# far more than CPU time.
#
# Usage: bench/kineto-throughput.sh            (results: bench/out/kineto-throughput.txt)
#   STEPS=2780     steps of the trace (2,780 ~ 1.01 GB, 3.43 M events)
#   RUNS=5         CLI runs (median and best reported)
#   HEAP=          (default, empty) the options the launcher picks for one big JSON trace
#                  (bench/launcher-opts.sh, LAUNCHER_SINGLE_INPUT_OPTS): ./overlap-analyze itself, or
#                  those options with JAR=; HEAP=1g runs -Xmx1g with the launcher's options for big
#                  multi-input runs (LAUNCHER_BIG_INPUT_OPTS: the parallel collector), as before 2026-12-03
#   JAR=PATH       run this jar instead of the launcher (A/B against another build: the same
#                  options, java -jar PATH)
#   SKIP_PYTHON=1  skip json.load (it needs ~5 GB of RAM per GB of JSON)
#   PADDED=1       also the heap check of the padded shared trace (the section at the end)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="$root/bench/out"
mkdir -p "$out"
STEPS="${STEPS:-2780}"
RUNS="${RUNS:-5}"
HEAP="${HEAP:-}"
report="$out/kineto-throughput.txt"
: >"$report"
say() { echo "$*" | tee -a "$report"; }
. "$root/bench/launcher-opts.sh"

say "# bench/kineto-throughput.sh $(date -u +%Y-%m-%dT%H:%M:%SZ) $(git -C "$root" rev-parse --short HEAD 2>/dev/null || true)"
say "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(free -g | awk '/Mem:/{print $2}') GiB RAM"
say "jvm: $(java -version 2>&1 | head -2 | tail -1); python: $(python3 --version 2>&1)"

# The launcher builds the jar when sources changed; a first run on a sample does that (and writes
# the class-data-sharing archive) outside the measurement.
"$root/overlap-analyze" "$root/samples/seed-1ms.pt.trace.json" >/dev/null
jar="$root/cli/target/overlap-analyze.jar"

big="$out/kineto-1g.json"
if [[ ! -s "$big" || "$(cat "$big.steps" 2>/dev/null)" != "$STEPS" ]]; then
  sed -e "s/\"steps\": 10,/\"steps\": $STEPS,/" "$root/bench/scenarios/kineto-bench.scenario.json" >"$out/tmp.scenario.json"
  java -Xmx1g -cp "$jar" io.overlapanalyze.cli.Main synth "$out/tmp.scenario.json" -o "$big" >/dev/null
  echo "$STEPS" >"$big.steps"
  rm -f "$out/tmp.scenario.json"
fi
bytes="$(stat -L -c %s "$big")"
say "trace: $(basename "$big"), $STEPS steps, $bytes bytes"

# One run under /usr/bin/time -v: prints "wall cpu user sys maxrss_kB".
timed() {
  /usr/bin/time -v -o "$out/time-v.txt" "$@" >/dev/null
  awk -F': ' '
    /User time/ { u = $2 } /System time/ { s = $2 } /Maximum resident/ { m = $2 }
    /Elapsed \(wall clock\)/ { n = split($2, p, ":"); w = 0; for (i = 1; i <= n; i++) w = w * 60 + p[i] }
    END { printf "%.2f %.2f %.2f %.2f %d\n", w, u + s, u, s, m }' "$out/time-v.txt"
}

if [[ -n "$HEAP" ]]; then
  opts="-Xmx$HEAP $LAUNCHER_BIG_INPUT_OPTS"
  what="-Xmx$HEAP + the launcher's big-input options ($LAUNCHER_BIG_INPUT_OPTS)"
elif [[ -n "${JAR:-}" ]]; then
  opts="$LAUNCHER_SINGLE_INPUT_OPTS"
  what="the launcher's options for one big JSON trace ($LAUNCHER_SINGLE_INPUT_OPTS)"
else
  opts=""
  what="the launcher's own choice for one big JSON trace"
fi
if [[ -n "${JAR:-}" ]]; then
  # shellcheck disable=SC2086 # the options are words
  cli=(java $opts -jar "$JAR" -f json "$big")
  what="$what, java -jar $JAR"
else
  cli=(env ${opts:+OVERLAP_ANALYZE_JAVA_OPTS="$opts"} "$root/overlap-analyze" -f json "$big")
fi

say ""
say "## overlap-analyze -f json (cold JVM each run; $what)"
lines=()
for ((r = 1; r <= RUNS; r++)); do
  line="$(timed "${cli[@]}")"
  lines+=("$line")
  read -r wall cpu user sys rss <<<"$line"
  say "  run $r: wall ${wall}s cpu ${cpu}s (user $user, sys $sys) maxRSS $((rss / 1024)) MB load $(cut -d' ' -f1 /proc/loadavg)"
done

py_line=""
if [[ "${SKIP_PYTHON:-0}" != "1" ]]; then
  say ""
  say "## Python json.load of the same file (the whole interpreter process)"
  py_line="$(timed python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$big")"
  read -r wall cpu user sys rss <<<"$py_line"
  say "  json.load: wall ${wall}s cpu ${cpu}s (user $user, sys $sys) maxRSS $((rss / 1024)) MB load $(cut -d' ' -f1 /proc/loadavg)"
fi

say ""
python3 - "$bytes" "$py_line" "${lines[@]}" <<'PY' | tee -a "$report"
import statistics as st, sys
mb = int(sys.argv[1]) / 1e6
py = sys.argv[2].split()
runs = [l.split() for l in sys.argv[3:]]
wall = [float(r[0]) for r in runs]; cpu = [float(r[1]) for r in runs]; rss = [int(r[4]) / 1024 for r in runs]
print(f"overlap-analyze: median {mb / st.median(cpu):.0f} MB per CPU-second (best {mb / min(cpu):.0f}); "
      f"cpu median {st.median(cpu):.2f}s, wall median {st.median(wall):.2f}s ({mb / st.median(wall):.0f} MB/s), "
      f"peak RSS median {st.median(rss):.0f} MB (max {max(rss):.0f})")
if py:
    pc = float(py[1])
    print(f"python json.load: {mb / pc:.0f} MB per CPU-second; cpu {pc:.2f}s, wall {float(py[0]):.2f}s, "
          f"peak RSS {int(py[4]) / 1024:.0f} MB; overlap-analyze does {pc / st.median(cpu):.1f}x less CPU work")
PY

if [[ "${PADDED:-0}" == "1" ]]; then
  # Peak heap does not grow with the JSON text: the largest shared trace padded to ~5x its size
  # with events the reader skips (python_function, as with_stack=True traces have) must run in
  # the same small heap (ReadBenchmark: bench/java, built with -Pbench).
  shared="$root/../shared/traces"
  trace="$shared/kineto/hta_df_index_resolver_rank1of2_v100_memory.json.gz"
  [[ -f "$trace" ]] || { say "PADDED: missing $trace"; exit 2; }
  (cd "$root" && mvn -B -q -ntp -Pbench -DskipTests package >/dev/null)
  bench_jar="$root/bench/java/target/overlap-analyze-bench.jar"
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
  say ""
  say "## Heap does not grow with the JSON text (ReadBenchmark, 5 runs in one JVM)"
  for heap in 1g 96m; do
    for f in "$plain" "$padded"; do
      say "--- -Xmx$heap $(basename "$f")"
      /usr/bin/time -f "maxRSS=%MkB wall=%es" java -Xmx$heap -XX:+UseParallelGC -cp "$jar:$bench_jar" \
        io.overlapanalyze.bench.ReadBenchmark "$f" 5 2>&1 | tee -a "$report"
    done
  done
fi
rm -f "$out/time-v.txt"
