package io.jdbcrepl.conflict;

import static io.jdbcrepl.conflict.Fixtures.EMP;
import static io.jdbcrepl.conflict.Fixtures.dec;
import static io.jdbcrepl.conflict.Fixtures.delete;
import static io.jdbcrepl.conflict.Fixtures.handler;
import static io.jdbcrepl.conflict.Fixtures.insert;
import static io.jdbcrepl.conflict.Fixtures.nul;
import static io.jdbcrepl.conflict.Fixtures.resolve;
import static io.jdbcrepl.conflict.Fixtures.row;
import static io.jdbcrepl.conflict.Fixtures.update;
import static io.jdbcrepl.conflict.Fixtures.v;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.jdbcrepl.api.Conflict;
import io.jdbcrepl.api.ConflictKind;
import io.jdbcrepl.api.ConflictType;
import io.jdbcrepl.api.DmlOperation;
import io.jdbcrepl.config.ColumnSet;
import io.jdbcrepl.config.HandlerDefinition;
import io.jdbcrepl.config.HandlerType;
import io.jdbcrepl.config.TableName;
import io.jdbcrepl.conflict.Resolution.Action;
import io.jdbcrepl.conflict.Resolution.Outcome;
import io.jdbcrepl.lcr.RowImage;
import io.jdbcrepl.lcr.RowLcr;
import io.jdbcrepl.lcr.ValueType;
import java.sql.SQLException;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** SPEC 5.3, rule by rule. */
class ConflictResolverTest {

    /** The seed's two lists on hr.employees. */
    private static final HandlerDefinition PAY = handler("pay", HandlerType.OVERWRITE, "salary,commission_pct", null);
    private static final HandlerDefinition JOB = handler("job", HandlerType.IGNORE, "job_id,department_id", null);

    private static RowImage current() {
        return row("employee_id", 200, "salary", dec("5000"), "commission_pct", dec("0.10"), "job_id", "CLERK",
                "department_id", 10, "manager_id", 7, "name", "Ann");
    }

    /** An update from 4400/0.10/CLERK/10/7 at the source. */
    private static RowLcr lcr(Object... newValues) {
        RowImage nw = row(newValues);
        RowImage old = row("employee_id", 200);
        RowImage source = row("employee_id", 200, "salary", dec("4400"), "commission_pct", dec("0.10"),
                "job_id", "CLERK", "department_id", 10, "manager_id", 7, "name", "Ann");
        for (String c : nw.asMap().keySet()) old.put(c, source.get(c));
        // the handler lists are conditional log groups
        for (List<String> group : List.of(List.of("salary", "commission_pct"), List.of("job_id", "department_id"))) {
            if (group.stream().anyMatch(nw::has)) group.forEach(c -> old.put(c, source.get(c)));
        }
        return update(old, nw);
    }

    @Test
    void aConflictGoesToTheListHoldingItsColumn() {
        Resolution r = resolve(EMP, lcr("salary", dec("4900")), current(), PAY, JOB);
        assertThat(r.handlersTried()).containsExactly("pay");
        assertThat(r.action()).isEqualTo(Action.UPDATE);
        assertThat(r.key()).isEqualTo(row("employee_id", 200));
        assertThat(r.values()).isEqualTo(row("salary", dec("4900")));

        RowImage moved = current();
        moved.put("department_id", v(20));
        r = resolve(EMP, lcr("department_id", 30), moved, PAY, JOB);
        assertThat(r.handlersTried()).containsExactly("job");
        assertThat(r.action()).isEqualTo(Action.DISCARD);
        assertThat(r.outcomes()).extracting(Resolution.HandlerOutcome::outcome).containsExactly(Outcome.DESTINATION_KEPT);
    }

    @Test
    void aConflictInAColumnOfNoListIsUnresolved() {
        RowImage managed = current();
        managed.put("manager_id", v(8));
        Resolution r = resolve(EMP, lcr("manager_id", 9), managed, PAY, JOB);
        assertThat(r.action()).isEqualTo(Action.UNRESOLVED);
        assertThat(r.handlersTried()).isEmpty();
        assertThat(r.reason()).contains("hr.employees").contains("employee_id=200").contains("manager_id")
                .contains("7 -> 9").contains("destination 8").contains("no handler");
        assertThat(r.outcomes()).singleElement().satisfies(o -> {
            assertThat(o.outcome()).isEqualTo(Outcome.NO_HANDLER);
            assertThat(o.columns()).containsExactly("manager_id");
        });
        // ... even when a conflict in a listed column comes with it
        managed.put("salary", v(dec("5000")));
        r = resolve(EMP, lcr("manager_id", 9, "salary", dec("4900")), managed, PAY, JOB);
        assertThat(r.action()).isEqualTo(Action.UNRESOLVED);
    }

    @Test
    void theStarListTakesEveryColumnInNoOtherList() {
        HandlerDefinition rest = handler("rest", HandlerType.OVERWRITE, "*", null);
        RowImage managed = current();
        managed.put("manager_id", v(8));
        Resolution r = resolve(EMP, lcr("manager_id", 9), managed, PAY, JOB, rest);
        assertThat(r.handlersTried()).containsExactly("rest");
        assertThat(r.values()).isEqualTo(row("manager_id", 9));
        // a listed column still goes to its own list
        r = resolve(EMP, lcr("salary", dec("4900")), current(), handler("rest", HandlerType.IGNORE, "*", null), PAY);
        assertThat(r.handlersTried()).containsExactly("pay");
        assertThat(r.values()).isEqualTo(row("salary", dec("4900")));
    }

    @Test
    void severalListsEachResolveTheirOwnColumns() {
        RowImage both = current();
        both.put("department_id", v(20));
        RowLcr lcr = lcr("salary", dec("4900"), "department_id", 30, "name", "Anna");
        Resolution r = resolve(EMP, lcr, both, PAY, JOB);
        assertThat(r.handlersTried()).containsExactly("pay", "job");
        assertThat(r.action()).isEqualTo(Action.UPDATE);
        // pay overwrites, job keeps 20, name had no conflict: applied from the LCR
        assertThat(r.values()).isEqualTo(row("salary", dec("4900"), "name", "Anna"));
        assertThat(r.outcomes()).extracting(Resolution.HandlerOutcome::outcome)
                .containsExactly(Outcome.LCR_APPLIED, Outcome.DESTINATION_KEPT);

        // one list that cannot resolve makes the LCR unresolved
        HandlerDefinition maxJob = handler("job", HandlerType.MAXIMUM, "job_id,department_id", "department_id");
        both.put("department_id", v(30));
        r = resolve(EMP, lcr("salary", dec("4900"), "department_id", 30), both, PAY, maxJob);
        assertThat(r.action()).isEqualTo(Action.UNRESOLVED);
        assertThat(r.handlersTried()).containsExactly("pay", "job");
        assertThat(r.reason()).contains("job (MAXIMUM on department_id)").contains("equal resolution values");
        assertThat(r.outcomes()).extracting(Resolution.HandlerOutcome::outcome)
                .containsExactly(Outcome.LCR_APPLIED, Outcome.FAILED);
    }

    @Test
    void columnsWithoutConflictAreAppliedFromTheLcr() {
        HandlerDefinition keep = handler("pay", HandlerType.IGNORE, "salary,commission_pct", null);
        Resolution r = resolve(EMP, lcr("salary", dec("4900"), "name", "Anna", "manager_id", 9), current(), keep);
        assertThat(r.action()).isEqualTo(Action.UPDATE);
        assertThat(r.values()).isEqualTo(row("name", "Anna", "manager_id", 9));
    }

    @ParameterizedTest
    @EnumSource(value = HandlerType.class, names = {"OVERWRITE", "MAXIMUM", "MINIMUM", "DELTA"})
    void aListValueMissingFromTheLcrCannotResolve(HandlerType type) {
        HandlerDefinition h = handler("pay", type, "salary,bonus", type.needsResolution() ? "salary" : null);
        RowImage withBonus = current();
        withBonus.put("bonus", v(dec("1")));
        Resolution r = resolve(EMP, lcr("salary", dec("4900")), withBonus, h);
        assertThat(r.action()).isEqualTo(Action.UNRESOLVED);
        assertThat(r.reason()).contains("no value for bonus");
        assertThat(r.handlersTried()).containsExactly("pay");
    }

    @ParameterizedTest
    @EnumSource(value = HandlerType.class, names = {"IGNORE", "DISCARD"})
    void ignoreAndDiscardDiscardEvenWithValuesMissing(HandlerType type) {
        HandlerDefinition h = handler("pay", type, "salary,bonus", null);
        Resolution r = resolve(EMP, lcr("salary", dec("4900")), current(), h);
        assertThat(r.action()).isEqualTo(Action.DISCARD);
        assertThat(r.records()).isEmpty();
    }

    @Test
    void overwriteTakesTheLcrValuesNewElseOld() {
        // the LCR changed only salary; commission_pct travels as an old value (log group) and is
        // overwritten with it too
        RowImage cur = current();
        cur.put("commission_pct", v(dec("0.20")));
        Resolution r = resolve(EMP, lcr("salary", dec("4900")), cur, PAY);
        assertThat(r.values()).isEqualTo(row("salary", dec("4900"), "commission_pct", dec("0.10")));
    }

    @Test
    void maximumAndMinimum() {
        HandlerDefinition max = handler("pay", HandlerType.MAXIMUM, "salary,commission_pct", "salary");
        HandlerDefinition min = handler("pay", HandlerType.MINIMUM, "salary,commission_pct", "salary");
        assertThat(resolve(EMP, lcr("salary", dec("5100")), current(), max).values())
                .isEqualTo(row("salary", dec("5100")));
        assertThat(resolve(EMP, lcr("salary", dec("4900")), current(), max).action()).isEqualTo(Action.DISCARD);
        assertThat(resolve(EMP, lcr("salary", dec("4900")), current(), min).values())
                .isEqualTo(row("salary", dec("4900")));
        assertThat(resolve(EMP, lcr("salary", dec("5100")), current(), min).action()).isEqualTo(Action.DISCARD);
        // equal: 5000 = 5000.00
        Resolution r = resolve(EMP, lcr("salary", dec("5000.00"), "commission_pct", dec("0.3")), current(), max);
        assertThat(r.action()).isEqualTo(Action.UNRESOLVED);
        assertThat(r.reason()).contains("equal resolution values of salary");
    }

    @Test
    void maximumWithANullResolutionValueCannotResolve() {
        HandlerDefinition max = handler("pay", HandlerType.MAXIMUM, "salary,commission_pct", "salary");
        Resolution r = resolve(EMP, lcr("salary", nul(ValueType.DECIMAL)), current(), max);
        assertThat(r.action()).isEqualTo(Action.UNRESOLVED);
        assertThat(r.reason()).contains("NULL");
        RowImage nullSalary = current();
        nullSalary.put("salary", nul(ValueType.DECIMAL));
        r = resolve(EMP, lcr("salary", dec("4900")), nullSalary, max);
        assertThat(r.action()).isEqualTo(Action.UNRESOLVED);
        assertThat(r.reason()).contains("resolution column salary is NULL");
    }

    @Test
    void maximumWhenTheResolutionColumnDidNotConflict() {
        // time is the resolution column; only salary conflicts (the seed: "if the resolution column
        // was not the column causing the conflict", equal values: cannot resolve)
        HandlerDefinition max = handler("pay", HandlerType.MAXIMUM, "salary,time", "time");
        RowImage cur = current();
        cur.put("time", v(Instant.EPOCH.atOffset(java.time.ZoneOffset.UTC)));
        RowLcr l = update(row("employee_id", 200, "salary", dec("4400"), "time",
                Instant.EPOCH.atOffset(java.time.ZoneOffset.UTC)), row("salary", dec("4900")));
        Resolution r = resolve(EMP, l, cur, max);
        assertThat(r.action()).isEqualTo(Action.UNRESOLVED);
        assertThat(r.reason()).contains("equal resolution values of time");
    }

    @Test
    void deltaAddsTheLcrsDifference() {
        HandlerDefinition delta = handler("pay", HandlerType.DELTA, "salary,commission_pct", null);
        Resolution r = resolve(EMP, lcr("salary", dec("4900"), "commission_pct", dec("0.15")), current(), delta);
        assertThat(r.action()).isEqualTo(Action.UPDATE);
        assertThat(r.values()).isEqualTo(row("salary", dec("5500"), "commission_pct", dec("0.15")));
        // commission_pct only as an old value: its delta is 0
        r = resolve(EMP, lcr("salary", dec("4900")), current(), delta);
        assertThat(r.values()).isEqualTo(row("salary", dec("5500")));
    }

    @Test
    void deltaWithANullAnywhereCannotResolve() {
        HandlerDefinition delta = handler("pay", HandlerType.DELTA, "salary", null);
        assertThat(resolve(EMP, lcr("salary", nul(ValueType.DECIMAL)), current(), delta).action())
                .isEqualTo(Action.UNRESOLVED);
        RowImage nullSalary = current();
        nullSalary.put("salary", nul(ValueType.DECIMAL));
        Resolution r = resolve(EMP, lcr("salary", dec("4900")), nullSalary, delta);
        assertThat(r.action()).isEqualTo(Action.UNRESOLVED);
        assertThat(r.reason()).contains("DELTA on salary").contains("NULL");
        RowLcr oldNull = update(row("employee_id", 200, "salary", nul(ValueType.DECIMAL)), row("salary", dec("1")));
        assertThat(resolve(EMP, oldNull, current(), delta).action()).isEqualTo(Action.UNRESOLVED);
    }

    @Test
    void recordKeepsTheListAppliesTheRestAndRecordsTheLcr() {
        HandlerDefinition rec = handler("pay", HandlerType.RECORD, "salary,commission_pct", null);
        RowLcr l = lcr("salary", dec("4900"), "name", "Anna");
        Resolution r = resolve(EMP, l, current(), rec);
        assertThat(r.action()).isEqualTo(Action.UPDATE);
        assertThat(r.values()).isEqualTo(row("name", "Anna"));
        assertThat(r.records()).singleElement().satisfies(e -> {
            assertThat(e.lcr()).isSameAs(l);
            assertThat(e.handlers()).containsExactly("pay");
            assertThat(e.message()).contains("UPDATE/ROW_EXISTS").contains("employee_id=200").contains("pay");
        });
        // two RECORD lists: one entry for the LCR
        RowImage both = current();
        both.put("department_id", v(20));
        r = resolve(EMP, lcr("salary", dec("4900"), "department_id", 30), both, rec,
                handler("job", HandlerType.RECORD, "job_id,department_id", null));
        assertThat(r.action()).isEqualTo(Action.DISCARD);
        assertThat(r.records()).singleElement().satisfies(e -> assertThat(e.handlers()).containsExactly("pay", "job"));
    }

    @Test
    void handlersOfAnotherOperationOrConflictTypeAreNotUsed() {
        HandlerDefinition insertOnly = handler("pay", HandlerType.OVERWRITE, "salary", null, DmlOperation.INSERT,
                ConflictType.ROW_EXISTS);
        assertThat(resolve(EMP, lcr("salary", dec("4900")), current(), insertOnly).action())
                .isEqualTo(Action.UNRESOLVED);
        HandlerDefinition missingOnly = handler("m", HandlerType.IGNORE, "*", null, DmlOperation.UPDATE,
                ConflictType.ROW_MISSING);
        assertThat(resolve(EMP, lcr("salary", dec("4900")), current(), missingOnly).action())
                .isEqualTo(Action.UNRESOLVED);
    }

    // ---- INSERT/ROW_EXISTS

    private static HandlerDefinition onInsert(HandlerType type, String columns, String resolution) {
        return handler("ins", type, columns, resolution, DmlOperation.INSERT, ConflictType.ROW_EXISTS);
    }

    @Test
    void insertOverwriteBecomesAnUpdateOfTheExistingRow() {
        RowLcr ins = insert(row("employee_id", 200, "salary", dec("4900"), "commission_pct", dec("0.10"), "job_id",
                "CLERK", "department_id", 10, "manager_id", 7, "name", "Bob"));
        Resolution r = resolve(EMP, ins, current(), onInsert(HandlerType.OVERWRITE, "*", null));
        assertThat(r.action()).isEqualTo(Action.UPDATE);
        assertThat(r.key()).isEqualTo(row("employee_id", 200));
        assertThat(r.values()).isEqualTo(row("salary", dec("4900"), "name", "Bob"));
        assertThat(r.conflict().columns()).containsExactly("salary", "name");

        r = resolve(EMP, ins, current(), onInsert(HandlerType.MAXIMUM, "*", "salary"));
        assertThat(r.action()).isEqualTo(Action.DISCARD); // 4900 < 5000
        r = resolve(EMP, ins, current(), onInsert(HandlerType.MINIMUM, "*", "salary"));
        assertThat(r.values()).isEqualTo(row("salary", dec("4900"), "name", "Bob"));
        r = resolve(EMP, ins, current(), onInsert(HandlerType.IGNORE, "*", null));
        assertThat(r.action()).isEqualTo(Action.DISCARD);
        r = resolve(EMP, ins, current(), onInsert(HandlerType.RECORD, "*", null));
        assertThat(r.action()).isEqualTo(Action.DISCARD);
        assertThat(r.records()).hasSize(1);
        // a named list for salary only: name conflicts in no list
        r = resolve(EMP, ins, current(), onInsert(HandlerType.OVERWRITE, "salary", null));
        assertThat(r.action()).isEqualTo(Action.UNRESOLVED);
        assertThat(r.reason()).contains("name");
    }

    @Test
    void insertOverwriteMaximumMinimumOnlyForAConflictOnTheKey() {
        // employee 300 collides with 200 on a unique name
        RowLcr ins = insert(row("employee_id", 300, "name", "Ann", "salary", dec("1")));
        Conflict c = ConflictDetector.uniqueness(ins, current(), EMP, false);
        for (HandlerDefinition h : List.of(onInsert(HandlerType.OVERWRITE, "*", null),
                onInsert(HandlerType.MAXIMUM, "*", "salary"), onInsert(HandlerType.MINIMUM, "*", "salary"))) {
            Resolution r = new ConflictResolver(EMP, List.of(h)).resolve(ins, c);
            assertThat(r.action()).as(h.type().name()).isEqualTo(Action.UNRESOLVED);
            assertThat(r.reason()).contains("only a conflict on the key");
        }
        Resolution r = new ConflictResolver(EMP, List.of(onInsert(HandlerType.IGNORE, "*", null))).resolve(ins, c);
        assertThat(r.action()).isEqualTo(Action.DISCARD);
    }

    @Test
    void anInsertOfTheIdenticalRowChangesNothing() {
        Resolution r = resolve(EMP, insert(current()), current());
        assertThat(r.action()).isEqualTo(Action.DISCARD);
        assertThat(r.conflict().columns()).isEmpty();
    }

    // ---- UPDATE/ROW_MISSING, DELETE

    private static HandlerDefinition star(HandlerType type, DmlOperation op, ConflictType conflict) {
        return handler("h", type, "*", null, op, conflict);
    }

    @Test
    void updateOfAMissingRowWithOverwriteBecomesAnInsert() {
        TableSettings notNull = new TableSettings("hr", "employees", List.of("employee_id"), null,
                List.of("employee_id", "salary"), List.of());
        HandlerDefinition h = star(HandlerType.OVERWRITE, DmlOperation.UPDATE, ConflictType.ROW_MISSING);
        RowLcr l = lcr("salary", dec("4900"));
        Resolution r = resolve(notNull, l, null, h);
        assertThat(r.action()).isEqualTo(Action.INSERT);
        assertThat(r.values()).isEqualTo(row("salary", dec("4900"), "employee_id", 200, "commission_pct", dec("0.10")));
        assertThat(r.key()).isEqualTo(row("employee_id", 200));

        TableSettings needsName = new TableSettings("hr", "employees", List.of("employee_id"), null,
                List.of("employee_id", "NAME"), List.of());
        r = resolve(needsName, l, null, h);
        assertThat(r.action()).isEqualTo(Action.UNRESOLVED);
        assertThat(r.reason()).contains("NOT NULL column NAME").contains("no value");
        r = resolve(notNull, lcr("salary", nul(ValueType.DECIMAL)), null, h);
        assertThat(r.reason()).contains("NULL for NOT NULL column salary");
    }

    @Test
    void updateOfAMissingRow() {
        RowLcr l = lcr("salary", dec("4900"));
        assertThat(resolve(EMP, l, null).action()).isEqualTo(Action.UNRESOLVED);
        for (HandlerType t : List.of(HandlerType.IGNORE, HandlerType.DISCARD)) {
            Resolution r = resolve(EMP, l, null, star(t, DmlOperation.UPDATE, ConflictType.ROW_MISSING));
            assertThat(r.action()).isEqualTo(Action.DISCARD);
            assertThat(r.records()).isEmpty();
        }
        Resolution r = resolve(EMP, l, null, star(HandlerType.RECORD, DmlOperation.UPDATE, ConflictType.ROW_MISSING));
        assertThat(r.action()).isEqualTo(Action.DISCARD);
        assertThat(r.records()).singleElement().satisfies(e -> assertThat(e.message()).contains("UPDATE/ROW_MISSING"));
        // an UPDATE/ROW_EXISTS handler does not take a missing row
        assertThat(resolve(EMP, l, null, PAY).action()).isEqualTo(Action.UNRESOLVED);
    }

    @Test
    void deleteOfAChangedRow() {
        RowLcr del = delete(row("employee_id", 200, "salary", dec("4400"), "name", "Ann"));
        assertThat(resolve(EMP, del, current()).action()).isEqualTo(Action.UNRESOLVED);
        Resolution r = resolve(EMP, del, current(), star(HandlerType.OVERWRITE, DmlOperation.DELETE,
                ConflictType.ROW_EXISTS));
        assertThat(r.action()).isEqualTo(Action.DELETE);
        assertThat(r.key()).isEqualTo(row("employee_id", 200));
        r = resolve(EMP, del, current(), star(HandlerType.IGNORE, DmlOperation.DELETE, ConflictType.ROW_EXISTS));
        assertThat(r.action()).isEqualTo(Action.DISCARD);
        r = resolve(EMP, del, current(), star(HandlerType.RECORD, DmlOperation.DELETE, ConflictType.ROW_EXISTS));
        assertThat(r.records()).hasSize(1);
    }

    @Test
    void deleteOfAMissingRow() {
        RowLcr del = delete(row("employee_id", 200, "salary", dec("4400")));
        assertThat(resolve(EMP, del, null).action()).isEqualTo(Action.UNRESOLVED);
        for (HandlerType t : List.of(HandlerType.IGNORE, HandlerType.DISCARD, HandlerType.RECORD)) {
            Resolution r = resolve(EMP, del, null, star(t, DmlOperation.DELETE, ConflictType.ROW_MISSING));
            assertThat(r.action()).isEqualTo(Action.DISCARD);
            assertThat(r.records()).hasSize(t == HandlerType.RECORD ? 1 : 0);
        }
    }

    @Test
    void foreignKeyConflictsHaveNoPrebuiltHandler() {
        RowLcr ins = insert(row("employee_id", 206, "department_id", 271));
        Conflict c = ConflictDetector.foreignKey(ins, "23503", "fk");
        Resolution r = new ConflictResolver(EMP, List.of(onInsert(HandlerType.OVERWRITE, "*", null))).resolve(ins, c);
        assertThat(r.action()).isEqualTo(Action.UNRESOLVED);
        assertThat(r.reason()).contains("FOREIGN_KEY").contains("employee_id=206").contains("23503");
    }

    @Test
    void anUpdateOfTheKeyMovesTheRow() {
        RowLcr l = update(row("employee_id", 200, "salary", dec("4400")), row("employee_id", 201, "salary",
                dec("4900")));
        Resolution r = resolve(EMP, l, current(), handler("p", HandlerType.OVERWRITE, "salary", null));
        assertThat(r.key()).isEqualTo(row("employee_id", 200));
        assertThat(r.values()).isEqualTo(row("employee_id", 201, "salary", dec("4900")));
    }

    @Test
    void namesAreTheDestinations() {
        RowImage h2 = new RowImage();
        current().asMap().forEach((c, val) -> h2.put(c.toUpperCase(), val));
        TableSettings t = TableSettings.of("HR", "EMPLOYEES", List.of("EMPLOYEE_ID"));
        Resolution r = resolve(t, lcr("salary", dec("4900"), "name", "Anna"), h2, PAY);
        assertThat(r.key()).isEqualTo(row("EMPLOYEE_ID", 200));
        assertThat(r.values()).isEqualTo(row("SALARY", dec("4900"), "NAME", "Anna"));
    }

    @Test
    void historyRows() {
        RowImage both = current();
        both.put("department_id", v(20));
        RowLcr l = lcr("salary", dec("4900"), "department_id", 30);
        Resolution r = resolve(EMP, l, both, PAY, JOB);
        Instant now = Instant.parse("2026-12-03T07:00:00Z");
        List<Resolution.ConflictHistory> h = r.history(now, EMP);
        assertThat(h).hasSize(2);
        assertThat(h.get(0)).isEqualTo(new Resolution.ConflictHistory(now, "dbs1", "tx1", 1, "hr", "employees",
                row("employee_id", 200), DmlOperation.UPDATE, ConflictType.ROW_EXISTS, ConflictKind.UPDATE, List.of("salary"), "pay",
                HandlerType.OVERWRITE, Outcome.LCR_APPLIED, null, l.oldValues(), l.newValues(), both));
        assertThat(h.get(1).handlerName()).isEqualTo("job");
        assertThat(h.get(1).conflictingColumns()).containsExactly("department_id");
        assertThat(h.get(1).outcome()).isEqualTo(Outcome.DESTINATION_KEPT);
        Resolution u = resolve(EMP, lcr("salary", dec("4900")), current());
        assertThat(u.history(now, EMP)).singleElement().satisfies(x -> {
            assertThat(x.outcome()).isEqualTo(Outcome.NO_HANDLER);
            assertThat(x.handlerName()).isNull();
            assertThat(x.detail()).isEqualTo(u.reason());
        });
    }

    // ---- rules checked against the table's columns at connect

    private static Map<String, ValueType> columns() {
        Map<String, ValueType> m = new LinkedHashMap<>();
        m.put("EMPLOYEE_ID", ValueType.INTEGER);
        m.put("SALARY", ValueType.DECIMAL);
        m.put("BONUS", ValueType.FLOAT);
        m.put("NAME", ValueType.STRING);
        return m;
    }

    private static SQLException refused(HandlerDefinition... handlers) {
        SQLException e = catchThrowableOfType(SQLException.class,
                () -> ConflictResolver.forTable(EMP, List.of(handlers), columns()));
        assertThat((Throwable) e).isNotNull();
        assertThat(e.getSQLState()).isEqualTo("22023");
        return e;
    }

    @Test
    void deltaNeedsNumericColumns() throws SQLException {
        assertThat(refused(handler("d", HandlerType.DELTA, "salary,name", null)).getMessage())
                .contains("repl.handler.d").contains("NAME").contains("STRING").contains("numeric");
        assertThat(refused(handler("d", HandlerType.DELTA, "*", null)).getMessage()).contains("NAME");
        // * DELTA without the string column (in another list) and the key: fine
        ConflictResolver.forTable(EMP, List.of(handler("d", HandlerType.DELTA, "*", null),
                handler("n", HandlerType.OVERWRITE, "name", null)), columns());
        ConflictResolver.forTable(EMP, List.of(handler("d", HandlerType.DELTA, "salary,bonus", null)), columns());
    }

    @Test
    void listAndResolutionColumnsMustExist() throws SQLException {
        assertThat(refused(handler("p", HandlerType.OVERWRITE, "salary,wage", null)).getMessage())
                .contains("repl.handler.p.columns=salary,wage").contains("wage");
        assertThat(refused(handler("p", HandlerType.MAXIMUM, "*", "time")).getMessage())
                .contains("repl.handler.p.resolution=time");
        assertThat(refused(handler("p", HandlerType.MAXIMUM, "*", "salary"),
                handler("q", HandlerType.OVERWRITE, "salary", null)).getMessage())
                .contains("repl.handler.p.resolution=salary").contains("q");
        ConflictResolver.forTable(EMP, List.of(handler("p", HandlerType.MAXIMUM, "*", "salary"),
                handler("q", HandlerType.OVERWRITE, "salary", null, DmlOperation.INSERT, ConflictType.ROW_EXISTS)),
                columns());
    }

    @Test
    void listsOfOneTableNamedTwoWaysStayDisjoint() {
        HandlerDefinition qualified = handler("a", HandlerType.OVERWRITE, "salary", null);
        HandlerDefinition bare = new HandlerDefinition("b", new TableName(null, "employees"), HandlerType.IGNORE,
                ColumnSet.of(List.of("SALARY")), null, DmlOperation.UPDATE, ConflictType.ROW_EXISTS);
        assertThat(refused(qualified, bare).getMessage()).contains("a").contains("b").contains("at most one list");
        HandlerDefinition starA = handler("a", HandlerType.OVERWRITE, "*", null);
        HandlerDefinition starB = new HandlerDefinition("b", new TableName(null, "employees"), HandlerType.IGNORE,
                ColumnSet.STAR, null, DmlOperation.UPDATE, ConflictType.ROW_EXISTS);
        assertThat(refused(starA, starB).getMessage()).contains("only one * list");
    }
}
