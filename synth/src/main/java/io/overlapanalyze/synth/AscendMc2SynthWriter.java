package io.overlapanalyze.synth;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/** The built-in Ascend MC² job ({@link AscendMc2Writer}): the text export (default) or the DB export. */
final class AscendMc2SynthWriter implements SynthWriter {
    @Override
    public boolean takes(SynthRequest request) {
        return request.scenario().equals(AscendMc2Writer.NAME);
    }

    @Override
    public List<String> builtins() {
        return List.of(AscendMc2Writer.NAME + "  " + AscendMc2Writer.DESCRIPTION);
    }

    @Override
    public Written write(SynthRequest r, SynthOutput output) throws IOException {
        r.requireNoEffects("the Ascend MC2 scenario");
        String f = r.format() == null ? "ascend" : r.format().toLowerCase(Locale.ROOT);
        if (!f.equals("ascend") && !f.equals("ascend-db") || r.ranks() != null || r.devices() != null
                || r.accelerator() != null) {
            throw new SynthInputException(AscendMc2Writer.NAME + ": written as a torch_npu capture only (--format ascend"
                    + " for the text export, ascend-db for the DB export), one rank");
        }
        Path dir = r.output() != null ? r.output() : Path.of(AscendMc2Writer.directoryName());
        if (Files.exists(dir)) {
            throw new SynthInputException(dir + ": already exists; choose a new directory for the Ascend capture");
        }
        try {
            if (f.equals("ascend-db")) {
                output.beforeSqlite();
                AscendMc2Writer.writeDb(dir);
            } else {
                AscendMc2Writer.writeText(dir);
            }
        } catch (IOException e) {
            throw new SynthWriteException(dir, e);
        }
        return new Written(dir, 0);
    }
}
