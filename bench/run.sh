#!/usr/bin/env bash
# End-to-end benchmark of issue 8 (performance): generates big traces with the scenario
# generator, runs the CLI on them as a user would (./overlap-analyze, cold JVM), and records wall
# time, CPU time, MB/s, events/s and peak RSS, next to a reference run on the same file (Python's
# json.load: the floor of any tool that loads the trace into Python objects). It also checks the
# big run's numbers: the first 10 steps of the 1 GB trace must analyse exactly like a 10-step copy
# of the same scenario. Results: bench/out/run.txt (docs/PERFORMANCE.md quotes them).
#
# Usage: bench/run.sh            (1 GB Kineto trace, reference, check, small-sample start-up)
#   STEPS=2780                   steps of the big Kineto trace (2,780 ~ 1.01 GB, 3.43 M events)
#   RUNS=3                       CLI runs per measurement (best and median reported)
#   BIG4G=1                      also a ~4 GB trace under -Xmx1g (needs ~4 GB of free disk in bench/out)
#   SKIP_PYTHON=1                skip the json.load reference (it needs ~4 GB of RAM per GB of JSON)
#
# Hooks (run when the script exists, else reported as not measured):
#   bench/multirank.sh RUNS DIR  8-rank job: one rank vs 8 serial vs 8 parallel (multi-rank loading);
#                                its output is copied into run.txt
#   bench/nsys-run.sh OUT_DIR    Nsight export with 2 M kernels (kernel rows/s)
#   bench/ascend-run.sh OUT_DIR  large Ascend trace (MB/s vs Kineto's)
# The nsys/ascend hooks append their own lines to OUT_DIR/run.txt; this script passes the Kineto
# MB/s in KINETO_MBPS for comparisons.
#
# The machine may be shared (other builds running): the script prints the load average with each
# measurement, and CPU time (user+sys) next to wall time, which contention inflates far less.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="$root/bench/out"
mkdir -p "$out"
STEPS="${STEPS:-2780}"
RUNS="${RUNS:-3}"
report="$out/run.txt"
: >"$report"
say() { echo "$*" | tee -a "$report"; }

(cd "$root" && mvn -B -q -ntp -Pbench -DskipTests package >/dev/null)
launcher="$root/overlap-analyze"
bench_jar="$root/bench/java/target/overlap-analyze-bench.jar" # ReadBenchmark (bench/java, -Pbench)
scenario="$root/bench/scenarios/kineto-bench.scenario.json"
# The launcher's JVM options for inputs of 32 MB or more, here with an explicit heap limit:
# OVERLAP_ANALYZE_JAVA_OPTS replaces the launcher's defaults.
. "$root/bench/launcher-opts.sh"
BIG_INPUT_OPTS="$LAUNCHER_BIG_INPUT_OPTS"

say "# bench/run.sh $(date -u +%Y-%m-%dT%H:%M:%SZ)"
say "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(free -g | awk '/Mem:/{print $2}') GiB RAM"
say "jvm: $(java -version 2>&1 | head -2 | tail -1)"
say "python: $(python3 --version 2>&1)"

# scenario_with STEPS RANK FILE: the bench scenario resized.
scenario_with() {
  sed -e "s/\"steps\": 10,/\"steps\": $1,/" -e "s/\"rank\": 0,/\"rank\": $2,/" "$scenario" >"$3"
}

# gen STEPS RANK OUT.json: writes the trace unless it is there already.
gen() {
  [[ -s "$3" ]] && return 0
  scenario_with "$1" "$2" "$out/tmp.scenario.json"
  /usr/bin/time -f "generated %es wall, %MkB max RSS" \
    java -Xmx1g -cp "$root/cli/target/overlap-analyze.jar" io.overlapanalyze.cli.Main synth \
    "$out/tmp.scenario.json" -o "$3" >/dev/null 2>"$out/gen.err" || { cat "$out/gen.err" >&2; exit 1; }
  say "$(basename "$3"): $(tail -1 "$out/gen.err")"
}

# measure LABEL FILE HEAP: RUNS cold CLI runs (-f json), one line each, then best/median.
measure() {
  local label="$1" file="$2" heap="$3" bytes walls=() cpus=() rss=()
  bytes="$(stat -c %s "$file")"
  for ((r = 1; r <= RUNS; r++)); do
    OVERLAP_ANALYZE_JAVA_OPTS="-Xmx$heap $BIG_INPUT_OPTS" /usr/bin/time -f "%e %U %S %M" -o "$out/time.txt" \
      "$launcher" -f json "$file" >"$out/$label.out.json"
    read -r wall user sys maxrss <"$out/time.txt"
    walls+=("$wall"); cpus+=("$(echo "$user + $sys" | bc)"); rss+=("$maxrss")
    say "  $label run $r: wall ${wall}s cpu $(echo "$user + $sys" | bc)s maxRSS ${maxrss}kB load $(cut -d' ' -f1 /proc/loadavg)"
  done
  python3 - "$label" "$bytes" "$heap" "${EVENTS:-0}" "${walls[*]}" "${cpus[*]}" "${rss[*]}" <<'PY' | tee -a "$report"
import sys, statistics as st
label, b, heap, ev = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
w = [float(x) for x in sys.argv[5].split()]; c = [float(x) for x in sys.argv[6].split()]
r = [int(x) for x in sys.argv[7].split()]
mb = b / 1e6
def rate(x): return "%.0f MB/s" % (mb / x) + ("" if not ev else ", %.2f M events/s" % (ev / x / 1e6))
print(f"{label}: {mb:.1f} MB, -Xmx{heap}: wall best {min(w):.2f}s ({rate(min(w))}), median {st.median(w):.2f}s "
      f"({rate(st.median(w))}); cpu best {min(c):.2f}s ({rate(min(c))}); max RSS {max(r)/1024:.0f} MB")
PY
  BEST_WALL="$(printf '%s\n' "${walls[@]}" | sort -n | head -1)"
}

big="$out/kineto-1g.json"
small="$out/kineto-10steps.json"
gen "$STEPS" 0 "$big"
gen 10 0 "$small"

# Events in the big file (counted once, by the reference or by a quick scan).
EVENTS="$(grep -c '"ph" :' "$big" || true)"
say "kineto-1g.json: $(stat -c %s "$big") bytes, $EVENTS events"
export EVENTS

say ""
say "## Kineto, one rank, parse + analyse (./overlap-analyze -f json, cold JVM each run)"
measure kineto-1g "$big" 1g
kineto_best="$BEST_WALL"

say ""
say "## Same file, warm JVM (ReadBenchmark: 3 runs in one JVM; retained heap after GC with the model reachable)"
java -Xmx1g -XX:+UseParallelGC -cp "$root/cli/target/overlap-analyze.jar:$bench_jar" io.overlapanalyze.bench.ReadBenchmark \
  "$big" 3 2>&1 | tee -a "$report"
say "load $(cut -d' ' -f1 /proc/loadavg)"

say ""
say "## Reference: Python json.load of the same file (no analysis)"
if [[ "${SKIP_PYTHON:-0}" == "1" ]]; then
  say "skipped (SKIP_PYTHON=1)"
else
  /usr/bin/time -f "%e %M" -o "$out/time.txt" python3 -c "
import json, time, sys
t = time.perf_counter(); d = json.load(open(sys.argv[1])); dt = time.perf_counter() - t
print('%.2f %d' % (dt, len(d['traceEvents'])))" "$big" >"$out/python.txt"
  read -r pdt pev <"$out/python.txt"
  read -r pwall prss <"$out/time.txt"
  say "python json.load: ${pdt}s load ($(python3 -c "print('%.0f' % ($(stat -c %s "$big")/1e6/$pdt))") MB/s), ${pwall}s wall with interpreter start, max RSS $((prss / 1024)) MB, $pev events; load $(cut -d' ' -f1 /proc/loadavg)"
  say "ratio: overlap-analyze (parse + analyse, best wall incl. JVM start) is $(python3 -c "print('%.1f' % ($pdt/$kineto_best))")x faster than json.load alone"
fi

say ""
say "## Check: the fast path (byte scanner, parallel chunks) == the reference path (Jackson) on the 1 GB trace"
OVERLAP_ANALYZE_JAVA_OPTS="-Xmx1g $BIG_INPUT_OPTS -Doverlap.kineto.scanner=jackson" "$launcher" -f json "$big" \
  >"$out/kineto-1g.jackson.json"
python3 - "$out/kineto-1g.out.json" "$out/kineto-1g.jackson.json" <<'PY' | tee -a "$report"
import json, sys
def load(p):
    d = json.load(open(p))
    d.pop("generatedAt", None)
    for k in ("tool", "elapsedMs"):
        d.pop(k, None)
    return d
a, b = load(sys.argv[1]), load(sys.argv[2])
if a != b:
    print("MISMATCH between the fast path and the Jackson path"); sys.exit(1)
print("ok: the whole report is identical (%d steps)" % len(a["ranks"][0]["steps"]))
PY
rm -f "$out/kineto-1g.jackson.json"

say ""
say "## Check: first 10 steps of the big trace == the 10-step copy"
OVERLAP_ANALYZE_JAVA_OPTS="-Xmx1g" "$launcher" -f json "$small" >"$out/kineto-10steps.out.json"
python3 - "$out/kineto-1g.out.json" "$out/kineto-10steps.out.json" <<'PY' | tee -a "$report"
import json, sys
big = json.load(open(sys.argv[1]))["ranks"][0]["steps"]
ref = json.load(open(sys.argv[2]))["ranks"][0]["steps"]
# The copy's last step has no next step: its period ends with its own window (metrics.md §2), so
# its period, window overlap and idle (measured inside the period) differ from the big trace's.
PERIOD = ("stepPeriodNs", "windowOverlapNs", "idleNs")
def cut(s, last):
    return {k: v for k, v in s.items() if not (last and k in PERIOD)}
bad = [s["name"] for i, (s, r) in enumerate(zip(big, ref)) if cut(s, i == 9) != cut(r, i == 9)]
if len(ref) != 10 or bad:
    print("MISMATCH in", bad or "step count"); sys.exit(1)
print("ok: %d steps in the big trace; steps 1-10 identical to the 10-step copy (every field)" % len(big))
PY

if [[ "${BIG4G:-0}" == "1" ]]; then
  say ""
  say "## 4 GB trace under -Xmx1g (memory must not grow with the file)"
  big4="$out/kineto-4g.json"
  avail="$(df -Pk "$out" | awk 'NR==2{print $4}')"
  if ((avail < 6 * 1024 * 1024)); then
    say "skipped: less than 6 GB free in $out"
  else
    gen $((STEPS * 4)) 0 "$big4"
    RUNS=1 EVENTS=0 measure kineto-4g "$big4" 1g
    rm -f "$big4"
  fi
fi

say ""
say "## Start-up: a bundled sample (samples/seed-1ms.pt.trace.json), launcher defaults, CDS archive"
"$launcher" "$root/samples/seed-1ms.pt.trace.json" >/dev/null # first run after a build writes the archive
for r in 1 2 3 4 5; do
  /usr/bin/time -f "%e %U %S %M" -o "$out/time.txt" "$launcher" "$root/samples/seed-1ms.pt.trace.json" >/dev/null
  read -r wall user sys maxrss <"$out/time.txt"
  say "  sample run $r: wall ${wall}s cpu $(echo "$user + $sys" | bc)s maxRSS ${maxrss}kB load $(cut -d' ' -f1 /proc/loadavg)"
done
for r in 1 2 3; do
  /usr/bin/time -f "%e %U %S" -o "$out/time.txt" env OVERLAP_ANALYZE_CDS=0 OVERLAP_ANALYZE_JAVA_OPTS=-XX:+UseParallelGC \
    "$launcher" "$root/samples/seed-1ms.pt.trace.json" >/dev/null
  read -r wall user sys <"$out/time.txt"
  say "  sample run without CDS, C2 + parallel GC (the old default) $r: wall ${wall}s cpu $(echo "$user + $sys" | bc)s"
done

say ""
say "## Hooks"
export KINETO_MBPS
KINETO_MBPS="$(python3 -c "print('%.0f' % ($(stat -c %s "$big")/1e6/$kineto_best))")"
if [[ -x "$root/bench/multirank.sh" ]]; then
  say "--- bench/multirank.sh"
  "$root/bench/multirank.sh" "$RUNS" "$out/multirank" 2>&1 | tee -a "$report"
else
  say "bench/multirank.sh: not present, not measured"
fi
for hook in nsys-run ascend-run; do
  if [[ -x "$root/bench/$hook.sh" ]]; then
    say "--- bench/$hook.sh"
    "$root/bench/$hook.sh" "$out"
  else
    say "bench/$hook.sh: not present, not measured"
  fi
done
rm -f "$out/tmp.scenario.json" "$out/time.txt" "$out/gen.err"
