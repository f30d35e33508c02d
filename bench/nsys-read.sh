#!/usr/bin/env bash
# Issue 8 (acceptance 4 and 6), first issue 4: Nsight SQLite reading throughput on a synthetic export
# of >= 2 million kernels, its memory, and a check of its output against a smaller copy.
# Usage: bench/nsys-read.sh [STEPS (default 800 = 2,003,200 kernels)] [XMX for reading (default 1g)] [REPEATS (5)]
# Writes the exports to a temporary directory (deleted afterwards; ~265 MB for 800 steps) and prints
# the numbers that docs/PERFORMANCE.md records. Needs Maven (test classes) and GNU time for the RSS line.
set -euo pipefail
cd "$(dirname "$0")/.."
STEPS="${1:-800}"
XMX="${2:-1g}"
REPEATS="${3:-5}"
SMALL=20
. bench/db-bench-classpath.sh
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
echo "machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'), $(free -g | awk '/Mem:/{print $2}') GiB RAM; load average: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "commit: $(git rev-parse --short HEAD 2>/dev/null || echo unknown)$(git diff --quiet 2>/dev/null || echo ' (modified)')"
# Generate in one JVM (not timed), read in a fresh one.
java -Xmx4g -cp "$CP" "$MAIN" nsys "$WORK" "$STEPS" "$SMALL" 0 >/dev/null 2>&1 || true
if [ -x /usr/bin/time ]; then
  /usr/bin/time -v java -Xmx"$XMX" -cp "$CP" "$MAIN" nsys "$WORK" "$STEPS" "$SMALL" "$REPEATS" 2> "$WORK/time.txt"
  grep -E "Maximum resident set size|Elapsed \(wall clock\)" "$WORK/time.txt"
else
  java -Xmx"$XMX" -cp "$CP" "$MAIN" nsys "$WORK" "$STEPS" "$SMALL" "$REPEATS"
fi
