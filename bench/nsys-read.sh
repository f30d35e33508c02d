#!/usr/bin/env bash
# Issue 4, acceptance 4: Nsight SQLite reading throughput on a synthetic export of >= 2 million
# kernels, and its memory. Usage: bench/nsys-read.sh [STEPS (default 800 = 2,003,200 kernels)] [XMX for reading]
# Writes the export to a temporary directory (deleted afterwards) and prints the numbers that
# docs/PERFORMANCE.md records. Needs Maven (test classes) and GNU time for the RSS line.
set -euo pipefail
cd "$(dirname "$0")/.."
STEPS="${1:-800}"
XMX="${2:-1g}"
mvn -q -B -ntp -pl trace-formats test-compile dependency:build-classpath -Dmdep.outputFile=target/bench.classpath >/dev/null
CP="trace-formats/target/test-classes:trace-formats/target/classes:$(cat trace-formats/target/bench.classpath)"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
MAIN=io.overlapanalyze.formats.nsys.bench.NsysReadBench
echo "machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'), $(free -g | awk '/Mem:/{print $2}') GiB RAM"
echo "jvm: $(java -version 2>&1 | head -n 2 | tail -n 1)"
java -Xmx4g -cp "$CP" "$MAIN" generate "$WORK/bench.sqlite" "$STEPS"
if [ -x /usr/bin/time ]; then
  /usr/bin/time -v java -Xmx"$XMX" -cp "$CP" "$MAIN" read "$WORK/bench.sqlite" 3 2> "$WORK/time.txt"
  grep -E "Maximum resident set size|Elapsed \(wall clock\)" "$WORK/time.txt"
else
  java -Xmx"$XMX" -cp "$CP" "$MAIN" read "$WORK/bench.sqlite" 3
fi
