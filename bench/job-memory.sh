#!/usr/bin/env bash
# A job of any size on one machine (issue 32): memory follows the ranks read at once, not the job.
# For each size RANKSxSTEPS it writes a seed-4ms job with `overlap-analyze synth` (slow rank 37, 300 us
# late every step; bucket types all-reduce / reduce-scatter / all-gather; rank 50 reorders two
# collectives in step 5: bench/spark-bench.sh's job), runs the CLI as a user runs it (./overlap-analyze,
# which picks the heap) with `-f json -o` and with the default text report (`-o`) under
# /usr/bin/time -v, and prints wall, CPU (user+sys) and peak RSS; then ./overlap-analyze-spark in local
# mode the same way, and whether the two JSON reports are the same bytes (else whether ranks and
# crossRank are equal values, as bench/spark-equal.sh).
#
# Usage: bench/job-memory.sh [WORKDIR=/tmp/overlap-job-memory] [SIZES="64x50 256x300 1024x300"]
#   SPARK=0 skips Spark; TEXT=0 skips the text report; HTML=0 skips the HTML page (written with the text
#   report beside it, `--html FILE -o FILE`, timed; that text report is compared with the text run's);
#   BASE_JAR=JAR also writes the text report with another build (java -jar, -Xmx12g) and says whether
#   it is the same bytes (not timed), and the page with it as the launcher ran a page before it spilled
#   (the parallel collector, half the machine: timed) and whether the page is the same bytes; KEEP=1 keeps
#   each generated job (by default a job is deleted after its runs: 1,024 x 300 is ~13 GB of JSON and
#   its report ~1.4 GB). A job already in WORKDIR is reused.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
work="${1:-${TMPDIR:-/tmp}/overlap-job-memory}"
sizes="${2:-64x50 256x300 1024x300}"
cli="$root/overlap-analyze"
spark="$root/overlap-analyze-spark"
mkdir -p "$work"
"$cli" --version >/dev/null 2>&1 || true # builds the jar if needed, outside the timings

timed() { # timed LABEL LOG COMMAND...: runs it under /usr/bin/time -v and prints one line of figures
  local label="$1" log="$2"
  shift 2
  /usr/bin/time -v -o "$log" "$@" 2>"$log.err" >/dev/null
  awk -v label="$label" -F': ' '
    /User time/ { u = $2 } /System time/ { s = $2 } /Maximum resident/ { rss = $2 }
    /Elapsed \(wall clock\)/ { n = split($2, p, ":"); wall = 0; for (i = 1; i <= n; i++) wall = wall * 60 + p[i] }
    END { printf "  %-6s wall %7.1f s   CPU %7.1f s   peak RSS %6.0f MB\n", label, wall, u + s, rss / 1024 }' "$log"
  grep -h "overlap-analyze: a big job" "$log.err" | sed 's/^/         /' || true
}

for size in $sizes; do
  ranks="${size%x*}"
  steps="${size#*x}"
  name="job-$ranks-$steps"
  dir="$work/$name"
  if [[ ! -f "$dir.done" ]]; then
    rm -rf "$dir"
    cat >"$work/$name.job.json" <<JOB
{"name": "$name", "ranks": $ranks, "scenario": "seed-4ms", "steps": $steps, "slowRank": 37, "delayUs": 300,
 "bucketTypes": ["allreduce", "reducescatter", "allgather"],
 "perturbations": [{"kind": "reorder", "rank": 50, "step": 5, "bucket": 1}]}
JOB
    # The generator plans every rank in memory: it needs several GB for the big job (not what is measured).
    OVERLAP_ANALYZE_JAVA_OPTS="-XX:+UseParallelGC -Xmx12g" "$cli" synth "$work/$name.job.json" -o "$dir" >/dev/null
    touch "$dir.done"
  fi
  echo "## $ranks ranks x $steps steps: $(du -sh "$dir" | cut -f1) of Kineto JSON, $(nproc) cores, $(awk '/MemTotal/{printf "%.0f GiB", $2/1048576}' /proc/meminfo), load $(cut -d' ' -f1 /proc/loadavg)"
  timed cli "$work/$name.cli.time" "$cli" -f json -o "$work/$name.cli.json" "$dir"
  if [[ "${TEXT:-1}" != 0 ]]; then
    timed text "$work/$name.text.time" "$cli" -o "$work/$name.cli.txt" "$dir"
    echo "         the text report: $(wc -l <"$work/$name.cli.txt") lines"
    if [[ -n "${BASE_JAR:-}" ]]; then
      java -Xmx12g -XX:+UseParallelGC -jar "$BASE_JAR" -o "$work/$name.base.txt" "$dir" 2>/dev/null
      if cmp -s "$work/$name.cli.txt" "$work/$name.base.txt"; then
        echo "         the text report and $(basename "$BASE_JAR")'s: the same bytes"
      else
        echo "         the text report and $(basename "$BASE_JAR")'s: DIFFERENT"
      fi
    fi
  fi
  if [[ "${HTML:-1}" != 0 ]]; then
    timed html "$work/$name.html.time" "$cli" --html "$work/$name.cli.html" -o "$work/$name.html.txt" "$dir"
    echo "         the page: $(du -h "$work/$name.cli.html" | cut -f1)"
    if [[ -f "$work/$name.cli.txt" ]]; then
      if cmp -s "$work/$name.cli.txt" "$work/$name.html.txt"; then
        echo "         the text report beside the page and the text run's: the same bytes"
      else
        echo "         the text report beside the page and the text run's: DIFFERENT"
      fi
    fi
    if [[ -n "${BASE_JAR:-}" ]]; then
      timed html-b "$work/$name.base-html.time" java -XX:+UseParallelGC -XX:TieredStopAtLevel=1 -XX:NewRatio=1 \
        -XX:MaxRAMPercentage=50 -jar "$BASE_JAR" --html "$work/$name.base.html" -o "$work/$name.base-html.txt" "$dir"
      if cmp -s "$work/$name.cli.html" "$work/$name.base.html"; then
        echo "         the page and $(basename "$BASE_JAR")'s: the same bytes"
      else
        echo "         the page and $(basename "$BASE_JAR")'s: DIFFERENT"
      fi
    fi
  fi
  if [[ "${SPARK:-1}" != 0 ]]; then
    timed spark "$work/$name.spark.time" "$spark" -f json -o "$work/$name.spark.json" "$dir"
    if cmp -s "$work/$name.cli.json" "$work/$name.spark.json"; then
      echo "  the CLI's and Spark's JSON: the same bytes ($(du -h "$work/$name.cli.json" | cut -f1))"
    elif python3 - "$work/$name.cli.json" "$work/$name.spark.json" <<'PY'
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
sys.exit(0 if a["ranks"] == b["ranks"] and a["crossRank"] == b["crossRank"] else 1)
PY
    then
      echo "  the CLI's and Spark's JSON: ranks and crossRank equal, bytes differ"
    else
      echo "  the CLI's and Spark's JSON: DIFFERENT"
    fi
  fi
  if [[ "${KEEP:-0}" != 1 ]]; then
    rm -rf "$dir" "$dir.done" "$work/$name".*.json "$work/$name".*.txt "$work/$name".*.html
  fi
done
