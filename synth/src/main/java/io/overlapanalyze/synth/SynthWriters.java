package io.overlapanalyze.synth;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The generator as a library with one entry point, mirroring the readers' front door
 * ({@code TraceFormats}): a request goes to the first writer of the registry that takes it, else to
 * the fallback (a plain DDP scenario, written in the format asked). The registry
 * ({@link #standard()}) is the only place that lists the kinds of scenario; a new kind is a
 * {@link SynthWriter} and one entry here.
 */
public final class SynthWriters {
    private static final SynthWriters STANDARD = new SynthWriters(
            List.of(new ParallelSynthWriter(), new AscendMc2SynthWriter(), new JobSynthWriter()),
            new ScenarioSynthWriter());

    private final List<SynthWriter> writers;
    private final SynthWriter fallback;

    /**
     * A registry of these writers, asked in this order, and the one that writes what none of them takes
     * (its {@link SynthWriter#takes} is not asked).
     */
    public SynthWriters(List<SynthWriter> writers, SynthWriter fallback) {
        this.writers = List.copyOf(writers);
        this.fallback = fallback;
    }

    /** Every kind of scenario this tool writes. */
    public static SynthWriters standard() {
        return STANDARD;
    }

    /** The built-in scenarios, one line each (name, two spaces, description): the fallback's first. */
    public List<String> builtins() {
        List<String> lines = new ArrayList<>(fallback.builtins());
        for (SynthWriter w : writers) {
            lines.addAll(w.builtins());
        }
        return lines;
    }

    /** Writes the request with the first writer that takes it, else with the fallback. */
    public Written write(SynthRequest request, SynthOutput output) throws IOException {
        for (SynthWriter w : writers) {
            if (w.takes(request)) {
                return w.write(request, output);
            }
        }
        return fallback.write(request, output);
    }
}
