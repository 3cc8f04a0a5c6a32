package io.jdbcrepl.conflict;

import static io.jdbcrepl.conflict.Fixtures.EMP;
import static io.jdbcrepl.conflict.Fixtures.dec;
import static io.jdbcrepl.conflict.Fixtures.delete;
import static io.jdbcrepl.conflict.Fixtures.insert;
import static io.jdbcrepl.conflict.Fixtures.nul;
import static io.jdbcrepl.conflict.Fixtures.row;
import static io.jdbcrepl.conflict.Fixtures.update;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jdbcrepl.api.Conflict;
import io.jdbcrepl.api.ConflictKind;
import io.jdbcrepl.api.ConflictType;
import io.jdbcrepl.api.DmlOperation;
import io.jdbcrepl.config.ColumnSet;
import io.jdbcrepl.lcr.RowImage;
import io.jdbcrepl.lcr.RowLcr;
import io.jdbcrepl.lcr.ValueType;
import java.util.List;
import org.junit.jupiter.api.Test;

/** SPEC 5.1. */
class ConflictDetectorTest {

    private static final RowImage CURRENT = row("EMPLOYEE_ID", 200, "SALARY", dec("5000.00"), "NAME", "Ann",
            "NOTE", nul(ValueType.STRING));

    @Test
    void updateThatMatchesAppliesCleanly() {
        // 4400 = 4400.00, NULL = NULL, names in another case (PostgreSQL LCR, H2 destination)
        RowLcr lcr = update(row("employee_id", 200, "salary", dec("5000"), "note", nul(ValueType.STRING)),
                row("salary", dec("5100")));
        assertThat(ConflictDetector.detect(lcr, CURRENT, EMP)).isEmpty();
    }

    @Test
    void updateConflictNamesTheDifferingColumns() {
        RowLcr lcr = update(row("employee_id", 200, "salary", dec("4400"), "name", "Ann", "note", "x"),
                row("salary", dec("4900")));
        Conflict c = ConflictDetector.detect(lcr, CURRENT, EMP).orElseThrow();
        assertThat(c.operation()).isEqualTo(DmlOperation.UPDATE);
        assertThat(c.type()).isEqualTo(ConflictType.ROW_EXISTS);
        assertThat(c.kind()).isEqualTo(ConflictKind.UPDATE);
        assertThat(c.columns()).containsExactly("salary", "note");
        assertThat(c.currentRow()).isEqualTo(CURRENT);
    }

    @Test
    void onlyOldValuesAreCompared() {
        // name differs at the destination, but the LCR has no old value for it
        RowLcr lcr = update(row("employee_id", 200, "salary", dec("5000")), row("salary", dec("1"), "name", "Bob"));
        assertThat(ConflictDetector.detect(lcr, CURRENT, EMP)).isEmpty();
    }

    @Test
    void noCompareSkipsNonKeyColumnsButNeverTheKey() {
        RowLcr lcr = update(row("employee_id", 200, "salary", dec("4400"), "note", "x"), row("salary", dec("4900")));
        TableSettings salaryOnly = new TableSettings("hr", "employees", List.of("employee_id"),
                ColumnSet.of(List.of("SALARY")), List.of(), List.of());
        assertThat(ConflictDetector.detect(lcr, CURRENT, salaryOnly).orElseThrow().columns()).containsExactly("note");
        TableSettings all = new TableSettings("hr", "employees", List.of("employee_id"), ColumnSet.STAR, List.of(),
                List.of());
        assertThat(ConflictDetector.detect(lcr, CURRENT, all)).isEmpty();
        // a key listed in nocompare, or covered by *, is still compared
        RowLcr otherKey = update(row("employee_id", 201, "salary", dec("4400")), row("salary", dec("4900")));
        assertThat(ConflictDetector.detect(otherKey, CURRENT, all).orElseThrow().columns()).containsExactly("employee_id");
        TableSettings keyListed = new TableSettings("hr", "employees", List.of("employee_id"),
                ColumnSet.of(List.of("employee_id", "salary")), List.of(), List.of());
        assertThat(ConflictDetector.detect(otherKey, CURRENT, keyListed).orElseThrow().columns())
                .containsExactly("employee_id");
    }

    @Test
    void substituteKeyIsAlwaysCompared() {
        TableSettings byName = new TableSettings("hr", "employees", List.of("name"), ColumnSet.STAR, List.of(), List.of());
        RowLcr lcr = update(row("name", "Anne", "salary", dec("1")), row("salary", dec("2")));
        assertThat(ConflictDetector.detect(lcr, CURRENT, byName).orElseThrow().columns()).containsExactly("name");
    }

    @Test
    void charColumnsIgnoreTrailingSpaces() {
        RowLcr lcr = update(row("employee_id", 200, "name", "Ann   "), row("name", "Bea"));
        assertThat(ConflictDetector.detect(lcr, CURRENT, EMP).orElseThrow().columns()).containsExactly("name");
        TableSettings padded = new TableSettings("hr", "employees", List.of("employee_id"), null, List.of(),
                List.of("name"));
        assertThat(ConflictDetector.detect(lcr, CURRENT, padded)).isEmpty();
    }

    @Test
    void missingRowIsADeleteConflict() {
        for (RowLcr lcr : List.of(update(row("employee_id", 200), row("salary", dec("1"))),
                delete(row("employee_id", 200, "salary", dec("5000"))))) {
            Conflict c = ConflictDetector.detect(lcr, null, EMP).orElseThrow();
            assertThat(c.type()).isEqualTo(ConflictType.ROW_MISSING);
            assertThat(c.kind()).isEqualTo(ConflictKind.DELETE);
            assertThat(c.operation().name()).isEqualTo(lcr.commandType().name());
            assertThat(c.columns()).isEmpty();
            assertThat(c.currentRow()).isNull();
        }
    }

    @Test
    void deleteOfAChangedRowIsDeleteRowExists() {
        RowLcr same = delete(row("employee_id", 200, "salary", dec("5000"), "name", "Ann", "note",
                nul(ValueType.STRING)));
        assertThat(ConflictDetector.detect(same, CURRENT, EMP)).isEmpty();
        RowLcr changed = delete(row("employee_id", 200, "salary", dec("4400"), "name", "Ann", "note",
                nul(ValueType.STRING)));
        Conflict c = ConflictDetector.detect(changed, CURRENT, EMP).orElseThrow();
        assertThat(c.operation()).isEqualTo(DmlOperation.DELETE);
        assertThat(c.type()).isEqualTo(ConflictType.ROW_EXISTS);
        assertThat(c.kind()).isEqualTo(ConflictKind.DELETE);
        assertThat(c.columns()).containsExactly("salary");
    }

    @Test
    void insertOnAnExistingKeyIsAUniquenessConflict() {
        RowLcr lcr = insert(row("employee_id", 200, "salary", dec("5000"), "name", "Bob", "note", "n"));
        Conflict c = ConflictDetector.detect(lcr, CURRENT, EMP).orElseThrow();
        assertThat(c.operation()).isEqualTo(DmlOperation.INSERT);
        assertThat(c.type()).isEqualTo(ConflictType.ROW_EXISTS);
        assertThat(c.kind()).isEqualTo(ConflictKind.UNIQUENESS);
        assertThat(c.columns()).containsExactly("name", "note");
        assertThat(c.onKey()).isTrue();
        // nocompare does not hide differences an insert would lose
        TableSettings all = new TableSettings("hr", "employees", List.of("employee_id"), ColumnSet.STAR, List.of(),
                List.of());
        assertThat(ConflictDetector.detect(lcr, CURRENT, all).orElseThrow().columns()).containsExactly("name", "note");
        assertThat(ConflictDetector.detect(lcr, null, EMP)).isEmpty();
        Conflict other = ConflictDetector.uniqueness(insert(row("employee_id", 300, "name", "Ann")), CURRENT, EMP, false);
        assertThat(other.onKey()).isFalse();
        assertThat(other.columns()).containsExactly("employee_id");
    }

    @Test
    void foreignKeyConflict() {
        RowLcr lcr = insert(row("employee_id", 206, "department_id", 271));
        Conflict c = ConflictDetector.foreignKey(lcr, "23503", "violates foreign key constraint emp_dept_fk");
        assertThat(c.kind()).isEqualTo(ConflictKind.FOREIGN_KEY);
        assertThat(c.type()).isEqualTo(ConflictType.FOREIGN_KEY);
        assertThat(c.operation()).isEqualTo(DmlOperation.INSERT);
        assertThat(c.detail()).contains("23503").contains("emp_dept_fk");
    }

    @Test
    void conflictValueIsConsistent() {
        assertThatThrownBy(() -> new Conflict(DmlOperation.UPDATE, ConflictType.ROW_EXISTS, ConflictKind.UPDATE,
                List.of("a"), null, false, null)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Conflict(DmlOperation.UPDATE, ConflictType.FOREIGN_KEY, ConflictKind.UPDATE, List.of(),
                null, false, null)).isInstanceOf(IllegalArgumentException.class);
    }
}
