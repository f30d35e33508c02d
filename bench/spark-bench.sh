#!/usr/bin/env bash
# Spark benchmark: the CLI against ./overlap-analyze-spark in local mode and on a standalone cluster
# (Master + Worker on 127.0.0.1, bench/spark-standalone.sh), on generated jobs, and what the driver
# holds (docs/PERFORMANCE.md, "Spark").
#
# Generates (with `overlap-analyze synth`, cached in WORKDIR) four jobs of the seed-4ms scenario with
# a slow rank (300 µs late every step), three bucket types and a reordered collective:
#   r256-s1  256 ranks x STEPS steps      r256-s4  256 ranks x 4*STEPS steps
#   r64-s1    64 ranks x STEPS steps      r64-s4    64 ranks x 4*STEPS steps
# then, each run under /usr/bin/time -v (wall, CPU, max RSS) with `-f json -o FILE`:
#   1. the digest's size per rank (bench/java DigestSize on rank 0 of r256-s1 and r256-s4);
#   2. on r256-s1: (a) the CLI, (b) the Spark launcher in local mode (local[*]), (b') the same with
#      the CLI's JVM flags for big inputs (C1, parallel GC), (c) the Spark launcher against the
#      standalone cluster; the executors' peak RSS is sampled with ps (the executor JVMs are the
#      Worker's children, so the driver's RSS is the submitting JVM's alone);
#   3. the driver's memory: the standalone run on the 4-rank sample job (Spark's own footprint) and
#      on all four jobs, driver heap DRIVER_XMX, a full GC forced every 3 s (jcmd GC.run) and logged
#      (-Xlog:gc): the largest heap after such a GC is the most the driver held live at a sample, to
#      set against ranks x digest bytes and the size of the JSON report;
#   4. equal outputs: every report's ranks and crossRank (every field but tool) equal the CLI's
#      (byte comparison first; python3 json comparison when the bytes differ); the 256 x 4*STEPS
#      job is not run by the CLI (it would hold every rank's model: ~4x the 4 GB RSS of r256-s1), its
#      Spark reports are compared with each other.
# Results: WORKDIR/results.txt (also printed). Nothing is installed; the standalone cluster is
# stopped at the end (also on failure). WORKDIR takes ~15 GB at STEPS=300 (10 GB of traces, the
# reports); where that is more than the page cache keeps, later runs read their ranks from the disk.
# About 10 minutes on 2 cores once the jobs exist (generating them: ~2 minutes).
#
# Usage: bench/spark-bench.sh [WORKDIR=/tmp/overlap-bench-spark] [STEPS=300]
# Environment:
#   SPARK_STANDALONE  the cluster script (default bench/spark-standalone.sh): `start DIR` prints the
#                     master URL, `stop DIR` stops it
#   DRIVER_XMX        driver heap of the standalone runs (default 1g)
#   SKIP_STANDALONE=1 CLI and local mode only
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
work="${1:-${TMPDIR:-/tmp}/overlap-bench-spark}"
steps="${2:-300}"
standalone="${SPARK_STANDALONE:-$root/bench/spark-standalone.sh}"
driver_xmx="${DRIVER_XMX:-1g}"
cli="$root/overlap-analyze"
spark="$root/overlap-analyze-spark"
. "$root/bench/launcher-opts.sh"
mkdir -p "$work"
work="$(cd "$work" && pwd)"
results="$work/results.txt"
: >"$results"
say() { echo "$*" | tee -a "$results"; }

# Builds outside the timings: the CLI and Spark jars (their launchers build on first use) and the
# benchmark programs.
"$cli" --version >/dev/null
"$spark" --version >/dev/null
(cd "$root" && mvn -B -q -ntp -Pbench -pl bench/java -am -Dmaven.test.skip=true package >/dev/null)
bench_cp="$root/cli/target/overlap-analyze.jar:$root/bench/java/target/overlap-analyze-bench.jar"

job() { # job NAME RANKS STEPS: writes WORKDIR/NAME (once per RANKS x STEPS)
  local name="$1" ranks="$2" n="$3" dir="$work/$1"
  if [[ -f "$dir.done" && "$(cat "$dir.done")" == "$ranks x $n" ]]; then return; fi
  rm -rf "$dir" "$dir.done"
  cat >"$work/$name.job.json" <<EOF
{
  "name": "bench-spark-$name",
  "description": "seed-4ms on $ranks ranks, $n steps; rank 37 is 300 us late every step; rank 50 reorders bucket 1 and 2 of step 5",
  "ranks": $ranks,
  "scenario": "seed-4ms",
  "steps": $n,
  "slowRank": 37,
  "delayUs": 300,
  "bucketTypes": ["allreduce", "reducescatter", "allgather"],
  "perturbations": [{"kind": "reorder", "rank": 50, "step": 5, "bucket": 1}]
}
EOF
  OVERLAP_ANALYZE_JAVA_OPTS="-XX:+UseParallelGC -Xmx8g" "$cli" synth "$work/$name.job.json" -o "$dir" >/dev/null
  echo "$ranks x $n" >"$dir.done"
}
job r64-s1 64 "$steps"
job r256-s1 256 "$steps"
job r64-s4 64 $((4 * steps))
job r256-s4 256 $((4 * steps))

timed() { # timed LABEL OUT CMD...: runs CMD under GNU time, records wall, CPU, max RSS and the load
  local label="$1" out="$2"
  shift 2
  local before
  before="$(cut -d' ' -f1-3 /proc/loadavg)"
  /usr/bin/time -v -o "$work/$label.time" "$@" >"$work/$label.stdout" 2>"$work/$label.stderr" || {
    echo "FAILED: $label (stderr: $work/$label.stderr)" | tee -a "$results"
    tail -5 "$work/$label.stderr" | tee -a "$results"
    return 1
  }
  last_end="$(date +%s)"
  local wall cpu rss
  wall="$(awk -F': ' '/Elapsed/ {n = split($2, t, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + t[i]; printf "%.1f", s}' "$work/$label.time")"
  cpu="$(awk -F': ' '/User time/ {u = $2} /System time/ {s = $2} END {printf "%.1f", u + s}' "$work/$label.time")"
  rss="$(awk -F': ' '/Maximum resident/ {printf "%d", $2 / 1024}' "$work/$label.time")"
  say "$label: wall ${wall} s, CPU ${cpu} s, max RSS ${rss} MB, report $(stat -c %s "$out") bytes, load before ${before}"
}

sample_executors() { # sample_executors FILE: the largest summed RSS (MB) of this cluster's executor JVMs, until killed
  local file="$1" max=0
  echo 0 >"$file"
  while :; do
    local sum=0 pid
    for pid in $(pgrep -f CoarseGrainedExecutorBackend || true); do
      # Only executors of this benchmark's Worker: their working directory is under its DIR.
      [[ "$(readlink "/proc/$pid/cwd" 2>/dev/null)" == "$work/cluster"* ]] || continue
      sum=$((sum + $(awk '/VmRSS/ {print $2}' "/proc/$pid/status" 2>/dev/null || echo 0)))
    done
    if ((sum > max)); then max=$sum; echo $((max / 1024)) >"$file"; fi
    sleep 0.5
  done
}

same() { # same A B: do A and B have equal ranks and crossRank (and every field but tool)?
  if cmp -s "$1" "$2"; then echo "byte-identical"; return; fi
  python3 - "$1" "$2" <<'EOF'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
for d in (a, b):
    d.pop("tool", None)
diff = [k for k in sorted(set(a) | set(b)) if a.get(k) != b.get(k)]
print("equal but tool" if not diff else "DIFFER in " + ", ".join(diff))
EOF
}

say "# spark-bench $(date -u +%FT%TZ), $(nproc) cores, $(java -version 2>&1 | head -1), steps=$steps"
for j in r64-s1 r256-s1 r64-s4 r256-s4; do
  say "job $j: $(cat "$work/$j.done"), $(du -sb "$work/$j" | cut -f1) bytes of traces"
done

say "## digest size per rank (DigestSize, rank 0)"
for j in r256-s1 r256-s4; do
  java -Xmx2g -cp "$bench_cp" io.overlapanalyze.bench.DigestSize "$work/$j/rank-0.pt.trace.json" | sed "s/^/$j: /" | tee -a "$results"
done

say "## 256 ranks x $steps steps: CLI, local mode, standalone"
timed cli-r256-s1 "$work/cli-r256-s1.json" "$cli" -f json -o "$work/cli-r256-s1.json" "$work/r256-s1"
timed local-r256-s1 "$work/local-r256-s1.json" "$spark" -f json -o "$work/local-r256-s1.json" "$work/r256-s1"
say "local-r256-s1 vs CLI: $(same "$work/cli-r256-s1.json" "$work/local-r256-s1.json")"
OVERLAP_ANALYZE_SPARK_JAVA_OPTS="$LAUNCHER_BIG_INPUT_OPTS -XX:MaxRAMPercentage=50" \
  timed local-cliflags-r256-s1 "$work/local-cliflags-r256-s1.json" \
  "$spark" -f json -o "$work/local-cliflags-r256-s1.json" "$work/r256-s1"
say "local-cliflags-r256-s1 vs CLI: $(same "$work/cli-r256-s1.json" "$work/local-cliflags-r256-s1.json")"

if [[ "${SKIP_STANDALONE:-}" == 1 ]]; then
  say "standalone: skipped (SKIP_STANDALONE=1)"
  cat "$results"
  exit 0
fi

rm -rf "$work/cluster"
mkdir -p "$work/cluster"
master="$("$standalone" start "$work/cluster" | tail -1)"
sampler=""
cleanup() {
  [[ -n "$sampler" ]] && kill "$sampler" 2>/dev/null || true
  "$standalone" stop "$work/cluster" >/dev/null 2>&1 || true
}
trap cleanup EXIT
say "standalone master: $master (script $standalone)"

sample_driver() { # sample_driver OUT: a full GC of the driver JVM (the one writing OUT) every 3 s, until killed
  local pid=""
  while :; do
    [[ -n "$pid" ]] || pid="$(pgrep -f -- "SparkAnalyze.* $1" | head -1 || true)"
    [[ -z "$pid" ]] || jcmd "$pid" GC.run >/dev/null 2>&1 || true
    sleep 3
  done
}

standalone_run() { # standalone_run LABEL INPUT [memory]: the Spark launcher on the cluster
  local label="$1" input="$2" memory="${3:-}" gclog="$work/$1.gc.log" dsampler=""
  local opts="-Xmx$driver_xmx"
  if [[ -n "$memory" ]]; then
    opts="$opts -Xlog:gc:file=$gclog"
    sample_driver "$work/$label.json" &
    dsampler=$!
  fi
  sample_executors "$work/$label.executor-rss" &
  sampler=$!
  OVERLAP_ANALYZE_SPARK_JAVA_OPTS="$opts" timed "$label" "$work/$label.json" \
    "$spark" --master "$master" -f json -o "$work/$label.json" "$input" || true
  kill "$sampler" $dsampler 2>/dev/null || true
  wait "$sampler" $dsampler 2>/dev/null || true
  sampler=""
  local line="$label: executors' peak RSS $(cat "$work/$label.executor-rss") MB (sum of the executor JVMs)"
  if [[ -n "$memory" ]]; then
    # After a forced full GC the heap holds only what is reachable: the driver's live set then.
    local live young
    live="$(grep 'Pause Full' "$gclog" | grep -o -- '->[0-9]*M' | tr -dc '0-9\n' | sort -n | tail -1)"
    young="$(grep -o -- '->[0-9]*M' "$gclog" | tr -dc '0-9\n' | sort -n | tail -1)"
    line="$line; driver -Xmx$driver_xmx: largest live heap after a forced full GC ${live:-?} MB ($(grep -c 'Pause Full' "$gclog") samples), largest heap after any GC ${young:-?} MB"
  fi
  # What the driver did after the last task ended (the cross-rank analysis and writing the report,
  # copying the part files in): from the executor log's last "Finished task" to the run's end.
  local app last
  app="$(ls -td "$work/cluster/work"/app-* 2>/dev/null | head -1)"
  last="$(grep -h 'Finished task' "$app"/*/stderr 2>/dev/null | tail -1 | awk '{print $1, $2}')"
  local sent
  sent="$(grep -ho '[0-9]\+ bytes result sent' "$app"/*/stderr 2>/dev/null | awk '{n++; t += $1; if ($1 + 0 > m) m = $1 + 0} END {if (n) printf "%d results, %.1f MB in all, largest %d bytes", n, t / 1e6, m}')"
  [[ -z "$sent" ]] || line="$line; task results to the driver: $sent"
  if [[ -n "$last" ]]; then
    line="$line; driver after the last task $((last_end - $(date -d "20${last%% *} ${last##* }" +%s))) s"
  fi
  say "$line"
}

standalone_run standalone-r256-s1 "$work/r256-s1"
say "standalone-r256-s1 vs CLI: $(same "$work/cli-r256-s1.json" "$work/standalone-r256-s1.json")"

say "## driver memory: standalone, a full GC forced every 3 s (jcmd GC.run), 4 ranks x 3 steps (Spark's own), 64 and 256 ranks at 1x and 4x steps"
standalone_run mem-samples-4rank "$root/samples/job-healthy-4rank" memory
for j in r64-s1 r256-s1 r64-s4 r256-s4; do
  standalone_run "mem-$j" "$work/$j" memory
done
timed cli-r64-s1 "$work/cli-r64-s1.json" "$cli" -f json -o "$work/cli-r64-s1.json" "$work/r64-s1"
timed cli-r64-s4 "$work/cli-r64-s4.json" "$cli" -f json -o "$work/cli-r64-s4.json" "$work/r64-s4"
say "mem-r64-s1 vs CLI: $(same "$work/cli-r64-s1.json" "$work/mem-r64-s1.json")"
say "mem-r256-s1 vs CLI: $(same "$work/cli-r256-s1.json" "$work/mem-r256-s1.json")"
say "mem-r64-s4 vs CLI: $(same "$work/cli-r64-s4.json" "$work/mem-r64-s4.json")"
timed local-r256-s4 "$work/local-r256-s4.json" "$spark" -f json -o "$work/local-r256-s4.json" "$work/r256-s4"
say "mem-r256-s4 vs local-r256-s4: $(same "$work/local-r256-s4.json" "$work/mem-r256-s4.json")"
say "# done $(date -u +%FT%TZ), load $(cut -d' ' -f1-3 /proc/loadavg)"
