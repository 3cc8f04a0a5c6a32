package io.jdbcrepl.sql;

import io.jdbcrepl.dialect.Dialect;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class StatementSplitterTest {

    private static List<String> statements(String sql, Dialect dialect) {
        return StatementSplitter.split(sql, dialect).statements().stream()
                .map(r -> sql.substring(r[0], r[1]).strip()).toList();
    }

    @Test
    void cutsAtSemicolonsBetweenStatements() {
        assertThat(statements("SELECT 1; SELECT 2;; ", Dialect.named("h2"))).containsExactly("SELECT 1", "SELECT 2");
        assertThat(statements("SELECT 1", Dialect.named("h2"))).containsExactly("SELECT 1");
        assertThat(statements(" ; -- nothing", Dialect.named("h2"))).isEmpty();
    }

    @Test
    void semicolonsInLiteralsAndCommentsDoNotCut() {
        assertThat(statements("SELECT 'a;b', \"c;d\" /* ; */ -- ;\n FROM t", Dialect.named("postgresql"))).hasSize(1);
        assertThat(statements("SELECT $$;$$, $f$ ; $f$", Dialect.named("postgresql"))).hasSize(1);
        assertThat(statements("SELECT E'\\';', 1", Dialect.named("postgresql"))).hasSize(1);
        assertThat(statements("SELECT 'a\\';', `x;y` # ;\n", Dialect.named("mariadb"))).hasSize(1);
        assertThat(statements("SELECT 1 /* a /* b */ ; */", Dialect.named("postgresql"))).hasSize(1);
    }

    @Test
    void dialectsDifferOnEscapesAndComments() {
        // PostgreSQL: 'C:\' is a whole string; MySQL reads \' as an escaped quote
        assertThat(statements("SELECT 'C:\\'; DELETE FROM t", Dialect.named("postgresql"))).hasSize(2);
        assertThat(statements("SELECT 'C:\\'; DELETE FROM t'", Dialect.named("mariadb"))).hasSize(1);
        // MySQL does not nest block comments: the first */ ends it
        assertThat(statements("SELECT 1 /* /* */ ; DELETE FROM t", Dialect.named("mariadb"))).hasSize(2);
        assertThat(statements("SELECT 1 /* /* */ ; DELETE FROM t */", Dialect.named("postgresql"))).hasSize(1);
        // MySQL: -- needs a blank after it; a$b is a name, not a dollar quote
        assertThat(statements("SELECT 1--1\n; SELECT a$b; SELECT 2", Dialect.named("mariadb"))).hasSize(3);
    }

    @Test
    void routineBodiesStayWhole() {
        assertThat(statements("CREATE PROCEDURE p() BEGIN UPDATE t SET a = 1; IF x THEN DELETE FROM u; END IF; END; "
                + "DELETE FROM v", Dialect.named("mariadb"))).hasSize(2).last().isEqualTo("DELETE FROM v");
        assertThat(statements("CREATE FUNCTION f() RETURNS int LANGUAGE sql BEGIN ATOMIC UPDATE t SET a = 1; SELECT 1; END",
                Dialect.named("postgresql"))).hasSize(1);
    }

    @Test
    void reportsMysqlExecutableComments() {
        assertThat(StatementSplitter.split("INSERT /*! IGNORE */ INTO t VALUES (1)", Dialect.named("mariadb")).executableComment()).isTrue();
        assertThat(StatementSplitter.split("INSERT /*!IGNORE*/ INTO t VALUES (1)", Dialect.named("postgresql")).executableComment()).isFalse();
        assertThat(StatementSplitter.split("INSERT /* ! */ INTO t VALUES (1)", Dialect.named("mariadb")).executableComment()).isFalse();
    }
}
