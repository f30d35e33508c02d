package io.overlapanalyze.synth;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * FSDP, pipeline, contention and MoE scenarios ({@link ParallelScenarioWriter}): a built-in of those,
 * or a scenario file with a {@code "kind"}; Kineto traces, MoE ones also Nsight Systems exports.
 */
final class ParallelSynthWriter implements SynthWriter {
    @Override
    public boolean takes(SynthRequest request) {
        Path file = request.scenarioFile();
        if (file != null) {
            return ParallelScenarioWriter.isParallelScenario(file);
        }
        return ParallelScenarioWriter.builtinNames().contains(request.scenario());
    }

    @Override
    public List<String> builtins() {
        List<String> lines = new ArrayList<>();
        for (String name : ParallelScenarioWriter.builtinNames()) {
            lines.add(name + "  " + ParallelScenarioWriter.description(name));
        }
        return lines;
    }

    @Override
    public Written write(SynthRequest r, SynthOutput output) throws IOException {
        r.requireUsualLayout();
        r.requireNoEffects("FSDP, pipeline and contention scenarios");
        String format = ScenarioSynthWriter.targetFormat(r);
        if (format.equals("nsys") && writesNsys(r.scenario())) {
            return writeNsys(r, output);
        }
        if (!format.equals("kineto")) {
            throw new SynthInputException(r.scenario() + ": FSDP, pipeline and contention scenarios are written as Kineto "
                    + "traces only (--format kineto, a .json or .json.gz output); MoE ones also as nsys");
        }
        String name;
        try {
            name = ParallelScenarioWriter.name(r.scenario());
        } catch (IllegalArgumentException e) {
            throw new SynthInputException(e.getMessage(), e);
        }
        Path target = r.output() != null ? r.output() : Path.of(name + ".pt.trace.json");
        KinetoFiles.write(output, target, r.inputs(),
                (sink, traceName) -> ParallelScenarioWriter.write(r.scenario(), sink, traceName));
        return new Written(target, 0);
    }

    private static boolean writesNsys(String scenario) {
        try {
            return ParallelScenarioWriter.writesNsys(scenario);
        } catch (IllegalArgumentException e) {
            throw new SynthInputException(e.getMessage(), e);
        }
    }

    /** A MoE scenario as an Nsight Systems export. */
    private static Written writeNsys(SynthRequest r, SynthOutput output) throws IOException {
        Path target = r.output() != null ? r.output() : Path.of(ParallelScenarioWriter.name(r.scenario()) + ".sqlite");
        output.beforeSqlite();
        try {
            output.file(target, r.inputs(), file -> ParallelScenarioWriter.writeNsys(r.scenario(), file));
        } catch (IOException e) {
            throw e instanceof SynthWriteException ? e : new SynthWriteException(target, e);
        }
        return new Written(target, 0);
    }
}
