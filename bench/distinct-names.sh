#!/usr/bin/env bash
# Name interning must stay linear whatever the names (docs/PERFORMANCE.md, "Readers", Kineto): two
# Kineto traces of the same size and shape, one whose N user annotations all have distinct names
# ("region_0000001_forward_pass", ...), one where they all share one name of the same length
# ("region_0000000_forward_pass"). Each annotation holds a CPU op, its cudaLaunchKernel and the
# kernel. Prints the best of REPEATS wall times of `-f json` for each, and their ratio.
#
# Usage: bench/distinct-names.sh [N (default 200000)] [REPEATS (default 3)] [JAR (default: build this tree)]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
N="${1:-200000}"
REPEATS="${2:-3}"
jar="${3:-}"
. "$root/bench/launcher-opts.sh"
if [[ -z "$jar" ]]; then
  (cd "$root" && mvn -B -q -ntp -DskipTests package >/dev/null)
  jar="$root/cli/target/overlap-analyze.jar"
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

python3 - "$N" "$work" <<'PY'
import sys
n, work = int(sys.argv[1]), sys.argv[2]
steps = 20
per_step = max(1, n // steps)

def write(path, distinct):
    with open(path, "w") as f:
        f.write('{"schemaVersion": 1, "deviceProperties": [], "traceEvents": [\n')
        t = 1_000_000
        sep = ""
        for step in range(steps):
            step_start = t
            body = []
            for k in range(per_step):
                i = step * per_step + k + 1
                name = "region_%07d_forward_pass" % (i if distinct else 0)
                body.append('{"ph":"X","cat":"user_annotation","name":"%s","pid":1,"tid":1,"ts":%d,"dur":8}' % (name, t))
                body.append('{"ph":"X","cat":"cpu_op","name":"aten::mul","pid":1,"tid":1,"ts":%d,"dur":6,'
                            '"args":{"External id":%d}}' % (t + 1, i))
                body.append('{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":%d,"dur":4,'
                            '"args":{"correlation":%d,"External id":%d}}' % (t + 2, i, i))
                body.append('{"ph":"X","cat":"kernel","name":"void at::native::vectorized_elementwise_kernel<4>",'
                            '"pid":0,"tid":7,"ts":%d,"dur":5,"args":{"correlation":%d,"stream":7,"device":0}}'
                            % (t + 20, i))
                t += 10
            f.write(sep + '{"ph":"X","cat":"user_annotation","name":"ProfilerStep#%d","pid":1,"tid":1,"ts":%d,"dur":%d}'
                    % (step, step_start, t - step_start))
            sep = ",\n"
            f.write(",\n" + ",\n".join(body))
            t += 50
        f.write('\n], "baseTimeNanoseconds": 1700000000000000000}\n')

write(work + "/distinct.json", True)
write(work + "/repeated.json", False)
PY

echo "machine: $(nproc) CPUs, load average: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "traces: $(stat -c '%n %s bytes' "$work"/distinct.json "$work"/repeated.json | sed "s|$work/||" | tr '\n' ';')"
best() {
  local file="$1" b="" s e ms
  for _ in $(seq "$REPEATS"); do
    s=$(date +%s%N)
    # shellcheck disable=SC2086
    java $LAUNCHER_BIG_INPUT_OPTS -XX:MaxRAMPercentage=50 -jar "$jar" -f json "$file" >/dev/null
    e=$(date +%s%N)
    ms=$(((e - s) / 1000000))
    [[ -z "$b" || "$ms" -lt "$b" ]] && b="$ms"
  done
  echo "$b"
}
d="$(best "$work/distinct.json")"
r="$(best "$work/repeated.json")"
echo "distinct names: ${d} ms; one repeated name: ${r} ms; ratio $(awk -v d="$d" -v r="$r" 'BEGIN {printf "%.2f", d / r}')"
