#!/usr/bin/env bash
# A Spark standalone cluster on this machine for the benchmark: one Master and one Worker on
# 127.0.0.1, started from the Spark module's build (Spark from Maven; no Spark installation), the
# way the tests' StandaloneCluster starts them.
#
# Usage: bench/spark-standalone.sh start DIR   prints the master URL (spark://127.0.0.1:PORT)
#        bench/spark-standalone.sh stop DIR    stops the Worker (and its executors) and the Master
#
# DIR holds the cluster's logs (master.log, worker.log), the Worker's work directory (work/: the
# executors' stdout and stderr per application), its SPARK_HOME and the processes' ids. Then:
#   ./overlap-analyze-spark --master "$(cat DIR/master-url)" -f json -o report.json TRACES...
# or, as on a cluster:
#   java $(cat spark/target/spark-java-options.txt) \
#     -cp "spark/target/overlap-analyze-spark.jar:$(cat spark/target/spark-classpath.txt)" \
#     org.apache.spark.deploy.SparkSubmit --master "$(cat DIR/master-url)" \
#     --class io.overlapanalyze.spark.SparkAnalyze spark/target/overlap-analyze-spark.jar -f json -o report.json TRACES...
#
# The Worker's SPARK_HOME/jars holds links to the jars of Spark from Maven (spark-classpath.txt),
# as a Spark installation's jars/ holds its own: executors start with Spark on their classpath and
# get the application's jar from the driver. Ports are the system's choice.
#
# Environment:
#   WORKER_CORES   cores the Worker offers (default: every core, nproc)
#   WORKER_MEMORY  memory the Worker offers executors (default 2g; an executor takes
#                  spark.executor.memory, 1g unless the job sets it)
#   JAVA           java executable (default: java on PATH, or $JAVA_HOME/bin/java)
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
target="$root/spark/target"
jar="$target/overlap-analyze-spark.jar"
classpath_file="$target/spark-classpath.txt"
options_file="$target/spark-java-options.txt"
start_timeout_s=60

usage() {
  echo "usage: $0 start|stop DIR" >&2
  exit 2
}

[[ $# -eq 2 ]] || usage
cmd="$1"
dir="$2"

if [[ -n "${JAVA:-}" ]]; then
  java_cmd="$JAVA"
elif [[ -n "${JAVA_HOME:-}" && -x "$JAVA_HOME/bin/java" ]]; then
  java_cmd="$JAVA_HOME/bin/java"
else
  java_cmd=java
fi

# Waits until FILE has a line matching REGEX (printing the match), or fails after the timeout or
# when process PID has exited.
wait_for() {
  local file="$1" regex="$2" pid="$3" what="$4" waited=0
  while true; do
    if [[ -f "$file" ]] && grep -Eo "$regex" "$file" | head -n 1 | grep .; then
      return 0
    fi
    if ! kill -0 "$pid" 2>/dev/null; then
      echo "spark-standalone: $what: the process exited; the end of $file:" >&2
      tail -n 20 "$file" >&2 || true
      return 1
    fi
    if (( waited >= start_timeout_s * 10 )); then
      echo "spark-standalone: $what: not within ${start_timeout_s} s; the end of $file:" >&2
      tail -n 20 "$file" >&2 || true
      return 1
    fi
    sleep 0.1
    waited=$((waited + 1))
  done
}

# Every descendant of PID, deepest first.
descendants() {
  local child
  for child in $(ps -o pid= --ppid "$1" 2>/dev/null); do
    descendants "$child"
    echo "$child"
  done
}

# Stops PID and what it started: TERM, then KILL after 10 s for what is left.
stop_tree() {
  local pid="$1" waited=0 p
  kill -0 "$pid" 2>/dev/null || return 0
  local all
  all="$(descendants "$pid") $pid"
  for p in $all; do kill -TERM "$p" 2>/dev/null || true; done
  for p in $all; do
    while kill -0 "$p" 2>/dev/null && (( waited < 100 )); do
      sleep 0.1
      waited=$((waited + 1))
    done
    kill -KILL "$p" 2>/dev/null || true
  done
}

stop() {
  local name
  for name in worker master; do
    if [[ -f "$dir/$name.pid" ]]; then
      stop_tree "$(cat "$dir/$name.pid")"
      rm -f "$dir/$name.pid"
    fi
  done
  rm -f "$dir/master-url"
}

start() {
  if [[ -f "$dir/master.pid" ]] && kill -0 "$(cat "$dir/master.pid")" 2>/dev/null; then
    echo "spark-standalone: a cluster is already running in $dir (stop it first)" >&2
    exit 2
  fi
  if [[ ! -f "$jar" || ! -f "$classpath_file" || ! -f "$options_file" ]]; then
    echo "spark-standalone: building the Spark module..." >&2
    (cd "$root" && mvn -B -q -ntp -Dmaven.test.skip=true package -pl spark -am >&2)
  fi
  mkdir -p "$dir"
  dir="$(cd "$dir" && pwd)"
  local spark_home="$dir/spark-home"
  rm -rf "$spark_home"
  mkdir -p "$spark_home/jars" "$dir/work"
  local entry
  IFS=: read -r -a entries <"$classpath_file" || true # no newline at its end
  for entry in "${entries[@]}"; do
    [[ "$entry" == *.jar ]] && ln -sf "$entry" "$spark_home/jars/"
  done
  # The daemons log at INFO to their own files: the master URL and the registration are read there.
  cat >"$dir/log4j2-cluster.properties" <<'EOF'
rootLogger.level = warn
rootLogger.appenderRef.stderr.ref = console
appender.console.type = Console
appender.console.name = console
appender.console.target = SYSTEM_ERR
appender.console.layout.type = PatternLayout
appender.console.layout.pattern = %d{HH:mm:ss} %p %c{1}: %m%n%ex
logger.deploy.name = org.apache.spark.deploy
logger.deploy.level = info
EOF
  local scala_version
  scala_version="$(basename "$(tr ':' '\n' <"$classpath_file" | grep -m1 '/spark-core_')" | sed -E 's/^spark-core_([0-9.]+)-.*/\1/')"
  local spark_opts
  read -r -a spark_opts <"$options_file" || true
  local cp="$jar:$(cat "$classpath_file")"
  export SPARK_HOME="$spark_home" SPARK_SCALA_VERSION="$scala_version" SPARK_LOCAL_IP=127.0.0.1 \
    SPARK_LOCAL_HOSTNAME=127.0.0.1
  unset SPARK_CONF_DIR
  local daemon=("$java_cmd" "${spark_opts[@]}" -Xmx256m "-Dlog4j2.configurationFile=file:$dir/log4j2-cluster.properties" -cp "$cp")

  (cd "$dir" && exec setsid "${daemon[@]}" org.apache.spark.deploy.master.Master \
    --host 127.0.0.1 --port 0 --webui-port 0 >"$dir/master.log" 2>&1 </dev/null) &
  echo $! >"$dir/master.pid"
  local url
  if ! url="$(wait_for "$dir/master.log" 'Starting Spark master at spark://[^ ]+' "$(cat "$dir/master.pid")" \
      "the Master")"; then
    stop
    exit 1
  fi
  url="${url##* }"
  (cd "$dir" && exec setsid "${daemon[@]}" org.apache.spark.deploy.worker.Worker \
    --host 127.0.0.1 --port 0 --webui-port 0 --cores "${WORKER_CORES:-$(nproc)}" --memory "${WORKER_MEMORY:-2g}" \
    --work-dir "$dir/work" "$url" >"$dir/worker.log" 2>&1 </dev/null) &
  echo $! >"$dir/worker.pid"
  if ! wait_for "$dir/worker.log" 'Successfully registered with master' "$(cat "$dir/worker.pid")" "the Worker" >/dev/null; then
    stop
    exit 1
  fi
  echo "$url" >"$dir/master-url"
  echo "$url"
}

case "$cmd" in
  start) start ;;
  stop) stop ;;
  *) usage ;;
esac
