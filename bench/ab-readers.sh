#!/usr/bin/env bash
# Is a build slower than another at reading? Times two jars' cold CLI runs (`-f json -o FILE`, the
# launcher's JVM flags for big inputs) on three generated inputs of the benchmark scenario, one
# per reader, the jars alternating (ABAB…) so that a change in the machine's load hits both, and
# prints per jar and input the median wall, the median CPU seconds (user + sys, all threads: the
# figure to compare on a shared machine), the peak RSS, and MB per CPU-second. It also checks that
# both jars wrote the same report, byte for byte.
#
#   bench/ab-readers.sh OLD_JAR NEW_JAR [ROUNDS=3]
#   KINETO_STEPS=2780 (≈ 1 GB of Kineto JSON)  ASCEND_STEPS=2780 (≈ 480 MB of timeline)  NSYS_STEPS=2780 (≈ 150 MB)
#   INPUTS="kineto.json ascend nsys.sqlite" (a subset to time)
#   WORK=DIR (inputs are kept there and reused; default bench/out/ab)
#
# Inputs are written with NEW_JAR's generator: the Kineto trace of
# bench/scenarios/kineto-bench.scenario.json, and the same scenario as a torch_npu capture and as an
# Nsight export.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
old="$(realpath "${1:?usage: ab-readers.sh OLD_JAR NEW_JAR [ROUNDS]}")"
new="$(realpath "${2:?usage: ab-readers.sh OLD_JAR NEW_JAR [ROUNDS]}")"
rounds="${3:-3}"
work="${WORK:-$root/bench/out/ab}"
mkdir -p "$work"
. "$root/bench/launcher-opts.sh"
heap="${XMX:-2g}"

scenario() { # STEPS OUT
  sed -e "s/\"steps\": 10,/\"steps\": $1,/" "$root/bench/scenarios/kineto-bench.scenario.json" >"$2"
}
gen() { # NAME STEPS synth-args...
  local name="$1" steps="$2"; shift 2
  [[ -e "$work/$name" ]] && return 0
  scenario "$steps" "$work/$name.scenario.json"
  java -Xmx2g -jar "$new" synth "$work/$name.scenario.json" -o "$work/$name" "$@" >/dev/null 2>&1
}
gen kineto.json "${KINETO_STEPS:-2780}"
gen ascend "${ASCEND_STEPS:-2780}" --format ascend
gen nsys.sqlite "${NSYS_STEPS:-2780}"

echo "# bench/ab-readers.sh $(date -u +%FT%TZ), $(nproc) cores, $rounds rounds, -Xmx$heap $LAUNCHER_BIG_INPUT_OPTS"
echo "# old: $old"
echo "# new: $new"
results="$work/results.txt"
: >"$results"
for input in ${INPUTS:-kineto.json ascend nsys.sqlite}; do
  bytes="$(du -sb "$work/$input" | cut -f1)"
  for ((r = 1; r <= rounds; r++)); do
    for side in old new; do
      jar="$old"; [[ $side == new ]] && jar="$new"
      /usr/bin/time -f "%e %U %S %M" -o "$work/time.txt" \
        java -Xmx"$heap" $LAUNCHER_BIG_INPUT_OPTS -jar "$jar" -f json -o "$work/$input.$side.json" "$work/$input" 2>/dev/null
      read -r wall user sys rss <"$work/time.txt"
      echo "$input $side $wall $user $sys $rss $(cut -d' ' -f1 /proc/loadavg) $bytes" >>"$results"
    done
    cmp -s "$work/$input.old.json" "$work/$input.new.json" || echo "$input: the two reports DIFFER"
  done
done
python3 - "$results" <<'PY'
import sys, statistics as st
rows = [l.split() for l in open(sys.argv[1])]
print(f"{'input':<12} {'jar':<4} {'wall s':>8} {'CPU s':>7} {'peak RSS':>9} {'MB/CPU-s':>9}  loads")
for inp in dict.fromkeys(r[0] for r in rows):
    for side in ("old", "new"):
        rs = [r for r in rows if r[0] == inp and r[1] == side]
        wall = st.median(float(r[2]) for r in rs)
        cpu = st.median(float(r[3]) + float(r[4]) for r in rs)
        rss = max(int(r[5]) for r in rs) / 1024
        mb = int(rs[0][7]) / 1e6
        loads = ",".join(r[6] for r in rs)
        print(f"{inp:<12} {side:<4} {wall:>8.2f} {cpu:>7.2f} {rss:>7.0f}MB {mb / cpu:>9.1f}  {loads}")
PY
