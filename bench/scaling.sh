#!/usr/bin/env bash
# Bounded time and memory on any input, measured: Kineto traces of pathological shapes
# (bench/scaling/kineto_shapes.py: all-overlapping annotations, deep nesting, one span enclosing
# thousands, thousands of names, streams, threads, process groups, steps, shared ids...) each at
# N/2, N and 2N, analysed by the CLI (-f json, cold JVM, C1, serial collector) under GNU time; then
# diff and gate of summaries of that many steps. Prints CPU seconds and peak RSS at each size and
# "growth", what doubling from N to 2N added over what doubling from N/2 to N added (start-up, the
# same at every size, cancels): 2 is linear, 4 quadratic; over 3 is marked SUPERLINEAR, and "-"
# means the cost barely grew (under 0.25 CPU-s from N/2 to N: the ratio would be noise).
#
# The Nsight Systems and Ascend readers the same way: bench/scaling/nsys_shapes.py (SQLite exports)
# and bench/scaling/ascend_shapes.py (torch_npu trace_view.json directories), shapes named
# nsys:SHAPE and ascend:SHAPE.
#
# Usage: bench/scaling.sh [N=20000] [SHAPE...]     (results: bench/out/scaling.txt)
#   SHAPE      a Kineto shape, or nsys:SHAPE / ascend:SHAPE (the shapes: each generator's docstring)
#   FORMATS    without SHAPEs, whose default shapes to run: "kineto" (default), or any of
#              "kineto nsys ascend"; diff and gate run when a Kineto shape ran
#   JAR=PATH  time this build's jar instead of building the working tree
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="$root/bench/out"
work="$(mktemp -d "${TMPDIR:-/tmp}/scaling.XXXXXX")"
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"
n="${1:-20000}"
shift || true
shapes=("$@")
formats="${FORMATS:-kineto}"
if ((${#shapes[@]} == 0)); then
  for format in $formats; do
    case "$format" in
      kineto) shapes+=(flat deep enclose overlap_ann names streams threads groups memcpy steps samesteps dupcorr dupext collnokernel memory) ;;
      nsys) shapes+=(nsys:flat nsys:deep nsys:overlap nsys:enclose nsys:names nsys:streams nsys:threads nsys:steps nsys:nccl nsys:shuffled) ;;
      ascend) shapes+=(ascend:flat ascend:steps ascend:hccl ascend:overlap ascend:names ascend:streams) ;;
      *) echo "FORMATS: unknown format $format (kineto, nsys, ascend)" >&2; exit 2 ;;
    esac
  done
fi
if [[ -n "${JAR:-}" ]]; then
  jar="$JAR"
else
  (cd "$root" && mvn -B -q -ntp -Dstyle.color=never -DskipTests -pl cli -am package >/dev/null)
  jar="$root/cli/target/overlap-analyze.jar"
fi
java=(java -XX:+UseSerialGC -XX:TieredStopAtLevel=1)
report="$out/scaling.txt"
: >"$report"
say() { echo "$*" | tee -a "$report"; }

# "cpu_seconds rss_mb" of one command, its exit code after them
timed() {
  local rc=0
  /usr/bin/time -f "%U %S %M" -o "$work/time" "$@" >"$work/stdout" 2>"$work/stderr" || rc=$?
  awk -v rc="$rc" '{printf "%.2f %d %d\n", $1 + $2, $3 / 1024, rc}' "$work/time" | tail -1
}

row() { # label, then the three results "cpu rss rc" at N/2, N, 2N
  local label=$1 q=($2) a=($3) b=($4)
  local growth flag=""
  # Below 0.25 CPU-s added from N/2 to N the growth is noise: "-".
  growth="$(awk -v q="${q[0]}" -v x="${a[0]}" -v y="${b[0]}" 'BEGIN { d = x - q; if (d < 0.25) print "-"; else printf "%.2f", (y - x) / d }')"
  [[ "$growth" != - ]] && awk -v g="$growth" 'BEGIN { exit !(g > 3) }' && flag="  SUPERLINEAR"
  ((q[2] != 0 || a[2] != 0 || b[2] != 0)) && flag="$flag  exit ${q[2]}/${a[2]}/${b[2]}"
  say "$(printf '%-16s %6.2f %5d %6.2f %5d %6.2f %5d %6s%s' "$label" "${q[0]}" "${q[1]}" "${a[0]}" "${a[1]}" "${b[0]}" "${b[1]}" "$growth" "$flag")"
}

say "# bench/scaling.sh $(date -u +%Y-%m-%dT%H:%M:%SZ) $(git -C "$root" rev-parse --short HEAD 2>/dev/null || true), N = $n"
say "$(printf '%-16s %6s %5s %6s %5s %6s %5s %6s' shape "N/2 s" MB "N s" MB "2N s" MB growth)"
sizes=($((n / 2)) "$n" $((2 * n)))
for shape in "${shapes[@]}"; do
  results=()
  for size in "${sizes[@]}"; do
    case "$shape" in
      nsys:*) input="$work/t.sqlite"; python3 "$root/bench/scaling/nsys_shapes.py" "${shape#nsys:}" "$size" "$input" ;;
      ascend:*) input="$work/t_ascend_pt"; python3 "$root/bench/scaling/ascend_shapes.py" "${shape#ascend:}" "$size" "$input" ;;
      *) input="$work/t.json"; python3 "$root/bench/scaling/kineto_shapes.py" "$shape" "$size" "$input" ;;
    esac
    results+=("$(timed "${java[@]}" -jar "$jar" -f json "$input")")
    rm -rf "$input"
  done
  row "$shape" "${results[@]}"
done

# diff and gate read summaries: of N/2, N and 2N steps (with the Kineto shapes)
kineto_shapes=0
for shape in "${shapes[@]}"; do [[ "$shape" == *:* ]] || kineto_shapes=1; done
((kineto_shapes)) || exit 0
diffs=()
gates=()
for size in "${sizes[@]}"; do
  python3 "$root/bench/scaling/kineto_shapes.py" steps "$size" "$work/s.json"
  python3 "$root/bench/scaling/kineto_shapes.py" samesteps "$size" "$work/t.json"
  "${java[@]}" -jar "$jar" summary "$work/s.json" -o "$work/s.sum.json" 2>/dev/null
  "${java[@]}" -jar "$jar" summary "$work/t.json" -o "$work/t.sum.json" 2>/dev/null
  diffs+=("$(timed "${java[@]}" -jar "$jar" diff "$work/s.sum.json" "$work/t.sum.json")")
  gates+=("$(timed "${java[@]}" -jar "$jar" gate --baseline "$work/s.sum.json" "$work/t.json")")
done
row "diff" "${diffs[@]}"
row "gate" "${gates[@]}"
