# Sourced by bench/run.sh, bench/multirank.sh and bench/ascend-read.sh: the JVM options that
# ./overlap-analyze picks for inputs of 32 MB or more (keep in step with the launcher), so that the
# benchmarks time the readers as a user's run of that size gets them.
LAUNCHER_BIG_INPUT_OPTS="-XX:+UseParallelGC -XX:TieredStopAtLevel=1 -XX:NewRatio=1"
if grep -qs '\[\(always\|madvise\)\]' /sys/kernel/mm/transparent_hugepage/enabled; then
  LAUNCHER_BIG_INPUT_OPTS+=" -XX:+UseTransparentHugePages"
fi
