#!/usr/bin/env bash
# A/B of the Nsight SQLite reader of two builds on one synthetic export: each jar's NsysReader (public
# API only, bench/NsysReadTimer.java) reads the same file READS times per JVM, the two jars' JVMs
# alternating for ROUNDS rounds (ABAB...), under GNU time. Prints per JVM the reads' wall and process
# CPU seconds and the JVM's user/system CPU, wall and max RSS, then medians per jar. Compare CPU
# seconds on a shared machine: wall time there follows the other processes' load.
# Usage: bench/nsys-ab.sh OLD_JAR [NEW_JAR (default cli/target/overlap-analyze.jar)] [STEPS (800)]
#        [READS (3)] [ROUNDS (4)] [XMX (1g)]
# Build an old jar with: git worktree add /tmp/old REV && (cd /tmp/old && mvn -B -ntp -q -o -DskipTests package)
set -euo pipefail
cd "$(dirname "$0")/.."
OLD="$(realpath "$1")"
NEW="$(realpath "${2:-cli/target/overlap-analyze.jar}")"
STEPS="${3:-800}"
READS="${4:-3}"
ROUNDS="${5:-4}"
XMX="${6:-1g}"
[ -x /usr/bin/time ] || { echo "needs GNU time (/usr/bin/time)" >&2; exit 2; }
. bench/db-bench-classpath.sh
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
echo "machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'); load average: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "old: $OLD"
echo "new: $NEW ($(git rev-parse --short HEAD 2>/dev/null || echo unknown)$(git diff --quiet 2>/dev/null || echo ' modified'))"
java -Xmx4g -cp "$CP" "$MAIN" nsys "$WORK" "$STEPS" 20 0 >/dev/null 2>&1 || true
FILE="$WORK/bench-$STEPS.sqlite"
for side in old new; do
  jar=$([ "$side" = old ] && echo "$OLD" || echo "$NEW")
  mkdir -p "$WORK/timer-$side"
  javac -nowarn -d "$WORK/timer-$side" -cp "$jar" bench/NsysReadTimer.java
done
for round in $(seq 1 "$ROUNDS"); do
  for side in old new; do
    jar=$([ "$side" = old ] && echo "$OLD" || echo "$NEW")
    /usr/bin/time -f "TIME %U %S %e %M" java -Xmx"$XMX" -cp "$jar:$WORK/timer-$side" NsysReadTimer "$FILE" "$READS" \
      > "$WORK/out.txt" 2>&1 || { cat "$WORK/out.txt"; exit 1; }
    reads=$(grep '^read' "$WORK/out.txt" | sed -E 's/.* in ([0-9.]+) s wall \(([0-9.]+) s process CPU\).*/\1:\2/' | tr '\n' ' ')
    t=$(grep '^TIME' "$WORK/out.txt" | cut -d' ' -f2-)
    kernels=$(sed -n 's/^result kernels=\([0-9]*\).*/\1/p' "$WORK/out.txt")
    echo "$side round $round: reads wall:cpu s = $reads| JVM user sys wall(s) maxRSS(KB) = $t | load $(cut -d' ' -f1 /proc/loadavg)"
    echo "$side $kernels $reads $t" >> "$WORK/all.txt"
  done
done
# Medians per jar: over all reads (wall, read CPU, rows/s) and over JVMs (user+sys CPU, RSS).
python3 - "$WORK/all.txt" <<'PY'
import statistics as st, sys
rows = {}
for line in open(sys.argv[1]):
    f = line.split()
    side, kernels, reads, (u, s, e, m) = f[0], int(f[1]), [r.split(':') for r in f[2:-4]], f[-4:]
    d = rows.setdefault(side, {'wall': [], 'cpu': [], 'jvm': [], 'rss': [], 'k': kernels})
    d['wall'] += [float(w) for w, c in reads]; d['cpu'] += [float(c) for w, c in reads]
    d['jvm'].append(float(u) + float(s)); d['rss'].append(int(m) / 1024)
for side, d in rows.items():
    print(f"{side}: {d['k']:,} kernel rows; per read: median {d['k'] / st.median(d['wall']):,.0f} rows/s "
          f"(best {d['k'] / min(d['wall']):,.0f}), median read CPU {st.median(d['cpu']):.2f} s; per JVM: "
          f"median user+sys {st.median(d['jvm']):.2f} s, median max RSS {st.median(d['rss']):.0f} MB "
          f"({len(d['jvm'])} JVMs x {len(d['wall']) // len(d['jvm'])} reads)")
PY
