package io.overlapanalyze.synth;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** A job: a job file, or a healthy job of {@code --ranks} ranks running a scenario; one Kineto trace per rank. */
final class JobSynthWriter implements SynthWriter {
    @Override
    public boolean takes(SynthRequest request) {
        return request.ranks() != null || isJobFile(request);
    }

    private static boolean isJobFile(SynthRequest request) {
        Path file = request.scenarioFile();
        return file != null && Job.isJobFile(file);
    }

    @Override
    public List<String> builtins() {
        return List.of();
    }

    @Override
    public Written write(SynthRequest r, SynthOutput output) throws IOException {
        r.requireUsualLayout();
        r.requireNoEffects("jobs");
        Job job;
        try {
            if (r.ranks() != null) {
                if (isJobFile(r)) {
                    throw new SynthInputException("--ranks: " + r.scenario() + " is already a job file (it says its ranks)");
                }
                Scenario s = ScenarioSynthWriter.resolve(r.scenario());
                job = Job.healthy(s.name() + "-" + r.ranks() + "rank", r.ranks(), s);
            } else {
                job = Job.parse(Path.of(r.scenario()));
            }
        } catch (SynthInputException e) {
            throw e;
        } catch (IllegalArgumentException e) {
            throw new SynthInputException(e.getMessage(), e);
        }
        Path dir = r.output() != null ? r.output() : Path.of(job.name());
        if (Files.exists(dir) && !Files.isDirectory(dir)) {
            throw new SynthInputException(dir + ": exists and is not a directory (a job is written as one file per rank)");
        }
        try {
            List<Path> files = JobWriter.write(job, dir, r.gzip());
            return new Written(dir, files.size());
        } catch (IOException e) {
            throw new SynthWriteException(dir, e);
        }
    }
}
