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

class InsertAnalysisTest {

    @ParameterizedTest
    @MethodSource("io.jdbcrepl.dialect.Dialect#all")
    void multiRowValuesKeepEachRowsExpressions(Dialect dialect) {
        Dml d = dml("INSERT INTO t (a, \"B\") VALUES (1, ?), (?, 'it''s -- (x)'), (lower(?), DEFAULT)", dialect);
        assertThat(d.command()).isEqualTo(CommandType.INSERT);
        assertThat(d.assignedColumns()).containsExactly(column("a"), quoted("B"));
        InsertSource.Values values = (InsertSource.Values) d.insertSource();
        assertThat(values.rowCount()).isEqualTo(3);
        assertThat(values.rows()).containsExactly(
                List.of(fragment("1"), fragment("?", 1)),
                List.of(fragment("?", 2), fragment("'it''s -- (x)'")),
                List.of(fragment("lower(?)", 3), fragment("DEFAULT")));
        assertThat(values.text().parameters()).containsExactly(1, 2, 3);
        assertThat(d.parameterCount()).isEqualTo(3);
        assertThat(d.where()).isNull();
        assertThat(d.set()).isNull();
        assertThat(d.onConflict()).isNull();
        assertThat(d.onDuplicateKeyUpdate()).isNull();
    }

    @ParameterizedTest
    @MethodSource("io.jdbcrepl.dialect.Dialect#all")
    void withoutAColumnListEveryColumnIsAssigned(Dialect dialect) {
        Dml d = dml("INSERT INTO hr.emp VALUES (?, ?)", dialect);
        assertThat(d.assignedColumns()).isEmpty();
        assertThat(d.target().schema()).isEqualTo("hr");
        assertThat(((InsertSource.Values) d.insertSource()).rows()).containsExactly(List.of(fragment("?", 1), fragment("?", 2)));
    }

    @ParameterizedTest
    @MethodSource("io.jdbcrepl.dialect.Dialect#all")
    void insertSelectKeepsTheQueryAsWritten(Dialect dialect) {
        Dml d = dml("INSERT INTO archive (id, note) SELECT id, note FROM t WHERE d < ? ORDER BY id LIMIT 10", dialect);
        assertThat(d.insertSource()).isEqualTo(new InsertSource.Query(
                fragment("SELECT id, note FROM t WHERE d < ? ORDER BY id LIMIT 10", 1)));
        assertThat(d.assignedColumns()).containsExactly(column("id"), column("note"));
        assertThat(d.orderBy()).isNull();
        assertThat(d.limit()).isNull();
    }

    @Test
    void insertSelectVariants() {
        assertThat(dml("INSERT INTO t (SELECT * FROM u)", Dialect.named("postgresql")).insertSource().text().text())
                .isEqualTo("(SELECT * FROM u)");
        assertThat(dml("INSERT INTO t SELECT 1 UNION ALL SELECT 2", Dialect.named("h2")).insertSource().text().text())
                .isEqualTo("SELECT 1 UNION ALL SELECT 2");
        assertThat(dml("INSERT INTO t WITH x AS (SELECT ? AS v) SELECT v FROM x", Dialect.named("postgresql")).insertSource())
                .isEqualTo(new InsertSource.Query(fragment("WITH x AS (SELECT ? AS v) SELECT v FROM x", 1)));
    }

    @Test
    void onConflictDoNothingWithAndWithoutTarget() {
        OnConflict c = dml("INSERT INTO t (a) VALUES (?) ON CONFLICT (a, \"B\") DO NOTHING", Dialect.named("postgresql")).onConflict();
        assertThat(c.doNothing()).isTrue();
        assertThat(c.targetColumns()).containsExactly(column("a"), quoted("B"));
        assertThat(c.clause().text()).isEqualTo("ON CONFLICT (a, \"B\") DO NOTHING");
        assertThat(c.assignments()).isEmpty();
        assertThat(c.constraint()).isNull();

        OnConflict bare = dml("INSERT INTO t (a) VALUES (1) ON CONFLICT DO NOTHING", Dialect.named("postgresql")).onConflict();
        assertThat(bare.doNothing()).isTrue();
        assertThat(bare.targetColumns()).isEmpty();
    }

    @Test
    void onConflictOnConstraint() {
        OnConflict c = dml("INSERT INTO t (a) VALUES (1) ON CONFLICT ON CONSTRAINT t_pkey DO UPDATE SET a = EXCLUDED.a",
                Dialect.named("postgresql")).onConflict();
        assertThat(c.constraint()).isEqualTo("t_pkey");
        assertThat(c.targetColumns()).isEmpty();
        assertThat(c.doNothing()).isFalse();
        assertThat(c.updatedColumns()).containsExactly(column("a"));
    }

    @Test
    void onConflictDoUpdateWithBothWheresAndParameters() {
        // JSqlParser takes a (p, q) = (…) tuple only before the single assignments
        Dml d = dml("INSERT INTO t AS x (id, n) VALUES (?, ?) ON CONFLICT (id) WHERE active = ? "
                + "DO UPDATE SET (p, q) = (?, 'q'), n = x.n + EXCLUDED.n WHERE x.locked = ? RETURNING id, n", Dialect.named("postgresql"));
        assertThat(d.target().alias()).isEqualTo("x");
        OnConflict c = d.onConflict();
        assertThat(c.targetColumns()).containsExactly(column("id"));
        assertThat(c.targetWhere()).isEqualTo(fragment("active = ?", 3));
        assertThat(c.assignments()).containsExactly(
                new Assignment(column("p"), fragment("?", 4)),
                new Assignment(column("q"), fragment("'q'")),
                new Assignment(column("n"), fragment("x.n + EXCLUDED.n")));
        assertThat(c.where()).isEqualTo(fragment("x.locked = ?", 5));
        assertThat(c.clause().parameters()).containsExactly(3, 4, 5);
        assertThat(d.returningTexts()).containsExactly("id", "n");
        assertThat(d.parameterCount()).isEqualTo(5);
    }

    @Test
    void onDuplicateKeyUpdate() {
        Dml d = dml("INSERT INTO t (a, b) VALUES (?, ?) ON DUPLICATE KEY UPDATE b = VALUES(b) + ?, `c` = c + 1",
                Dialect.named("mariadb"));
        OnDuplicateKeyUpdate u = d.onDuplicateKeyUpdate();
        assertThat(u.clause()).isEqualTo(fragment("b = VALUES(b) + ?, `c` = c + 1", 3));
        assertThat(u.assignments()).containsExactly(
                new Assignment(column("b"), fragment("VALUES(b) + ?", 3)),
                new Assignment(quoted("c"), fragment("c + 1")));
        assertThat(u.updatedColumns()).containsExactly(column("b"), quoted("c"));
        assertThat(d.onConflict()).isNull();
        assertThat(d.ignore()).isFalse();
    }

    @Test
    void insertIgnore() {
        Dml d = dml("INSERT IGNORE INTO t (a) VALUES (1)", Dialect.named("mariadb"));
        assertThat(d.ignore()).isTrue();
        assertThat(d.target().name()).isEqualTo("t");
    }

    @Test
    void returningOnPostgresqlAndMariaDb() {
        Dml pg = dml("INSERT INTO t (a) VALUES (?) RETURNING id, a + 1 AS b", Dialect.named("postgresql"));
        assertThat(pg.returning()).containsExactly(fragment("id"), fragment("a + 1 AS b"));
        assertThat(pg.returningAll()).isFalse();
        Dml maria = dml("INSERT INTO t (a) VALUES ('x') RETURNING *", Dialect.named("mariadb"));
        assertThat(maria.returningAll()).isTrue();
        assertThat(maria.returningTexts()).containsExactly("*");
    }

    @Test
    void defaultValues() {
        Dml d = dml("INSERT INTO t DEFAULT VALUES RETURNING id", Dialect.named("postgresql"));
        assertThat(d.insertSource()).isEqualTo(new InsertSource.DefaultValues(fragment("DEFAULT VALUES")));
        assertThat(d.returningTexts()).containsExactly("id");
    }

    @Test
    void mysqlInsertSetIsOneRow() {
        Dml d = dml("INSERT INTO t SET a = 1, `b` = ?", Dialect.named("mariadb"));
        assertThat(d.assignedColumns()).containsExactly(column("a"), quoted("b"));
        InsertSource.Values v = (InsertSource.Values) d.insertSource();
        assertThat(v.rows()).containsExactly(List.of(fragment("1"), fragment("?", 1)));
        assertThat(v.text().text()).isEqualTo("SET a = 1, `b` = ?");
    }

    @Test
    void mysqlRowConstructorsAndEmptyRows() {
        InsertSource.Values rows = (InsertSource.Values) dml("INSERT INTO t VALUES ROW(1, 2), ROW(3, ?)", Dialect.named("mariadb")).insertSource();
        assertThat(rows.rows()).containsExactly(List.of(fragment("1"), fragment("2")), List.of(fragment("3"), fragment("?", 1)));
        InsertSource.Values empty = (InsertSource.Values) dml("INSERT INTO t VALUES ()", Dialect.named("mariadb")).insertSource();
        assertThat(empty.rows()).containsExactly(List.of());
    }

    @Test
    void mysqlBackslashEscapesInStrings() {
        Dml d = dml("INSERT INTO `db`.`t` (`a`, b) VALUES ('it\\'s; (?)', ?)", Dialect.named("mariadb"));
        assertThat(((InsertSource.Values) d.insertSource()).rows())
                .containsExactly(List.of(fragment("'it\\'s; (?)'"), fragment("?", 1)));
        assertThat(d.parameterCount()).isEqualTo(1);
    }

    @Test
    void h2QuotedColumnsKeepTheirCase() {
        Dml d = dml("INSERT INTO PUBLIC.T (ID, \"Name\") VALUES (?, ?)", Dialect.named("h2"));
        assertThat(d.assignedColumns()).extracting(c -> c.folded(Dialect.named("h2"))).containsExactly("ID", "Name");
        assertThat(d.target().sqlText()).isEqualTo("PUBLIC.T");
    }

    @Test
    void overridingSystemValueStaysWithTheSource() {
        Dml d = dml("INSERT INTO t (id) OVERRIDING SYSTEM VALUE VALUES (?)", Dialect.named("postgresql"));
        assertThat(d.insertSource().text()).isEqualTo(fragment("OVERRIDING SYSTEM VALUE VALUES (?)", 1));
        assertThat(((InsertSource.Values) d.insertSource()).rows()).hasSize(1);
    }

    @Test
    void commentsBetweenClauses() {
        Dml d = dml("/* app */ INSERT /* x */ INTO t (a) -- cols\n VALUES (?) /* after */ ON CONFLICT DO NOTHING",
                Dialect.named("postgresql"));
        assertThat(d.insertSource().text()).isEqualTo(fragment("VALUES (?)", 1));
        assertThat(d.onConflict().clause().text()).isEqualTo("ON CONFLICT DO NOTHING");
    }
}
