package io.overlapanalyze.synth;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A DDP scenario (a built-in or a scenario file) as one trace: a Kineto file (with a device layout or
 * capture effects when asked), an Nsight Systems export or a torch_npu capture directory.
 */
final class ScenarioSynthWriter implements SynthWriter {
    @Override
    public boolean takes(SynthRequest request) {
        return true;
    }

    @Override
    public List<String> builtins() {
        List<String> lines = new ArrayList<>();
        for (String name : BuiltinScenarios.names()) {
            lines.add(name + "  " + BuiltinScenarios.get(name).description());
        }
        return lines;
    }

    @Override
    public Written write(SynthRequest r, SynthOutput output) throws IOException {
        Scenario s = resolve(r.scenario());
        String format = targetFormat(r);
        if (!format.equals("kineto")) {
            r.requireNoEffects(format + " output");
        }
        DeviceLayoutWriter.Layout layout = layout(r, format);
        if (layout != null) {
            r.requireNoEffects("--devices 2 or --accelerator mtia layouts");
            Path target = r.output() != null ? r.output() : Path.of(s.name() + ".pt.trace.json");
            long lagNs = Math.multiplyExact(r.secondDeviceLagUs(), 1000L);
            KinetoFiles.write(output, target, r.inputs(),
                    (sink, traceName) -> DeviceLayoutWriter.write(s, layout, lagNs, sink, traceName));
            return new Written(target, 0);
        }
        if (format.equals("ascend")) {
            return writeAscend(r, s);
        }
        boolean nsys = format.equals("nsys");
        Path target = r.output() != null ? r.output() : Path.of(s.name() + (nsys ? ".sqlite" : ".pt.trace.json"));
        if (nsys) {
            output.beforeSqlite();
            try {
                output.file(target, r.inputs(), file -> NsysScenarioWriter.write(s, file));
            } catch (IOException e) {
                throw e instanceof SynthWriteException ? e : new SynthWriteException(target, e);
            }
        } else {
            writeKineto(r, s, target, output);
        }
        return new Written(target, 0);
    }

    /** A torch_npu capture directory; never written into an existing path. */
    private static Written writeAscend(SynthRequest r, Scenario s) throws IOException {
        Path dir = r.output() != null ? r.output() : Path.of(AscendScenarioWriter.directoryName(s));
        if (Files.exists(dir)) {
            throw new SynthInputException(dir + ": already exists; choose a new directory for the Ascend capture");
        }
        try {
            AscendScenarioWriter.write(s, dir);
        } catch (IOException e) {
            throw new SynthWriteException(dir, e);
        }
        return new Written(dir, 0);
    }

    private static void writeKineto(SynthRequest r, Scenario s, Path target, SynthOutput output) {
        CaptureEffects effects = r.effects();
        if (effects.none()) {
            KinetoFiles.write(output, target, r.inputs(), (sink, traceName) -> KinetoScenarioWriter.write(s, sink, traceName));
            return;
        }
        Scenario withSync = r.hostTimeSync() ? s.withSyncEvents(true) : s;
        try {
            effects.check(withSync);
        } catch (IllegalArgumentException e) {
            throw new SynthInputException(r.scenario() + ": " + e.getMessage(), e);
        }
        KinetoFiles.write(output, target, r.inputs(),
                (sink, traceName) -> KinetoScenarioWriter.write(withSync, effects, sink, traceName));
    }

    /** A scenario file's scenario, or a built-in's. */
    static Scenario resolve(String nameOrFile) {
        Path file = Path.of(nameOrFile);
        if (Files.isRegularFile(file)) {
            try {
                return Scenario.parse(file);
            } catch (IllegalArgumentException e) {
                throw new SynthInputException(e.getMessage(), e);
            }
        }
        if (BuiltinScenarios.names().contains(nameOrFile)) {
            return BuiltinScenarios.get(nameOrFile);
        }
        List<String> all = new ArrayList<>(BuiltinScenarios.names());
        all.addAll(ParallelScenarioWriter.builtinNames());
        throw new SynthInputException(nameOrFile + ": neither a scenario file nor a built-in scenario (built-ins: "
                + String.join(", ", all) + ")");
    }

    /** kineto, nsys or ascend: the format asked, else from the output name. */
    static String targetFormat(SynthRequest r) {
        if (r.format() == null) {
            return r.output() != null && r.output().getFileName().toString().endsWith(".sqlite") ? "nsys" : "kineto";
        }
        String f = r.format().toLowerCase(Locale.ROOT);
        if (!f.equals("kineto") && !f.equals("nsys") && !f.equals("ascend")) {
            throw new SynthInputException("--format: expected kineto, nsys or ascend, got '" + r.format() + "'");
        }
        return f;
    }

    /** The device layout the options ask for, or {@code null} for the usual one GPU. */
    private static DeviceLayoutWriter.Layout layout(SynthRequest r, String format) {
        Integer devices = r.devices();
        String accelerator = r.accelerator();
        boolean two = devices != null && devices != 1;
        boolean mtia = accelerator != null && !accelerator.equalsIgnoreCase("cuda");
        if (devices != null && devices != 1 && devices != 2) {
            throw new SynthInputException("--devices: 1 or 2, got " + devices);
        }
        if (mtia && !accelerator.equalsIgnoreCase("mtia")) {
            throw new SynthInputException("--accelerator: expected cuda or mtia, got '" + accelerator + "'");
        }
        if (r.secondDeviceLagUs() < 0 || (r.secondDeviceLagUs() != 0 && !two)) {
            throw new SynthInputException("--second-device-lag-us: a lag of 0 or more, with --devices 2");
        }
        if (!two && !mtia) {
            return null;
        }
        if (two && mtia) {
            throw new SynthInputException("--devices 2 and --accelerator mtia: choose one");
        }
        if (!format.equals("kineto")) {
            throw new SynthInputException((two ? "--devices" : "--accelerator") + ": Kineto traces only (a .json or"
                    + " .json.gz output)");
        }
        return two ? DeviceLayoutWriter.Layout.TWO_DEVICES : DeviceLayoutWriter.Layout.MTIA;
    }
}
