# Sourced by bench/run.sh, bench/multirank.sh and bench/ascend-read.sh: the JVM options that
# ./overlap-analyze picks for inputs of 32 MB or more (keep in step with the launcher), so that the
# benchmarks time the readers as a user's run of that size gets them.
LAUNCHER_BIG_INPUT_OPTS="-XX:+UseParallelGC -XX:TieredStopAtLevel=1 -XX:NewRatio=1"
if grep -qs '\[\(always\|madvise\)\]' /sys/kernel/mm/transparent_hugepage/enabled; then
  LAUNCHER_BIG_INPUT_OPTS+=" -XX:+UseTransparentHugePages"
fi
# The launcher's options for one big JSON trace (a single *.json or *.json.gz input): the serial
# collector, the heap from 256 MB growing only to what is live, at most half the machine.
LAUNCHER_SINGLE_INPUT_OPTS="-XX:+UseSerialGC -XX:TieredStopAtLevel=1 -XX:MaxRAMPercentage=50 -Xms256m -XX:MinHeapFreeRatio=10 -XX:MaxHeapFreeRatio=30"
if grep -qs '\[\(always\|madvise\)\]' /sys/kernel/mm/transparent_hugepage/enabled; then
  LAUNCHER_SINGLE_INPUT_OPTS+=" -XX:+UseTransparentHugePages"
fi
