package io.jdbcrepl.sql;

import io.jdbcrepl.dialect.Dialect;

import io.jdbcrepl.lcr.CommandType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;

import static io.jdbcrepl.sql.Analyses.column;
import static io.jdbcrepl.sql.Analyses.dml;
import static io.jdbcrepl.sql.Analyses.fragment;
import static io.jdbcrepl.sql.Analyses.quoted;
import static org.assertj.core.api.Assertions.assertThat;

class UpdateAnalysisTest {

    @ParameterizedTest
    @MethodSource("io.jdbcrepl.dialect.Dialect#all")
    void eachClauseKnowsItsParameters(Dialect dialect) {
        Dml d = dml("UPDATE t SET a = ?, b = ? WHERE c = ? AND d IN (SELECT x FROM y WHERE z = ?)", dialect);
        assertThat(d.command()).isEqualTo(CommandType.UPDATE);
        assertThat(d.target()).isEqualTo(new TableRef(null, "t", null, false, false, "t"));
        assertThat(d.assignedColumns()).containsExactly(column("a"), column("b"));
        assertThat(d.assignments()).containsExactly(
                new Assignment(column("a"), fragment("?", 1)), new Assignment(column("b"), fragment("?", 2)));
        assertThat(d.set()).isEqualTo(fragment("a = ?, b = ?", 1, 2));
        assertThat(d.setParameters()).containsExactly(1, 2);
        assertThat(d.whereText()).isEqualTo("c = ? AND d IN (SELECT x FROM y WHERE z = ?)");
        assertThat(d.whereParameters()).containsExactly(3, 4);
        assertThat(d.whereHasSubquery()).isTrue();
        assertThat(d.parameterCount()).isEqualTo(4);
        assertThat(d.fromItemsText()).isEmpty();
        assertThat(d.orderBy()).isNull();
        assertThat(d.limit()).isNull();
        assertThat(d.returning()).isEmpty();
        assertThat(d.insertSource()).isNull();
        assertThat(d.sql()).startsWith("UPDATE t SET");
    }

    @Test
    void parametersInNestedSubqueriesOfSetAndWhere() {
        Dml d = dml("UPDATE t SET a = (SELECT max(x) FROM y WHERE y.k = ?), b = coalesce(?, b) "
                + "WHERE c IN (SELECT d FROM e WHERE f = (SELECT g FROM h WHERE i = ?)) AND j = ?", Dialect.named("postgresql"));
        assertThat(d.assignments().get(0).value()).isEqualTo(fragment("(SELECT max(x) FROM y WHERE y.k = ?)", 1));
        assertThat(d.assignments().get(1).value()).isEqualTo(fragment("coalesce(?, b)", 2));
        assertThat(d.setParameters()).containsExactly(1, 2);
        assertThat(d.whereParameters()).containsExactly(3, 4);
        assertThat(d.parameterCount()).isEqualTo(4);
    }

    @Test
    void postgresqlQuotedAndQualifiedTargetWithAlias() {
        Dml d = dml("UPDATE hr.\"Employees\" AS e SET \"Salary\" = e.\"Salary\" * 1.1 WHERE e.id = ?", Dialect.named("postgresql"));
        assertThat(d.target()).isEqualTo(new TableRef("hr", "Employees", "e", false, true, "hr.\"Employees\""));
        assertThat(d.target().foldedSchema(Dialect.named("postgresql"))).isEqualTo("hr");
        assertThat(d.target().foldedName(Dialect.named("postgresql"))).isEqualTo("Employees");
        assertThat(d.target().reference()).isEqualTo("e");
        assertThat(d.assignedColumns()).containsExactly(quoted("Salary"));
        assertThat(d.assignments().get(0).value().text()).isEqualTo("e.\"Salary\" * 1.1");
    }

    @Test
    void mysqlBackticksOrderByAndLimit() {
        Dml d = dml("UPDATE `hr`.`Emp` e SET e.`salary` = salary * 1.1, `Bonus` = ? WHERE dept = ? "
                + "ORDER BY hired DESC, id LIMIT ?", Dialect.named("mariadb"));
        assertThat(d.target()).isEqualTo(new TableRef("hr", "Emp", "e", true, true, "`hr`.`Emp`"));
        assertThat(d.assignedColumns()).containsExactly(quoted("salary"), quoted("Bonus"));
        assertThat(d.whereText()).isEqualTo("dept = ?");
        assertThat(d.orderByText()).isEqualTo("hired DESC, id");
        assertThat(d.limit()).isEqualTo(fragment("?", 3));
        assertThat(d.setParameters()).containsExactly(1);
        assertThat(d.whereParameters()).containsExactly(2);
    }

    @Test
    void h2UnquotedNamesFoldToUpperCase() {
        Dml d = dml("UPDATE public.emp SET name = ? WHERE id = ?", Dialect.named("h2"));
        assertThat(d.target().foldedSchema(Dialect.named("h2"))).isEqualTo("PUBLIC");
        assertThat(d.target().foldedName(Dialect.named("h2"))).isEqualTo("EMP");
        assertThat(d.assignedColumns().get(0).folded(Dialect.named("h2"))).isEqualTo("NAME");
    }

    @ParameterizedTest
    @MethodSource("io.jdbcrepl.dialect.Dialect#all")
    void tupleAssignmentsGiveOneAssignmentPerColumn(Dialect dialect) {
        Dml d = dml("UPDATE t SET (a, \"B\") = (?, 'x'), c = ? WHERE id = ?", dialect);
        assertThat(d.assignedColumns()).containsExactly(column("a"), quoted("B"), column("c"));
        assertThat(d.assignments()).extracting(Assignment::value)
                .containsExactly(fragment("?", 1), fragment("'x'"), fragment("?", 2));
        assertThat(d.whereParameters()).containsExactly(3);
    }

    @Test
    void postgresqlUpdateFromWithJoinsAndReturning() {
        Dml d = dml("UPDATE t SET a = u.a FROM u JOIN v ON v.id = u.vid, w WHERE t.id = u.id AND v.x = ? "
                + "RETURNING t.id, t.a AS new_a", Dialect.named("postgresql"));
        assertThat(d.fromItemsText()).isEqualTo("u JOIN v ON v.id = u.vid, w");
        assertThat(d.whereText()).isEqualTo("t.id = u.id AND v.x = ?");
        assertThat(d.returningTexts()).containsExactly("t.id", "t.a AS new_a");
        assertThat(d.returningAll()).isFalse();
    }

    @Test
    void returningAllIsStarOrTheTargetsStar() {
        assertThat(dml("UPDATE t SET a = 1 RETURNING *", Dialect.named("postgresql")).returningAll()).isTrue();
        assertThat(dml("UPDATE t AS e SET a = 1 RETURNING e.*", Dialect.named("postgresql")).returningAll()).isTrue();
        assertThat(dml("UPDATE t SET a = 1 FROM u RETURNING u.*", Dialect.named("postgresql")).returningAll()).isFalse();
        assertThat(dml("UPDATE t SET a = 1 RETURNING a", Dialect.named("postgresql")).returningAll()).isFalse();
    }

    @Test
    void isDistinctFromInSetIsNotAFromClause() {
        Dml d = dml("UPDATE t SET changed = a IS DISTINCT FROM b FROM u WHERE t.id = u.id", Dialect.named("postgresql"));
        assertThat(d.assignments().get(0).value().text()).isEqualTo("a IS DISTINCT FROM b");
        assertThat(d.fromItemsText()).isEqualTo("u");
    }

    @Test
    void commentsAndLiteralsWithKeywordsDoNotCutClauses() {
        String sql = "UPDATE t /* WHERE */ SET a = 'WHERE x; FROM y', -- SET\n b = \"ORDER\" "
                + "WHERE c = ? /* LIMIT 1 */ AND d = 'RETURNING ?' -- trailing ?";
        Dml d = dml(sql, Dialect.named("postgresql"));
        assertThat(d.assignments()).extracting(Assignment::value)
                .containsExactly(fragment("'WHERE x; FROM y'"), fragment("\"ORDER\""));
        assertThat(d.where()).isEqualTo(fragment("c = ? /* LIMIT 1 */ AND d = 'RETURNING ?'", 1));
        assertThat(d.parameterCount()).isEqualTo(1);
        assertThat(d.limit()).isNull();
    }

    @Test
    void textsSurviveLineBreaksTabsAndSurrogatePairs() {
        Dml d = dml("UPDATE t\r\n\tSET a = '😀😀',\r b = ?\n\tWHERE\n c = ?", Dialect.named("postgresql"));
        assertThat(d.assignments()).extracting(Assignment::value).containsExactly(fragment("'😀😀'"), fragment("?", 1));
        assertThat(d.where()).isEqualTo(fragment("c = ?", 2));
    }

    @Test
    void onlyExcludesInheritanceChildren() {
        Dml d = dml("UPDATE ONLY parent SET a = 1 WHERE b = ?", Dialect.named("postgresql"));
        assertThat(d.only()).isTrue();
        assertThat(d.target().sqlText()).isEqualTo("parent");
        assertThat(d.whereParameters()).containsExactly(1);
        assertThat(dml("UPDATE parent SET a = 1", Dialect.named("postgresql")).only()).isFalse();
    }

    @Test
    void mysqlModifiers() {
        Dml d = dml("UPDATE LOW_PRIORITY IGNORE t SET a = 1", Dialect.named("mariadb"));
        assertThat(d.ignore()).isTrue();
        assertThat(d.target().name()).isEqualTo("t");
        assertThat(dml("UPDATE t SET a = 1", Dialect.named("mariadb")).ignore()).isFalse();
    }

    @Test
    void setTargetsQualifiedByTheTableNameTheColumn() {
        assertThat(dml("UPDATE t SET t.a = 1, `t`.`b` = 2", Dialect.named("mariadb")).assignedColumns())
                .containsExactly(column("a"), quoted("b"));
        assertThat(dml("UPDATE t e SET e.a = 1", Dialect.named("h2")).assignedColumns()).containsExactly(column("a"));
        // PostgreSQL: comp.f is field f of composite column comp, arr[2] an element of arr
        assertThat(dml("UPDATE t SET comp.f = 1, arr[2] = 5", Dialect.named("postgresql")).assignedColumns())
                .containsExactly(column("comp"), column("arr"));
    }

    @Test
    void whereWithoutSubquery() {
        Dml d = dml("UPDATE t SET a = (SELECT 1) WHERE b = 'SELECT'", Dialect.named("mariadb"));
        assertThat(d.whereHasSubquery()).isFalse();
        assertThat(dml("UPDATE t SET a = 1 WHERE EXISTS (SELECT 1 FROM u)", Dialect.named("h2")).whereHasSubquery()).isTrue();
        assertThat(dml("UPDATE t SET a = 1", Dialect.named("h2")).where()).isNull();
    }

    @Test
    void lowerCaseAndTrailingSemicolon() {
        Dml d = dml("update t set a = default where b = ?;", Dialect.named("mariadb"));
        assertThat(d.assignments()).containsExactly(new Assignment(column("a"), fragment("default")));
        assertThat(d.whereText()).isEqualTo("b = ?");
        assertThat(d.sql()).isEqualTo("update t set a = default where b = ?;");
    }

    @Test
    void jdbcEscapesStayAsWritten() {
        Dml d = dml("UPDATE t SET a = {fn now()}, b = {d '2024-01-02'} WHERE c = ?", Dialect.named("h2"));
        assertThat(d.assignments()).extracting(a -> a.value().text()).containsExactly("{fn now()}", "{d '2024-01-02'}");
        assertThat(d.whereParameters()).containsExactly(1);
    }

    @Test
    void threePartNamesKeepTheCatalogOnlyInTheText() {
        Dml d = dml("UPDATE db.hr.emp SET a = 1", Dialect.named("h2"));
        assertThat(d.target()).isEqualTo(new TableRef("hr", "emp", null, false, false, "db.hr.emp"));
        assertThat(List.of(d.target().schemaQuoted(), d.target().nameQuoted())).containsOnly(false);
    }
}
