package io.overlapanalyze.render.timeline;

import java.io.Serializable;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One rank's timelines as computed where its trace was read, for a {@link TimelineIndex} built
 * where only the report is: which steps have a timeline at all, the size each one's drawing
 * takes (so that a page's size limits choose exactly as with the trace at hand), and the unions
 * of the steps sent (those the page may draw; the others cost a name and a number).
 *
 * @param drawnChars every step with a timeline (by name) and the length of its drawing
 * @param unions     the unions of the steps sent, by name
 */
public record PrecomputedTimelines(Map<String, Integer> drawnChars, Map<String, StepUnions> unions)
        implements Serializable {
    private static final long serialVersionUID = 1L;

    public PrecomputedTimelines {
        drawnChars = new LinkedHashMap<>(drawnChars);
        unions = new HashMap<>(unions);
    }

    /** These timelines with {@code more} unions added (a second read of the same trace). */
    public PrecomputedTimelines withUnions(Map<String, StepUnions> more) {
        Map<String, StepUnions> all = new HashMap<>(unions);
        all.putAll(more);
        return new PrecomputedTimelines(drawnChars, all);
    }
}
