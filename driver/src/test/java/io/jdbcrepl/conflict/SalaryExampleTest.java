package io.jdbcrepl.conflict;

import static io.jdbcrepl.conflict.Fixtures.dec;
import static io.jdbcrepl.conflict.Fixtures.handler;
import static io.jdbcrepl.conflict.Fixtures.row;
import static io.jdbcrepl.conflict.Fixtures.v;
import static org.assertj.core.api.Assertions.assertThat;

import io.jdbcrepl.config.HandlerDefinition;
import io.jdbcrepl.config.HandlerType;
import io.jdbcrepl.lcr.RowLcr;
import java.time.OffsetDateTime;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/**
 * The seed's example, SPEC 5.3's table: salary 4400 on dbs1 and dbs2, dbs1 sets 4900 and dbs2
 * 5000 before either applies the other's LCR, then each applies the other's, with the same
 * handler on {@code salary} on both nodes.
 */
class SalaryExampleTest {

    private static final String NONE = "none";

    @ParameterizedTest(name = "{0} -> dbs1 {1}, dbs2 {2}, queue {3}")
    @CsvSource({
            "none,      4900, 5000, error",
            "OVERWRITE, 5000, 4900, empty",
            "IGNORE,    4900, 5000, empty",
            "DISCARD,   4900, 5000, empty",
            "RECORD,    4900, 5000, recorded",
            "MAXIMUM,   5000, 5000, empty",
            "MINIMUM,   4900, 4900, empty",
            "DELTA,     5500, 5500, empty"})
    void everyRowOfTheTable(String type, int dbs1After, int dbs2After, String queue) {
        List<HandlerDefinition> handlers = type.equals(NONE) ? List.of()
                : List.of(handler("salary_h", HandlerType.valueOf(type), "salary",
                        HandlerType.valueOf(type).needsResolution() ? "salary" : null));
        MemoryNode dbs1 = node("dbs1", handlers);
        MemoryNode dbs2 = node("dbs2", handlers);

        RowLcr fromDbs1 = dbs1.update(200, row("salary", dec("4900")));
        RowLcr fromDbs2 = dbs2.update(200, row("salary", dec("5000")));
        assertThat(fromDbs1.oldValues().get("salary")).isEqualTo(v(dec("4400")));
        dbs2.receive(fromDbs1).orElseThrow(() -> new AssertionError("dbs2 saw no conflict"));
        dbs1.receive(fromDbs2).orElseThrow(() -> new AssertionError("dbs1 saw no conflict"));

        assertThat(ValueComparison.same(dbs1.value(200, "salary"), v(dbs1After))).as("dbs1 " + dbs1.row(200)).isTrue();
        assertThat(ValueComparison.same(dbs2.value(200, "salary"), v(dbs2After))).as("dbs2 " + dbs2.row(200)).isTrue();
        for (MemoryNode n : List.of(dbs1, dbs2)) {
            assertThat(n.conflicts).hasSize(1);
            assertThat(n.conflicts.get(0).conflict().columns()).containsExactly("salary");
            switch (queue) {
                case "error" -> {
                    assertThat(n.errorQueue).hasSize(1);
                    assertThat(n.recorded).isEmpty();
                    assertThat(n.errorQueue.get(0).reason()).contains("hr.employees").contains("employee_id=200")
                            .contains("salary").contains("4400").contains(n == dbs1 ? "4900" : "5000");
                }
                case "recorded" -> {
                    assertThat(n.errorQueue).isEmpty();
                    assertThat(n.recorded).hasSize(1);
                    assertThat(n.recorded.get(0).lcr().sourceDatabase()).isEqualTo(n == dbs1 ? "dbs2" : "dbs1");
                }
                default -> {
                    assertThat(n.errorQueue).isEmpty();
                    assertThat(n.recorded).isEmpty();
                }
            }
        }
    }

    @Test
    void maximumOnTimeWithDbs2UpdatedLast() {
        // SPEC 5.6: the driver stamps `time` on every update; dbs2's update is the later one
        List<HandlerDefinition> handlers = List.of(handler("salary_max", HandlerType.MAXIMUM,
                "salary,commission_pct,time", "time"));
        MemoryNode dbs1 = node("dbs1", handlers);
        MemoryNode dbs2 = node("dbs2", handlers);
        OffsetDateTime t1 = OffsetDateTime.parse("2026-03-01T10:00:00.000001+01:00");
        OffsetDateTime t2 = OffsetDateTime.parse("2026-03-01T09:00:00.000002Z"); // later instant, other zone

        RowLcr fromDbs1 = dbs1.update(200, row("salary", dec("4900"), "time", t1));
        RowLcr fromDbs2 = dbs2.update(200, row("salary", dec("5000"), "time", t2));
        // the list is a conditional log group: commission_pct's old value travels too
        assertThat(fromDbs1.oldValues().has("commission_pct")).isTrue();
        dbs2.receive(fromDbs1).orElseThrow();
        dbs1.receive(fromDbs2).orElseThrow();

        for (MemoryNode n : List.of(dbs1, dbs2)) {
            assertThat(ValueComparison.same(n.value(200, "salary"), v(5000))).as(n.name).isTrue();
            assertThat(ValueComparison.same(n.value(200, "time"), v(t2))).as(n.name).isTrue();
            assertThat(n.errorQueue).isEmpty();
            assertThat(n.conflicts.get(0).conflict().columns()).containsExactly("salary", "time");
        }
        assertThat(dbs1.conflicts.get(0).outcomes().get(0).outcome()).isEqualTo(Resolution.Outcome.LCR_APPLIED);
        assertThat(dbs2.conflicts.get(0).outcomes().get(0).outcome()).isEqualTo(Resolution.Outcome.DESTINATION_KEPT);
        assertThat(dbs2.conflicts.get(0).action()).isEqualTo(Resolution.Action.DISCARD);
    }

    private static MemoryNode node(String name, List<HandlerDefinition> handlers) {
        MemoryNode n = new MemoryNode(name, Fixtures.EMP, handlers);
        n.load(row("employee_id", 200, "salary", dec("4400"), "commission_pct", dec("0.10"), "time",
                OffsetDateTime.parse("2026-03-01T08:00:00Z")));
        return n;
    }
}
