package io.jdbcrepl.mview;

import io.jdbcrepl.dialect.Dialect;
import io.jdbcrepl.mview.MviewCommand.Name;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.sql.SQLException;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Reading a view's query, the fast-refresh rules against a log, and the refresh's SQL. */
class ViewQueryTest {

    private static final LogDefinition SEED_ROWID = new LogDefinition(new Name("public", "t_rowid"), "mlog$_t_rowid", false,
            true, true, List.of("name", "num"), true, List.of("id"));
    private static final LogDefinition SEED_PK = new LogDefinition(new Name("public", "t_pk"), "mlog$_t_pk", true, false,
            false, List.of(), false, List.of("id"));

    private static ViewQuery q(String sql) throws SQLException {
        return ViewQuery.parse(sql, Dialect.named("postgresql"));
    }

    @Test
    void theSeedsView() throws SQLException {
        ViewQuery v = q("select name, count(*) from t_rowid group by name");
        assertThat(v.master()).isEqualTo(new Name(null, "t_rowid"));
        assertThat(v.aggregate()).isTrue();
        assertThat(v.groupBy()).containsExactly("name");
        assertThat(v.columns()).containsExactly("name");
        assertThat(FastRefresh.problem(v, SEED_ROWID)).isNull();
        assertThat(FastRefresh.refreshKey(v, SEED_ROWID)).containsExactly("name");
        assertThat(v.restricted("name IN (?)")).isEqualTo("SELECT name, count(*) FROM t_rowid WHERE name IN (?) GROUP BY name");
    }

    @Test
    void restrictionKeepsWhereGroupByAndHaving() throws SQLException {
        ViewQuery v = q("select grp, sum(val) as s from hr.m x where val > 1 or val < -1 group by grp having count(*) > 1");
        assertThat(v.master()).isEqualTo(new Name("hr", "m"));
        assertThat(v.restricted("grp = ?")).isEqualTo(
                "SELECT grp, sum(val) AS s FROM hr.m x WHERE (val > 1 OR val < -1) AND (grp = ?) GROUP BY grp HAVING count(*) > 1");
        assertThat(v.restricted(null)).isEqualTo(
                "SELECT grp, sum(val) AS s FROM hr.m x WHERE val > 1 OR val < -1 GROUP BY grp HAVING count(*) > 1");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "select distinct name from t|DISTINCT",
            "select name from t order by name|ORDER BY",
            "select name from t limit 5|LIMIT",
            "select name from t where id in (select id from u)|a subquery",
            "select name, row_number() over () from t|a window function",
            "select upper(name), count(*) from t group by upper(name)|GROUP BY upper(name)",
            "select * , count(*) from t group by id|* with aggregates"})
    void queriesThatCannotBeRefreshedFast(String sql, String problem) throws SQLException {
        assertThat(q(sql).fastProblem()).contains(problem);
        assertThat(FastRefresh.problem(q(sql), SEED_PK)).contains(problem);
    }

    @Test
    void queriesThatAreNoViewOfOneTable() {
        assertThatThrownBy(() -> q("select a from t join u on t.id = u.id")).hasMessageContaining("exactly one table");
        assertThatThrownBy(() -> q("select a from t union select a from u")).hasMessageContaining("one SELECT");
        assertThatThrownBy(() -> q("select a from (select a from t) x")).hasMessageContaining("exactly one table");
        assertThatThrownBy(() -> q("select from where")).isInstanceOfSatisfying(SQLException.class,
                e -> assertThat(e.getSQLState()).isEqualTo("42601"));
    }

    @Test
    void whatTheLogLacks() throws SQLException {
        ViewQuery sumNum = q("select name, sum(num), count(id) from t_rowid group by name");
        assertThat(FastRefresh.problem(sumNum, SEED_ROWID)).contains("mlog$_t_rowid").contains("lacks column id");
        ViewQuery agg = q("select id, count(*) from t_pk group by id");
        assertThat(FastRefresh.problem(agg, SEED_PK)).contains("lacks INCLUDING NEW VALUES");
        LogDefinition columnsOnly = new LogDefinition(new Name("public", "t"), "mlog$_t", false, false, false,
                List.of("name"), true, List.of("id"));
        assertThat(FastRefresh.problem(q("select name, count(*) from t group by name"), columnsOnly))
                .contains("lacks ROWID (or PRIMARY KEY)");
        assertThat(FastRefresh.problem(q("select count(*) from t group by name"), SEED_ROWID))
                .contains("lacks the GROUP BY column name");
    }

    @Test
    void viewsWithoutAggregatesNeedTheKey() throws SQLException {
        assertThat(FastRefresh.problem(q("select id, name from t_pk where num > 3"), SEED_PK)).isNull();
        assertThat(FastRefresh.refreshKey(q("select id, name from t_pk"), SEED_PK)).containsExactly("id");
        assertThat(FastRefresh.problem(q("select * from t_pk"), SEED_PK)).isNull();
        assertThat(FastRefresh.problem(q("select name from t_pk"), SEED_PK)).contains("lacks the primary key column id");
        assertThat(FastRefresh.problem(q("select id, name from t_rowid"), SEED_ROWID))
                .contains("lacks primary key column id (WITH PRIMARY KEY)");
        LogDefinition noKey = new LogDefinition(new Name("public", "h"), "mlog$_h", false, false, false, List.of("a"), true,
                List.of());
        assertThat(FastRefresh.problem(q("select a from h"), noKey)).contains("has no primary key");
    }

    @Test
    void logNames() {
        assertThat(LogDefinition.logTableName("t_rowid", false, n -> false)).isEqualTo("mlog$_t_rowid");
        assertThat(LogDefinition.logTableName("T_PK", true, n -> false)).isEqualTo("MLOG$_T_PK");
        assertThat(LogDefinition.logTableName("a_very_long_table_name_indeed", false, n -> false))
                .isEqualTo("mlog$_a_very_long_table_na");
        assertThat(LogDefinition.logTableName("a_very_long_table_name_too", false,
                n -> List.of("mlog$_a_very_long_table_na", "mlog$_a_very_long_table_na1").contains(n)))
                .isEqualTo("mlog$_a_very_long_table_na2");
        assertThat(SEED_ROWID.options()).isEqualTo("WITH ROWID, SEQUENCE (name, num) INCLUDING NEW VALUES");
        assertThat(SEED_PK.columns()).containsExactly("id");
    }

    @Test
    void keyMatches() {
        KeyMatch one = KeyMatch.of(List.of("\"g\""), List.of(new Object[] {"a"}, new Object[] {null}, new Object[] {"b"}));
        assertThat(one.sql()).isEqualTo("\"g\" IN (?, ?) OR \"g\" IS NULL");
        assertThat(one.parameters()).containsExactly("a", "b");
        KeyMatch two = KeyMatch.of(List.of("a", "b"), List.of(new Object[] {1, null}, new Object[] {2, 3}));
        assertThat(two.sql()).isEqualTo("(a = ? AND b IS NULL) OR (a = ? AND b = ?)");
        assertThat(two.parameters()).containsExactly(1, 2, 3);
        assertThat(KeyMatch.of(List.of("a"), List.of()).sql()).isEqualTo("1 = 0");
    }
}
