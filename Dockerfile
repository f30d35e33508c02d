# overlap-analyze in a container: build with Maven, run on a JRE.
#   docker build -t overlap-analyze .
#   docker run --rm -u "$(id -u):$(id -g)" -v "$PWD:/data" overlap-analyze trace.json
# The base images are build arguments: where no registry is reachable,
# docker/local-base-images.sh builds both from Debian packages (see docs/docker.md, "In a container").
ARG BUILD_IMAGE=maven:3.9-eclipse-temurin-17
ARG RUNTIME_IMAGE=eclipse-temurin:17-jre

FROM ${BUILD_IMAGE} AS build
WORKDIR /src
# The poms alone first: the plugins and dependencies they download stay in a layer of their own,
# which changes to the sources do not invalidate.
COPY pom.xml ./
COPY trace-formats/pom.xml trace-formats/
COPY synth/pom.xml synth/
COPY analyzer/pom.xml analyzer/
COPY render/pom.xml render/
COPY options/pom.xml options/
COPY cli/pom.xml cli/
# The Spark module is listed in the root pom, so its pom comes along; the image is the CLI alone
# (-pl cli -am), so Spark is never downloaded here.
COPY spark/pom.xml spark/
RUN mvn -B -q -ntp -Dmaven.test.skip=true -pl cli -am package && rm -rf trace-formats/target synth/target analyzer/target render/target options/target cli/target
COPY trace-formats/src/main trace-formats/src/main
COPY synth/src/main synth/src/main
COPY analyzer/src/main analyzer/src/main
COPY render/src/main render/src/main
COPY options/src/main options/src/main
COPY cli/src/main cli/src/main
RUN mvn -B -q -ntp -Dmaven.test.skip=true -pl cli -am package

FROM ${RUNTIME_IMAGE}
LABEL org.opencontainers.image.title="overlap-analyze" \
      org.opencontainers.image.description="Why is the training step longer than it should be: overlap, tail and exposed communication from profiler traces"
# An unprivileged user of its own; `docker run -u "$(id -u):$(id -g)"` runs as the caller instead,
# so that reports written to the mounted folder belong to them.
RUN useradd --uid 10001 --user-group --no-create-home --home-dir /data \
      --shell /usr/sbin/nologin overlap-analyze \
 && mkdir -p /data && chown 10001:10001 /data
COPY --from=build /src/cli/target/overlap-analyze.jar /opt/overlap-analyze/overlap-analyze.jar
COPY samples/ /opt/overlap-analyze/samples/
USER 10001:10001
WORKDIR /data
# The launcher's flags for big inputs (./overlap-analyze): client compiler, parallel collector,
# and a heap of up to half the container's memory (the JVM's default is a quarter); a crash report
# goes to /tmp, never into the mounted working directory.
ENTRYPOINT ["java", "-XX:+UseParallelGC", "-XX:TieredStopAtLevel=1", "-XX:NewRatio=1", "-XX:MaxRAMPercentage=50", \
            "-XX:ErrorFile=/tmp/overlap-analyze-hs_err_pid%p.log", "-jar", "/opt/overlap-analyze/overlap-analyze.jar"]
CMD ["--help"]
