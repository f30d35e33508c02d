#!/usr/bin/env bash
# Issue 8, acceptance 4 and 6: Ascend timeline (trace_view.json) read + analyse throughput against the
# Kineto reader on the same synthetic scenario, and a check of the Ascend output against a smaller copy
# and against the Kineto analysis.
# Usage: bench/ascend-read.sh [STEPS (default 140 = 213 MB of Ascend JSON, 400 MB of Kineto JSON,
#        350,560 device tasks)] [XMX (default 3g)] [REPEATS per JVM (default 10)] [ROUNDS (default 3)]
# Each reader runs in JVMs of its own, as in a CLI run (a JVM that ran both compiles the shared scanner
# with both readers' profiles). A round is one JVM per reader, their order alternating between rounds;
# a JVM reads REPEATS times, each read after a full GC, and reports the medians of the second half of
# its runs (the first half is JIT warm-up). The ratio is taken from the medians over rounds. All of it
# twice: on the JVM's defaults (tiered C2) and with the flags ./overlap-analyze picks for inputs of this
# size (C1).
# BIG=1 [BIGSTEPS=2100] adds cold CLI runs on a multi-gigabyte capture (see the end).
# Writes the traces to a temporary directory (deleted afterwards; ~620 MB for 140 steps).
set -euo pipefail
cd "$(dirname "$0")/.."
STEPS="${1:-140}"
XMX="${2:-3g}"
REPEATS="${3:-10}"
ROUNDS="${4:-3}"
SMALL=10
. bench/db-bench-classpath.sh
. bench/launcher-opts.sh
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
echo "machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'), $(free -g | awk '/Mem:/{print $2}') GiB RAM; load average: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "commit: $(git rev-parse --short HEAD 2>/dev/null || echo unknown)$(git diff --quiet 2>/dev/null || echo ' (modified)')"
java -Xmx4g -cp "$CP" "$MAIN" ascend "$WORK" "$STEPS" "$SMALL" 0 >/dev/null 2>&1 || true
echo "== verification (default JVM)"
java -Xmx"$XMX" -cp "$CP" "$MAIN" ascend "$WORK" "$STEPS" "$SMALL" 1 | grep -E "verified|FAILED|jvm:"

# One JVM timing one reader; prints its result line, with the JVM's peak RSS when /usr/bin/time is there.
time_reader() {
  local reader="$1"; shift
  local out="$WORK/$reader.out"
  if [ -x /usr/bin/time ]; then
    /usr/bin/time -v java "$@" -Xmx"$XMX" -cp "$CP" "$MAIN" ascend "$WORK" "$STEPS" "$SMALL" "$REPEATS" "$reader" \
      > "$out" 2> "$WORK/time.txt"
    echo "$(grep '^result' "$out") rss_kb=$(awk -F': ' '/Maximum resident set size/{print $2}' "$WORK/time.txt")"
  else
    java "$@" -Xmx"$XMX" -cp "$CP" "$MAIN" ascend "$WORK" "$STEPS" "$SMALL" "$REPEATS" "$reader" > "$out"
    grep '^result' "$out"
  fi
}

for setup in "default JVM (tiered C2)|" \
             "launcher flags for 32 MB and more (C1)|$LAUNCHER_BIG_INPUT_OPTS"; do
  name="${setup%%|*}"
  read -r -a flags <<<"${setup#*|}"
  echo "== $name: ${flags[*]:-no flags}; $ROUNDS rounds of one JVM per reader, $REPEATS reads each"
  results="$WORK/results.txt"
  : > "$results"
  for round in $(seq "$ROUNDS"); do
    if ((round % 2)); then order="ascend kineto"; else order="kineto ascend"; fi
    for reader in $order; do
      time_reader "$reader" "${flags[@]}" | tee -a "$results"
    done
  done
  # Medians over rounds of each JVM's medians; MB/s from them; the ratio ascend/kineto.
  awk '
    function median(list,   n, a, i, j, t) {
      n = split(list, a, " ")
      for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
      return a[int((n + 1) / 2)]
    }
    /^result/ {
      r = $2
      for (i = 3; i <= NF; i++) { split($i, kv, "="); v[r, kv[1]] = v[r, kv[1]] " " kv[2] }
      bytes[r] = substr($3, 7)
    }
    END {
      for (m = 1; m <= 3; m++) {
        f = m == 1 ? "read" : m == 2 ? "total" : "cpu"
        what = m == 1 ? "read only (the readers, no analysis)" : m == 2 ? "read+analyse, wall" : "read+analyse, process CPU"
        a = median(v["ascend", f]); k = median(v["kineto", f])
        printf "median %s: ascend %.3f s = %.0f MB/s; kineto %.3f s = %.0f MB/s; ascend/kineto MB/s = %.2f\n", \
          what, a, bytes["ascend"] / 1e6 / a, k, bytes["kineto"] / 1e6 / k, (bytes["ascend"] / a) / (bytes["kineto"] / k)
      }
    }' "$results"
done

# BIG=1: the same comparison end to end, as a user runs it: cold ./overlap-analyze runs (launcher
# defaults, JSON report to /dev/null) on a multi-gigabyte capture of the scenario and on its Kineto
# trace. JVM start, warm-up and analysis are in the time, and matter little at this size.
if [[ "${BIG:-0}" == "1" ]]; then
  BIGSTEPS="${BIGSTEPS:-2100}" # 3.2 GB of Ascend JSON, 6.0 GB of Kineto JSON: ~9.2 GB of disk
  java -Xmx4g -cp "$CP" "$MAIN" ascend "$WORK/big" "$BIGSTEPS" "$SMALL" 0 >/dev/null
  (mvn -B -q -ntp -DskipTests package >/dev/null)
  ascend_in="$WORK/big/ascend-$BIGSTEPS"
  ascend_in="$(find "$ascend_in" -mindepth 1 -maxdepth 1 -type d)"
  kineto_in="$WORK/big/kineto-$BIGSTEPS.json"
  ascend_bytes="$(find "$ascend_in" -name trace_view.json -exec stat -c %s {} +)"
  kineto_bytes="$(stat -c %s "$kineto_in")"
  echo "== cold CLI, launcher defaults: $BIGSTEPS steps, ascend $ascend_bytes bytes, kineto $kineto_bytes bytes"
  ./overlap-analyze samples/seed-1ms.pt.trace.json >/dev/null # a build and the CDS archive, before timing
  for round in 1 2 3; do
    if ((round % 2)); then order="ascend kineto"; else order="kineto ascend"; fi
    for reader in $order; do
      if [[ $reader == ascend ]]; then input="$ascend_in"; else input="$kineto_in"; fi
      /usr/bin/time -f "%e %M" -o "$WORK/time.txt" ./overlap-analyze -f json "$input" >/dev/null
      read -r wall rss <"$WORK/time.txt"
      echo "cli $reader round $round: ${wall} s wall, max RSS ${rss} kB"
    done
  done | tee "$WORK/cli.txt"
  awk -v ab="$ascend_bytes" -v kb="$kineto_bytes" '
    { t[$2] = t[$2] " " $5 }
    function median(list,   n, a, i, j, x) {
      n = split(list, a, " ")
      for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) { x = a[i]; a[i] = a[j]; a[j] = x }
      return a[int((n + 1) / 2)]
    }
    END {
      a = median(t["ascend"]); k = median(t["kineto"])
      printf "median cold CLI: ascend %.2f s = %.0f MB/s; kineto %.2f s = %.0f MB/s; ascend/kineto MB/s = %.2f\n", \
        a, ab / 1e6 / a, k, kb / 1e6 / k, (ab / a) / (kb / k)
    }' "$WORK/cli.txt"
fi
