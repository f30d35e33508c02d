# Sourced by bench/nsys-read.sh and bench/ascend-read.sh: compiles the modules and the benchmark
# programs (bench/java, profile "bench"; never installs) and sets CP and MAIN for
# io.overlapanalyze.bench.DbReadBench. Main classes only (-Dmaven.test.skip=true): at the compile
# phase trace-formats has no test jar yet, which synth's tests would ask for.
mvn -q -B -ntp -Dmaven.test.skip=true -Pbench -pl bench/java -am compile dependency:build-classpath -Dmdep.outputFile=target/bench.classpath >/dev/null
CP="bench/java/target/classes:cli/target/classes:analyzer/target/classes:synth/target/classes:trace-formats/target/classes:$(cat bench/java/target/bench.classpath)"
MAIN=io.overlapanalyze.bench.DbReadBench
