# Sourced by bench/nsys-read.sh and bench/ascend-read.sh: compiles the modules and their test classes
# (never installs) and sets CP and MAIN for io.overlapanalyze.cli.bench.DbReadBench.
mvn -q -B -ntp -pl cli -am test-compile dependency:build-classpath -Dmdep.outputFile=target/bench.classpath >/dev/null
CP="cli/target/test-classes:cli/target/classes:analyzer/target/classes:trace-formats/target/classes:$(cat cli/target/bench.classpath)"
MAIN=io.overlapanalyze.cli.bench.DbReadBench
