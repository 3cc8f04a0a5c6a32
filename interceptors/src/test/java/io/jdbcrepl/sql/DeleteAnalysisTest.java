package io.jdbcrepl.sql;

import io.jdbcrepl.dialect.Dialect;

import io.jdbcrepl.lcr.CommandType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;

import static io.jdbcrepl.sql.Analyses.dml;
import static io.jdbcrepl.sql.Analyses.fragment;
import static io.jdbcrepl.sql.Analyses.opaque;
import static org.assertj.core.api.Assertions.assertThat;

class DeleteAnalysisTest {

    @ParameterizedTest
    @MethodSource("io.jdbcrepl.dialect.Dialect#all")
    void deleteWithWhere(Dialect dialect) {
        Dml d = dml("DELETE FROM hr.emp WHERE dept = ? AND id NOT IN (SELECT emp FROM keep WHERE y = ?)", dialect);
        assertThat(d.command()).isEqualTo(CommandType.DELETE);
        assertThat(d.target()).isEqualTo(new TableRef("hr", "emp", null, false, false, "hr.emp"));
        assertThat(d.where()).isEqualTo(fragment("dept = ? AND id NOT IN (SELECT emp FROM keep WHERE y = ?)", 1, 2));
        assertThat(d.whereHasSubquery()).isTrue();
        assertThat(d.assignedColumns()).isEmpty();
        assertThat(d.assignments()).isEmpty();
        assertThat(d.set()).isNull();
        assertThat(d.parameterCount()).isEqualTo(2);
    }

    @ParameterizedTest
    @MethodSource("io.jdbcrepl.dialect.Dialect#all")
    void deleteEverything(Dialect dialect) {
        Dml d = dml("DELETE FROM t", dialect);
        assertThat(d.where()).isNull();
        assertThat(d.whereHasSubquery()).isFalse();
        assertThat(d.parameterCount()).isZero();
    }

    @Test
    void postgresqlUsingWithAliasAndReturning() {
        Dml d = dml("DELETE FROM orders AS o USING customers c, regions WHERE o.cust = c.id AND c.region = ? "
                + "RETURNING o.*", Dialect.named("postgresql"));
        assertThat(d.target().alias()).isEqualTo("o");
        assertThat(d.fromItemsText()).isEqualTo("customers c, regions");
        assertThat(d.whereParameters()).containsExactly(1);
        assertThat(d.returningAll()).isTrue();
    }

    @Test
    void mysqlOrderByLimitAndModifiers() {
        Dml d = dml("DELETE LOW_PRIORITY QUICK IGNORE FROM `log` WHERE ts < ? ORDER BY ts LIMIT 1000", Dialect.named("mariadb"));
        assertThat(d.ignore()).isTrue();
        assertThat(d.target().nameQuoted()).isTrue();
        assertThat(d.orderByText()).isEqualTo("ts");
        assertThat(d.limitText()).isEqualTo("1000");
        assertThat(d.whereText()).isEqualTo("ts < ?");
    }

    @Test
    void mariaDbReturning() {
        Dml d = dml("DELETE FROM t WHERE a = ? RETURNING a, b", Dialect.named("mariadb"));
        assertThat(d.returningTexts()).containsExactly("a", "b");
    }

    @Test
    void onlyAndQuotedNames() {
        Dml d = dml("DELETE FROM ONLY \"Parent\" WHERE id = ?", Dialect.named("postgresql"));
        assertThat(d.only()).isTrue();
        assertThat(d.target()).isEqualTo(new TableRef(null, "Parent", null, false, true, "\"Parent\""));
        assertThat(d.whereParameters()).containsExactly(1);
    }

    @Test
    void subqueryOnTheTargetItself() {
        Dml d = dml("DELETE FROM t WHERE id IN (SELECT id FROM t ORDER BY id LIMIT ?)", Dialect.named("postgresql"));
        assertThat(d.orderBy()).isNull();
        assertThat(d.limit()).isNull();
        assertThat(d.where()).isEqualTo(fragment("id IN (SELECT id FROM t ORDER BY id LIMIT ?)", 1));
    }

    /** Issue 16: Hibernate 6's bulk delete on MariaDB, DELETE x FROM t x, deletes from the one table it reads. */
    @Test
    void mysqlDeleteOfTheOneTableItReadsUnderAnAlias() {
        Dml d = dml("delete x1_0 from item x1_0 where x1_0.qty < ? and x1_0.id in (select id from keep)", Dialect.named("mariadb"));
        assertThat(d.target()).isEqualTo(new TableRef(null, "item", "x1_0", false, false, "item"));
        assertThat(d.where()).isEqualTo(fragment("x1_0.qty < ? and x1_0.id in (select id from keep)", 1));
        assertThat(d.fromRelations()).isEmpty();
        assertThat(dml("DELETE `X` FROM `hr`.`item` AS x WHERE x.id = 1", Dialect.named("mariadb")).target())
                .isEqualTo(new TableRef("hr", "item", "x", true, true, "`hr`.`item`"));
        // DELETE t FROM t: the name is what its clauses call it, as an alias would be
        assertThat(dml("DELETE t FROM t WHERE t.id = 1", Dialect.named("mariadb")).target())
                .isEqualTo(new TableRef(null, "t", "t", false, false, "t"));
        assertThat(dml("DELETE hr.t FROM hr.t WHERE id = ?", Dialect.named("mariadb")).target())
                .isEqualTo(new TableRef("hr", "t", "t", false, false, "hr.t"));
        // multi-table: another table or a join (see MultiTableAnalysisTest); a name the join does not have
        for (String sql : List.of("DELETE x, y FROM t x, u y WHERE x.id = y.id", "DELETE x FROM t x JOIN u ON u.id = x.id")) {
            assertThat(SqlClassifier.analyze(sql, Dialect.named("mariadb"))).as(sql).isInstanceOf(MultiTableDml.class);
        }
        for (String sql : List.of("DELETE y FROM t x WHERE x.id = 1", "DELETE u FROM t WHERE id = 1",
                "DELETE t FROM t AS x WHERE x.id = 1")) {
            assertThat(opaque(sql, Dialect.named("mariadb")).reason()).as(sql).startsWith("DELETE could not be analysed");
        }
    }
}
