#!/usr/bin/env bash
# Issue 8, acceptance 4 and 6: Ascend timeline (trace_view.json) read + analyse throughput against the
# Kineto reader on the same synthetic scenario, and a check of the Ascend output against a smaller copy
# and against the Kineto analysis. Usage: bench/ascend-read.sh [STEPS (default 140 = 213 MB of Ascend JSON,
# 400 MB of Kineto JSON, 350,560 device tasks)] [XMX (default 3g)] [REPEATS (default 5)]
# Writes the traces to a temporary directory (deleted afterwards; ~620 MB for 140 steps).
set -euo pipefail
cd "$(dirname "$0")/.."
STEPS="${1:-140}"
XMX="${2:-3g}"
REPEATS="${3:-5}"
SMALL=10
. bench/db-bench-classpath.sh
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
echo "machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'), $(free -g | awk '/Mem:/{print $2}') GiB RAM; load average: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "commit: $(git rev-parse --short HEAD 2>/dev/null || echo unknown)$(git diff --quiet 2>/dev/null || echo ' (modified)')"
java -Xmx4g -cp "$CP" "$MAIN" ascend "$WORK" "$STEPS" "$SMALL" 0 >/dev/null 2>&1 || true
if [ -x /usr/bin/time ]; then
  /usr/bin/time -v java -Xmx"$XMX" -cp "$CP" "$MAIN" ascend "$WORK" "$STEPS" "$SMALL" "$REPEATS" 2> "$WORK/time.txt"
  grep -E "Maximum resident set size|Elapsed \(wall clock\)" "$WORK/time.txt"
else
  java -Xmx"$XMX" -cp "$CP" "$MAIN" ascend "$WORK" "$STEPS" "$SMALL" "$REPEATS"
fi
