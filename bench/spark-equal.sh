#!/usr/bin/env bash
# The Spark job's report is the CLI's: runs both launchers with `-f json -o` on the multi-rank
# samples and on generated 16- and 64-rank jobs (a slow rank and a reordered collective), and
# compares `ranks` and `crossRank` (every field but `tool`) as JSON values, then the bytes.
# Usage: bench/spark-equal.sh [workdir=/tmp/overlap-spark-equal] [extra overlap-analyze-spark options...]
# e.g. bench/spark-equal.sh /tmp/eq --master spark://127.0.0.1:7077   (a running standalone cluster)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
work="${1:-${TMPDIR:-/tmp}/overlap-spark-equal}"
shift || true
rm -rf "$work" && mkdir -p "$work"

job() { # name ranks
  cat >"$work/$1.job.json" <<JOB
{"name": "$1", "ranks": $2, "scenario": "seed-4ms", "steps": 4, "slowRank": 3, "delayUs": 300,
 "bucketTypes": ["allreduce", "reducescatter", "allreduce"],
 "perturbations": [{"kind": "reorder", "rank": 5, "step": 2, "bucket": 2}]}
JOB
  "$root/overlap-analyze" synth "$work/$1.job.json" -o "$work/$1" >/dev/null
}
job job16 16
job job64 64

status=0
for input in "$root/samples/job-healthy-4rank" "$root/samples/job-order-mismatch" "$work/job16" "$work/job64"; do
  name="$(basename "$input")"
  "$root/overlap-analyze" -f json -o "$work/$name.cli.json" "$input"
  "$root/overlap-analyze-spark" "$@" -f json -o "$work/$name.spark.json" "$input"
  if python3 - "$work/$name.cli.json" "$work/$name.spark.json" <<'PY'
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
assert a["crossRank"] is not None, "no cross-rank section to compare"
same = a["ranks"] == b["ranks"] and a["crossRank"] == b["crossRank"]
print(f"{len(a['ranks'])} ranks, {len(a['crossRank'].get('mismatches', []))} mismatches: "
      + ("ranks and crossRank equal" if same else "DIFFERENT"))
sys.exit(0 if same else 1)
PY
  then
    cmp -s "$work/$name.cli.json" "$work/$name.spark.json" && echo "  $name: the same bytes" \
      || echo "  $name: equal values, bytes differ"
  else
    echo "  $name: DIFFERENT" >&2
    status=1
  fi
done
exit "$status"
