#!/usr/bin/env bash
# Are two builds' outputs the same bytes? Runs every command (analyse as text, JSON, markdown and
# HTML, summary, diff, gate, whatif, annotate) with jar A and jar B on the bundled samples and on
# every real trace in ../shared/traces, and compares stdout, stderr, the exit code and every file
# written, byte for byte. A restructuring that must not change a report is checked with it:
#
#   git worktree add /tmp/before <commit> && (cd /tmp/before && mvn -o -q -pl cli -am package -DskipTests)
#   mvn -o -q -pl cli -am package -DskipTests
#   bench/compare-builds.sh /tmp/before/cli/target/overlap-analyze.jar cli/target/overlap-analyze.jar
#
# All cases take about 7 minutes on 2 cores; KINDS="text json" runs only those commands.
# Prints one line per case that differs and a count; exit 0 when every case is the same, 1 when
# one differs. Outputs are kept in WORK (default a fresh temporary folder, removed on exit unless
# KEEP=1) as WORK/a/CASE.* and WORK/b/CASE.*. Paths inside outputs are the same for both jars
# (each writes into its own folder of the same name under a shared parent, run from that folder).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
jar_a="$(realpath "${1:?usage: compare-builds.sh JAR_A JAR_B}")"
jar_b="$(realpath "${2:?usage: compare-builds.sh JAR_A JAR_B}")"
shared="$root/../shared/traces"
work="$(mktemp -d "${TMPDIR:-/tmp}/compare-builds.XXXXXX")"
[[ "${KEEP:-0}" == 1 ]] || trap 'rm -rf "$work"' EXIT
java_opts=(-Xmx2g -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Duser.timezone=UTC)

inputs=()
for f in "$root"/samples/*.pt.trace.json* "$root"/samples/job-healthy-4rank "$root"/samples/job-order-mismatch; do
  inputs+=("$f")
done
if [[ -d "$shared" ]]; then
  for f in "$shared"/kineto/* "$shared"/nsys/*.sqlite "$shared"/ascend/* "$shared"/flight-recorder/*; do
    inputs+=("$f")
  done
  # two ranks of one job, read together (cross-rank)
  inputs+=("$shared/kineto/hta_trace_filter_sampled_rank0of128.json.gz|$shared/kineto/hta_trace_filter_sampled_rank1of128.json.gz")
else
  echo "compare-builds: $shared is absent: comparing the bundled samples only" >&2
fi

# KINDS narrows the commands (e.g. KINDS="json html" for a quicker check); all by default
kinds=" ${KINDS:-text json markdown html summary gate diff annotate whatif patterns} "
wanted() { [[ "$kinds" == *" $1 "* ]]; }

# one case: NAME then the arguments after `java -jar JAR`; {out} is replaced by an output file
run_case() {
  local name="$1"; shift
  wanted "${name##*.}" || return 0
  local side
  for side in a b; do
    local jar="$jar_a"; [[ $side == b ]] && jar="$jar_b"
    local dir="$work/$side/$name"
    mkdir -p "$dir"
    local args=() arg
    for arg in "$@"; do args+=("${arg//\{out\}/out}"); done
    (cd "$dir" && COLUMNS=100 NO_COLOR=1 timeout 600 java "${java_opts[@]}" -jar "$jar" "${args[@]}" \
        >stdout 2>stderr; echo $? >rc) || true
  done
  # the jar's own path never appears in output; the working folders are WORK/a/NAME and WORK/b/NAME
  sed -i "s#$work/b/#$work/a/#g" "$work/b/$name"/* 2>/dev/null || true
  if ! diff -rq "$work/a/$name" "$work/b/$name" >/dev/null; then
    echo "DIFFERENT  $name: $(diff -rq "$work/a/$name" "$work/b/$name" | sed "s#$work/##g" | tr '\n' ';')"
    different=$((different + 1))
  fi
  cases=$((cases + 1))
}

cases=0
different=0
for input in "${inputs[@]}"; do
  IFS='|' read -r -a paths <<<"$input"
  name="$(basename "${paths[0]}")"
  [[ ${#paths[@]} -gt 1 ]] && name="$name+$((${#paths[@]} - 1))"
  run_case "$name.text" "${paths[@]}"
  run_case "$name.json" -f json "${paths[@]}"
  run_case "$name.markdown" -f markdown --detail all "${paths[@]}"
  run_case "$name.html" --html "{out}" -o /dev/null "${paths[@]}"
  run_case "$name.summary" summary -o "{out}" "${paths[@]}"
  run_case "$name.gate" gate --baseline "${paths[0]}" "${paths[@]}"
  run_case "$name.diff" diff "${paths[0]}" "${paths[0]}"
  run_case "$name.annotate" annotate -o "{out}.json" "${paths[@]}"
  [[ ${#paths[@]} -eq 1 ]] && run_case "$name.whatif" whatif "${paths[0]}"
done
# the kernel-pattern options on every reader
for input in "$root/samples/seed-1ms.pt.trace.json" "$shared/nsys/nsys2026.2.1_2gpu_pytorch_nvtx.sqlite" \
    "$shared/ascend/torch_npu_text_level1"; do
  [[ -e "$input" ]] || continue
  run_case "$(basename "$input").patterns" -f json --fused-kernel '.' "$input"
done

echo "compare-builds: $cases cases, $different different"
[[ $different -eq 0 ]]
