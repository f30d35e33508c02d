#!/usr/bin/env bash
# The README's pictures: the HTML report's timeline of the two seed samples and a job's first
# screen, rendered by the CLI and photographed by headless Chromium. '#only-<step>' shows that step's timeline alone.
#
# Usage: docs/screenshots/make.sh   (needs chromium: apt-get install -y chromium)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
out="$root/docs/screenshots"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
for sample in seed-1ms seed-4ms; do
  "$root/overlap-analyze" "$root/samples/$sample.pt.trace.json" --html "$work/$sample.html" -f json -o /dev/null
  chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking \
    --disable-component-update --disable-sync --hide-scrollbars --user-data-dir="$work/profile" \
    --window-size=1180,290 --screenshot="$out/$sample-timeline.png" \
    "file://$work/$sample.html#only-rank-0-step-0" 2>/dev/null
  echo "wrote docs/screenshots/$sample-timeline.png"
done
# A job's page opens with the job at a glance: its first screen.
(cd "$root" && ./overlap-analyze samples/job-order-mismatch --html "$work/job.html" -f json -o /dev/null)  # a relative path: the page names it
chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking \
  --disable-component-update --disable-sync --hide-scrollbars --user-data-dir="$work/profile" \
  --window-size=1180,1500 --screenshot="$out/job-order-mismatch-overview.png" "file://$work/job.html" 2>/dev/null
echo "wrote docs/screenshots/job-order-mismatch-overview.png"
