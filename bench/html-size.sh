#!/usr/bin/env bash
# Acceptance 3 of the pictures issue: the HTML report of a 64-rank, 50-step synthetic job stays
# under 5 MB and opens in Chromium in a few seconds. Writes the job with the scenario generator
# (seed-4ms, 50 steps, 5 % jitter, a different seed per rank), renders the report, and times
# headless Chromium loading it (--dump-dom returns after load) against a one-step report. The
# across-ranks section (offsets, mismatches, stragglers, rank x collective wait heatmap) is included.
#
# Usage: bench/html-size.sh [RANKS] [STEPS]   (results go to bench/out/html-size.txt)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ranks="${1:-64}"
steps="${2:-50}"
out="$root/bench/out"
job="$out/job-${ranks}x${steps}"
mkdir -p "$out" "$job"
command -v chromium >/dev/null || { echo "needs chromium (apt-get install -y chromium)" >&2; exit 2; }

(cd "$root" && mvn -B -q -ntp -DskipTests package >/dev/null)
jar="$root/cli/target/overlap-analyze.jar"

if [[ ! -f "$job/rank$((ranks - 1)).pt.trace.json" ]]; then
  for ((r = 0; r < ranks; r++)); do
    sed -e "s/\"rank\": 0, \"worldSize\": 2/\"rank\": $r, \"worldSize\": $ranks/" \
        -e "s/\"steps\": 1,/\"steps\": $steps,/" \
        -e "s/\"jitterPct\": 0, \"seed\": 1/\"jitterPct\": 5, \"seed\": $((1000 + r))/" \
        "$root/samples/seed-4ms.scenario.json" >"$job/rank$r.scenario.json"
    java -jar "$jar" synth "$job/rank$r.scenario.json" -o "$job/rank$r.pt.trace.json" 2>/dev/null
    rm "$job/rank$r.scenario.json"
  done
fi

big="$out/job-${ranks}x${steps}.html"
small="$out/seed-4ms.html"
start=$(date +%s.%N)
java -jar "$jar" "$job" --html "$big" -f json -o /dev/null
render=$(echo "$(date +%s.%N) - $start" | bc)
java -jar "$jar" "$root/samples/seed-4ms.pt.trace.json" --html "$small" -f json -o /dev/null

load() { # median wall seconds of 5 headless loads of $1
  local times=()
  for i in 1 2 3 4 5; do
    local profile; profile="$(mktemp -d)"
    local s; s=$(date +%s.%N)
    chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking \
      --disable-component-update --disable-sync --user-data-dir="$profile" --window-size=1400,900 \
      --dump-dom "file://$1" >/dev/null 2>&1
    times+=("$(echo "$(date +%s.%N) - $s" | bc)")
    rm -rf "$profile"
  done
  printf '%s\n' "${times[@]}" | sort -n | sed -n 3p
}

{
  echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(free -g | awk '/Mem:/{print $2}') GiB RAM"
  echo "jvm: $(java -version 2>&1 | head -1); browser: $(chromium --version 2>/dev/null)"
  echo "job: $ranks ranks x $steps steps, $(du -sh "$job" | cut -f1) of Kineto JSON"
  echo "report: $(stat -c %s "$big") bytes ($(grep -o '<svg class="timeline"' "$big" | wc -l) step timelines drawn), CLI read+analyse+render ${render} s (cold JVM)"
  echo "across-ranks section: $(grep -o '<section id="cross-rank".*</section>' "$big" | wc -c) bytes; wait heatmap $(grep -o '<svg class="heatmap"[^>]*data-kind="waits"' "$big" | grep -o 'data-rows="[0-9]*" data-cols="[0-9]*"' || echo "none (the section says why)")"
  echo "one-step report: $(stat -c %s "$small") bytes"
  echo "chromium load (median of 5, start to DOM dumped after load): big $(load "$big") s, one-step $(load "$small") s"
  echo "external references: $(grep -c -E 'https?://' "$big" || true)"
} | tee "$out/html-size.txt"
