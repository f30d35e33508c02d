#!/usr/bin/env bash
# Multi-rank parallel parsing benchmark (acceptance: 8 ranks analyse in measurably less than 8x one rank).
#
# Writes an 8-rank synthetic job (bench/multirank.job.json) with `overlap-analyze synth`, then times
# end to end, best of N runs each:
#   one   - one rank file alone
#   8-ser - all 8 rank files with one reader thread (-Doverlap.readers=1): the serial baseline
#   8-par - all 8 rank files with the default (parallel) readers
# Usage: bench/multirank.sh [runs=3] [workdir=/tmp/overlap-bench-multirank] [steps]
# Without steps: the 8-rank job bench/multirank.job.json (59 MB of JSON per rank). With steps: 8 ranks
# of bench/scenarios/kineto-bench.scenario.json of that many steps each (690 steps ~ 250 MB per rank).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
runs="${1:-3}"
work="${2:-${TMPDIR:-/tmp}/overlap-bench-multirank}"
cli="$root/overlap-analyze"
# The launcher's flags for inputs of 32 MB or more: every run below gets the same, so that only the
# reading differs. OVERLAP_ANALYZE_JAVA_OPTS replaces them.
. "$root/bench/launcher-opts.sh"
jvm="${OVERLAP_ANALYZE_JAVA_OPTS:-$LAUNCHER_BIG_INPUT_OPTS}"

"$cli" --version >/dev/null 2>&1 || true  # builds the jar if needed, outside the timings
steps="${3:-}"
if [[ ! -f "$work/rank-7.pt.trace.json.gz" || "$(cat "$work.steps" 2>/dev/null)" != "$steps" ]]; then
  rm -rf "$work" && mkdir -p "$work"
  if [[ -z "$steps" ]]; then
    "$cli" synth "$root/bench/multirank.job.json" --gzip -o "$work" >/dev/null
  else
    # Bigger ranks: the job planner keeps every rank's plan in memory, so each rank is written on its
    # own from the streaming benchmark scenario (bench/run.sh's; 0.36 MB of JSON per step), then gzipped.
    for r in 0 1 2 3 4 5 6 7; do
      sed -e "s/\"steps\": 10,/\"steps\": $steps,/" -e "s/\"rank\": 0,/\"rank\": $r,/" \
        "$root/bench/scenarios/kineto-bench.scenario.json" >"$work.scenario.json"
      java -Xmx1g -cp "$root/cli/target/overlap-analyze.jar" io.overlapanalyze.cli.Main synth "$work.scenario.json" \
        -o "$work/rank-$r.pt.trace.json" >/dev/null
      gzip -1 "$work/rank-$r.pt.trace.json"
    done
    rm -f "$work.scenario.json"
  fi
  echo "$steps" >"$work.steps"
fi

best() { # best wall seconds of $runs runs of "$@"
  local b=""
  for _ in $(seq "$runs"); do
    local s e t
    s=$(date +%s.%N)
    "$@" >/dev/null
    e=$(date +%s.%N)
    t=$(echo "$e - $s" | bc -l)
    if [[ -z "$b" ]] || (( $(echo "$t < $b" | bc -l) )); then b=$t; fi
  done
  printf '%.2f' "$b"
}

one=$(OVERLAP_ANALYZE_JAVA_OPTS="$jvm" best "$cli" -f json "$work/rank-0.pt.trace.json.gz")
ser=$(OVERLAP_ANALYZE_JAVA_OPTS="$jvm -Doverlap.readers=1" best "$cli" -f json "$work")
par=$(OVERLAP_ANALYZE_JAVA_OPTS="$jvm" best "$cli" -f json "$work")
# Calibration: two single-rank runs side by side. On a machine with two real cores this takes about as
# long as one run; where it takes twice as long, the "cores" share one core's throughput and no
# parallel reader can help.
pair=$(OVERLAP_ANALYZE_JAVA_OPTS="$jvm" best bash -c "'$cli' -f json '$work/rank-0.pt.trace.json.gz' >/dev/null & '$cli' -f json '$work/rank-1.pt.trace.json.gz' >/dev/null; wait")
size=$(du -sh "$work" | cut -f1)
raw=$(for f in "$work"/rank-0.pt.trace.json.gz; do gzip -l "$f" | awk 'NR==2{printf "%.0f MB", $2/1e6}'; done)

echo "machine: $(nproc) cores, $(awk '/MemTotal/{printf "%.0f GiB", $2/1048576}' /proc/meminfo), $(uname -sr)"
echo "jvm: $(java -version 2>&1 | head -1), options: $jvm"
echo "input: 8 ranks, $size gzip on disk ($raw JSON per rank)"
echo "one rank:            ${one} s"
echo "8 ranks, 1 reader:   ${ser} s   ($(echo "$ser / $one" | bc -l | xargs printf '%.2f')x one rank)"
echo "two single-rank runs side by side: ${pair} s   ($(echo "$pair / $one" | bc -l | xargs printf '%.2f')x one rank: the machine's real parallel throughput)"
echo "8 ranks, parallel:   ${par} s   ($(echo "$par / $one" | bc -l | xargs printf '%.2f')x one rank, $(echo "$ser / $par" | bc -l | xargs printf '%.2f')x faster than 1 reader)"
