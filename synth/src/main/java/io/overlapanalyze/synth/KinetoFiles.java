package io.overlapanalyze.synth;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.GZIPOutputStream;

/**
 * One Kineto trace file, gzip-compressed when its name ends with {@code .gz}; the trace records its
 * own name without that suffix, as Kineto does.
 */
final class KinetoFiles {
    private KinetoFiles() {
    }

    /** Writes one Kineto trace into a stream under a trace name. */
    @FunctionalInterface
    interface TraceBody {
        void write(OutputStream sink, String traceName) throws IOException;
    }

    static void write(SynthOutput output, Path target, List<Path> inputs, TraceBody body) {
        String fileName = target.getFileName().toString();
        boolean gzip = fileName.endsWith(".gz");
        String traceName = gzip ? fileName.substring(0, fileName.length() - 3) : fileName;
        output.stream(target, inputs, out -> {
            OutputStream sink = gzip ? new GZIPOutputStream(out, 1 << 16) : out;
            body.write(sink, traceName);
            sink.flush();
            if (gzip) {
                ((GZIPOutputStream) sink).finish();
            }
        });
    }
}
