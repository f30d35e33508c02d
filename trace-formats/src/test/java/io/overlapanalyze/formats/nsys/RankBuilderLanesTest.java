package io.overlapanalyze.formats.nsys;

import io.overlapanalyze.model.DeviceKind;
import io.overlapanalyze.model.Lane;
import io.overlapanalyze.model.ShapePool;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * {@link RankBuilder}'s lanes against the rule read plainly (nsys.md §4, the class comment): a lane per
 * (context, stream), numbered in order of first use once the rows of each table are in (start, end)
 * order, kept across tables, over a few streams and thousands. That a row's lane costs the same
 * however many streams there are is measured, not timed here: {@code bench/scaling.sh nsys:streams}.
 */
class RankBuilderLanesTest {
    private record Row(long start, long end, long context, long stream) {
    }

    @Test
    void lanesAreTheStreamsInOrderOfFirstUseAcrossTables() {
        for (int seed = 0; seed < 10; seed++) {
            Random r = new Random(seed);
            RankBuilder builder = new RankBuilder(0x0001_0000_4242_0000L, 0);
            RowNames names = new RowNames();
            int name = names.ref("kernel", DeviceKind.COMPUTE);
            LaunchIndex launches = new LaunchIndex();
            launches.build();
            Map<List<Long>, Integer> expectedLanes = new LinkedHashMap<>();
            List<Row> expectedOrder = new ArrayList<>();
            int streams = 1 + r.nextInt(seed < 5 ? 20 : 3_000);
            for (int table = 0; table < 2; table++) {
                List<Row> rows = new ArrayList<>();
                int n = 1 + r.nextInt(5_000);
                for (int i = 0; i < n; i++) {
                    long start = 1_000_000L * table + 10L * i;
                    // Stream ids repeat across contexts: the pair is the key.
                    rows.add(new Row(start, start + 1 + r.nextInt(50), r.nextInt(3), r.nextInt(streams)));
                }
                List<Row> readOrder = new ArrayList<>(rows);
                java.util.Collections.shuffle(readOrder, r);
                for (Row row : readOrder) {
                    builder.pend(row.start(), row.end(), row.context(), row.stream(), name,
                            RankBuilder.NO_CORRELATION, -1);
                }
                builder.flush(names, launches, new ShapePool());
                rows.sort(Comparator.comparingLong(Row::start));
                for (Row row : rows) {
                    expectedLanes.putIfAbsent(List.of(row.context(), row.stream()), expectedLanes.size());
                    expectedOrder.add(row);
                }
            }
            assertEquals(expectedOrder.size(), builder.device.size(), "seed " + seed);
            for (int i = 0; i < expectedOrder.size(); i++) {
                Row row = expectedOrder.get(i);
                assertEquals(row.start(), builder.device.start(i), "seed " + seed + " interval " + i);
                assertEquals(expectedLanes.get(List.of(row.context(), row.stream())), builder.device.lane(i),
                        "seed " + seed + " interval " + i + " on context " + row.context() + " stream " + row.stream());
            }
            List<Lane> lanes = builder.lanes();
            assertEquals(expectedLanes.size(), lanes.size(), "seed " + seed);
            for (Map.Entry<List<Long>, Integer> e : expectedLanes.entrySet()) {
                Lane lane = lanes.get(e.getValue());
                assertEquals((long) e.getKey().get(1), lane.stream(), "seed " + seed);
                String context = "context " + e.getKey().get(0) + " ";
                assertEquals((lanes.size() > 1 && expectedLanes.keySet().stream().map(k -> k.get(0)).distinct().count() > 1
                        ? context : "") + "stream " + e.getKey().get(1), lane.label(), "seed " + seed);
            }
        }
    }
}
