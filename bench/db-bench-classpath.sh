# Sourced by bench/nsys-read.sh and bench/ascend-read.sh: compiles the modules and the benchmark
# programs (bench/java, profile "bench"; never installs) and sets CP and MAIN for
# io.overlapanalyze.bench.DbReadBench.
mvn -q -B -ntp -Pbench -pl bench/java -am compile dependency:build-classpath -Dmdep.outputFile=target/bench.classpath >/dev/null
CP="bench/java/target/classes:cli/target/classes:analyzer/target/classes:synth/target/classes:trace-formats/target/classes:$(cat bench/java/target/bench.classpath)"
MAIN=io.overlapanalyze.bench.DbReadBench
