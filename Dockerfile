# overlap-analyze in a container: build with Maven, run on a JRE.
#   docker build -t overlap-analyze .
#   docker run --rm -v "$PWD:/data" overlap-analyze /data/trace.json
FROM maven:3.9-eclipse-temurin-17 AS build
WORKDIR /src
COPY pom.xml ./
COPY trace-formats/pom.xml trace-formats/
COPY analyzer/pom.xml analyzer/
COPY cli/pom.xml cli/
COPY trace-formats/src trace-formats/src
COPY analyzer/src analyzer/src
COPY cli/src cli/src
RUN mvn -B -q -ntp -DskipTests package

FROM eclipse-temurin:17-jre
LABEL org.opencontainers.image.title="overlap-analyze" \
      org.opencontainers.image.description="Why is the training step longer than it should be: overlap, tail and exposed communication from profiler traces"
COPY --from=build /src/cli/target/overlap-analyze.jar /opt/overlap-analyze/overlap-analyze.jar
COPY samples/ /opt/overlap-analyze/samples/
WORKDIR /data
ENTRYPOINT ["java", "-XX:+UseParallelGC", "-jar", "/opt/overlap-analyze/overlap-analyze.jar"]
CMD ["--help"]
