package io.jdbcrepl.conflict;

import static io.jdbcrepl.conflict.Fixtures.dec;
import static io.jdbcrepl.conflict.Fixtures.handler;
import static io.jdbcrepl.conflict.Fixtures.row;
import static io.jdbcrepl.conflict.Fixtures.v;
import static org.assertj.core.api.Assertions.assertThat;

import io.jdbcrepl.api.ConflictKind;
import io.jdbcrepl.api.ConflictType;
import io.jdbcrepl.api.DmlOperation;
import io.jdbcrepl.config.HandlerDefinition;
import io.jdbcrepl.config.HandlerType;
import io.jdbcrepl.lcr.RowLcr;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Uniqueness and delete conflicts between two simulated nodes, resolved or queued as configured. */
class TwoNodeScenariosTest {

    private static final TableSettings T = new TableSettings("hr", "employees", List.of("employee_id"), null,
            List.of("employee_id", "salary"), List.of());

    private static MemoryNode node(String name, HandlerDefinition... handlers) {
        MemoryNode n = new MemoryNode(name, T, List.of(handlers));
        n.load(row("employee_id", 200, "salary", dec("4400"), "name", "Ann"));
        return n;
    }

    @Test
    void bothInsertTheSameKey() {
        HandlerDefinition max = handler("ins", HandlerType.MAXIMUM, "*", "salary", DmlOperation.INSERT,
                ConflictType.ROW_EXISTS);
        MemoryNode n1 = node("n1", max);
        MemoryNode n2 = node("n2", max);
        RowLcr i1 = n1.insert(row("employee_id", 300, "salary", dec("100"), "name", "Bob"));
        RowLcr i2 = n2.insert(row("employee_id", 300, "salary", dec("200"), "name", "Bea"));
        n2.receive(i1).orElseThrow();
        n1.receive(i2).orElseThrow();
        for (MemoryNode n : List.of(n1, n2)) {
            assertThat(n.row(300)).as(n.name).isEqualTo(row("employee_id", 300, "salary", dec("200"), "name", "Bea"));
            assertThat(n.errorQueue).isEmpty();
            assertThat(n.conflicts.get(0).conflict().kind()).isEqualTo(ConflictKind.UNIQUENESS);
        }
        // without a handler: both queued, each keeps its own row
        MemoryNode q1 = node("n1");
        MemoryNode q2 = node("n2");
        RowLcr j1 = q1.insert(row("employee_id", 300, "salary", dec("100"), "name", "Bob"));
        RowLcr j2 = q2.insert(row("employee_id", 300, "salary", dec("200"), "name", "Bea"));
        q2.receive(j1);
        q1.receive(j2);
        assertThat(q1.errorQueue).hasSize(1);
        assertThat(q2.errorQueue).hasSize(1);
        assertThat(q1.value(300, "name")).isEqualTo(v("Bob"));
    }

    @Test
    void deleteOnOneNodeUpdateOnTheOtherConvergesOnTheDelete() {
        // n2 deletes anyway what n1 changed; n1 drops the update of a row n2 deleted
        HandlerDefinition deleteAnyway = handler("del", HandlerType.OVERWRITE, "*", null, DmlOperation.DELETE,
                ConflictType.ROW_EXISTS);
        HandlerDefinition dropUpdate = handler("gone", HandlerType.IGNORE, "*", null, DmlOperation.UPDATE,
                ConflictType.ROW_MISSING);
        MemoryNode n1 = node("n1", deleteAnyway, dropUpdate);
        MemoryNode n2 = node("n2", deleteAnyway, dropUpdate);
        RowLcr upd = n1.update(200, row("salary", dec("4900")));
        RowLcr del = n2.delete(200);
        n1.receive(del).orElseThrow();
        n2.receive(upd).orElseThrow();
        assertThat(n1.rows).isEmpty();
        assertThat(n2.rows).isEmpty();
        assertThat(n1.conflicts.get(0).conflict().type()).isEqualTo(ConflictType.ROW_EXISTS);
        assertThat(n1.conflicts.get(0).conflict().operation()).isEqualTo(DmlOperation.DELETE);
        assertThat(n2.conflicts.get(0).conflict().type()).isEqualTo(ConflictType.ROW_MISSING);
    }

    @Test
    void deleteOnOneNodeUpdateOnTheOtherConvergesOnTheRowWhenTheLcrIsComplete() {
        // n1 ignores the delete of a row it changed; n2 re-creates the row from the update's LCR,
        // which carries every NOT NULL column (salary assigned, key always)
        HandlerDefinition keep = handler("del", HandlerType.IGNORE, "*", null, DmlOperation.DELETE,
                ConflictType.ROW_EXISTS);
        HandlerDefinition recreate = handler("gone", HandlerType.OVERWRITE, "*", null, DmlOperation.UPDATE,
                ConflictType.ROW_MISSING);
        MemoryNode n1 = node("n1", keep, recreate);
        MemoryNode n2 = node("n2", keep, recreate);
        RowLcr upd = n1.update(200, row("salary", dec("4900")));
        RowLcr del = n2.delete(200);
        n1.receive(del).orElseThrow();
        n2.receive(upd).orElseThrow();
        assertThat(n1.value(200, "salary")).isEqualTo(v(dec("4900")));
        assertThat(n2.value(200, "salary")).isEqualTo(v(dec("4900")));
        // the LCR did not carry name: the re-created row lacks it (repl.supplemental=ALL would carry it)
        assertThat(n2.row(200).has("name")).isFalse();
    }

    @Test
    void deleteOnBothNodes() {
        HandlerDefinition gone = handler("gone", HandlerType.IGNORE, "*", null, DmlOperation.DELETE,
                ConflictType.ROW_MISSING);
        MemoryNode n1 = node("n1", gone);
        MemoryNode n2 = node("n2");
        RowLcr d1 = n1.delete(200);
        RowLcr d2 = n2.delete(200);
        n2.receive(d1).orElseThrow();
        n1.receive(d2).orElseThrow();
        assertThat(n1.errorQueue).isEmpty();
        assertThat(n2.errorQueue).singleElement().satisfies(r -> assertThat(r.reason()).contains("DELETE/ROW_MISSING"));
    }
}
