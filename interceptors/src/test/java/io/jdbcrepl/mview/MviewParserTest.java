package io.jdbcrepl.mview;

import io.jdbcrepl.capture.sql.Dialect;
import io.jdbcrepl.mview.MviewCommand.CreateLog;
import io.jdbcrepl.mview.MviewCommand.CreateView;
import io.jdbcrepl.mview.MviewCommand.DropLog;
import io.jdbcrepl.mview.MviewCommand.DropView;
import io.jdbcrepl.mview.MviewCommand.Method;
import io.jdbcrepl.mview.MviewCommand.Name;
import io.jdbcrepl.mview.MviewCommand.PurgeLog;
import io.jdbcrepl.mview.MviewCommand.Refresh;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.sql.SQLException;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class MviewParserTest {

    private static MviewCommand parse(String sql) throws SQLException {
        return MviewParser.parse(sql, Dialect.POSTGRESQL).orElseThrow();
    }

    private static void fails(String sql, String state, String... mentions) {
        assertThatThrownBy(() -> MviewParser.parse(sql, Dialect.POSTGRESQL))
                .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo(state))
                .hasMessageContainingAll(mentions);
    }

    @Test
    void theSeedsLogs() throws SQLException {
        assertThat(parse("create materialized view log on t_rowid with rowid, sequence (name, num) including new values"))
                .isEqualTo(new CreateLog(new Name(null, "t_rowid"), false, true, true, List.of("name", "num"), true));
        assertThat(parse("create materialized view log on t_pk with primary key"))
                .isEqualTo(new CreateLog(new Name(null, "t_pk"), true, false, false, List.of(), false));
        assertThat(parse("drop materialized view log on t_rowid")).isEqualTo(new DropLog(new Name(null, "t_rowid")));
    }

    @Test
    void logOptions() throws SQLException {
        assertThat(parse("CREATE MATERIALIZED VIEW LOG ON hr.\"Emp\"")) // WITH PRIMARY KEY is the default
                .isEqualTo(new CreateLog(new Name("hr", "Emp"), true, false, false, List.of(), false));
        assertThat(parse("create materialized view log on t with (a, \"B\") excluding new values;"))
                .isEqualTo(new CreateLog(new Name(null, "t"), false, false, false, List.of("a", "B"), false));
        assertThat(parse("create materialized view log on t with primary key, rowid (a) including new values"))
                .isEqualTo(new CreateLog(new Name(null, "t"), true, true, false, List.of("a"), true));
        assertThat(MviewParser.parse("create materialized view log on t with rowid (a)", Dialect.H2).orElseThrow())
                .isEqualTo(new CreateLog(new Name(null, "T"), false, true, false, List.of("A"), false));
    }

    @Test
    void optionsWithoutMeaningHereAreRefused() {
        fails("create materialized view log on t_oid with object id", "0A000", "OBJECT ID", "t_oid", "PostgreSQL");
        fails("create materialized view log on t with commit scn", "0A000", "COMMIT SCN");
        fails("create materialized view log on t tablespace users", "0A000", "tablespace");
        fails("create materialized view log on t purge immediate", "0A000", "purge");
        fails("create materialized view log on t with", "42601", "expected PRIMARY KEY, ROWID, SEQUENCE");
        fails("create materialized view log on t with rowid (a", "42601", "expected )");
        fails("create materialized view log on", "42601", "expected a name");
        fails("create materialized view log on t including values", "42601", "expected NEW");
    }

    @Test
    void views() throws SQLException {
        assertThat(parse("create materialized view mv_t_rowid refresh fast on commit as select name, count(*) from t_rowid group by name"))
                .isEqualTo(new CreateView(new Name(null, "mv_t_rowid"), Method.FAST, true,
                        "select name, count(*) from t_rowid group by name"));
        assertThat(parse("create materialized view mv_t_rowid1 refresh fast as select name from t_rowid;"))
                .isEqualTo(new CreateView(new Name(null, "mv_t_rowid1"), Method.FAST, false, "select name from t_rowid"));
        assertThat(parse("CREATE MATERIALIZED VIEW s.mv BUILD IMMEDIATE REFRESH COMPLETE ON DEMAND AS SELECT 1 FROM t"))
                .isEqualTo(new CreateView(new Name("s", "mv"), Method.COMPLETE, false, "SELECT 1 FROM t"));
        assertThat(parse("create materialized view mv refresh on commit as select a from t"))
                .isEqualTo(new CreateView(new Name(null, "mv"), Method.FORCE, true, "select a from t"));
        assertThat(parse("drop materialized view mv")).isEqualTo(new DropView(new Name(null, "mv")));
    }

    @Test
    void postgresOwnMaterializedViewsAreNotOurs() throws SQLException {
        assertThat(MviewParser.parse("create materialized view mv as select 1", Dialect.POSTGRESQL)).isEmpty();
        assertThat(MviewParser.parse("refresh materialized view mv", Dialect.POSTGRESQL)).isEmpty();
        assertThat(MviewParser.parse("create view v as select 1", Dialect.POSTGRESQL)).isEmpty();
    }

    @Test
    void viewOptionsWithoutMeaningHereAreRefused() {
        fails("create materialized view mv build deferred refresh fast as select a from t", "0A000", "BUILD DEFERRED");
        fails("create materialized view mv never refresh as select a from t", "0A000", "NEVER REFRESH");
        fails("create materialized view mv refresh fast with rowid as select a from t", "0A000", "with");
        fails("create materialized view mv refresh fast on update as select a from t", "42601", "ON COMMIT or ON DEMAND");
        fails("create materialized view mv refresh fast as", "42601", "query is missing");
    }

    @Test
    void calls() throws SQLException {
        Refresh both = new Refresh(List.of(new Name(null, "mv"), new Name("s", "mv2")), Method.FORCE);
        assertThat(parse("call dbms_mview.refresh('mv, s.mv2')")).isEqualTo(both);
        assertThat(parse("{call DBMS_MVIEW.REFRESH('mv, s.mv2')}")).isEqualTo(both);
        assertThat(parse("BEGIN DBMS_MVIEW.REFRESH('mv, s.mv2'); END;")).isEqualTo(both);
        assertThat(parse("EXEC DBMS_MVIEW.REFRESH('mv', 'C')"))
                .isEqualTo(new Refresh(List.of(new Name(null, "mv")), Method.COMPLETE));
        assertThat(parse("call dbms_mview.refresh('\"Mv\"', 'f')"))
                .isEqualTo(new Refresh(List.of(new Name(null, "Mv")), Method.FAST));
        assertThat(parse("call dbms_mview.purge_log('t')")).isEqualTo(new PurgeLog(new Name(null, "t"), false));
        assertThat(parse("call dbms_mview.purge_log('t', 'delete')")).isEqualTo(new PurgeLog(new Name(null, "t"), true));
    }

    @Test
    void badCalls() {
        fails("call dbms_mview.refresh('mv', 'X')", "42601", "'X'", "'F' (fast)");
        fails("call dbms_mview.refresh('')", "42601", "names no view");
        fails("call dbms_mview.refresh()", "42601", "DBMS_MVIEW.REFRESH takes");
        fails("call dbms_mview.refresh(mv)", "42601", "string literal");
        fails("call dbms_mview.purge_log('t', 3)", "0A000", "'DELETE'");
        fails("call dbms_mview.explain_mview('mv')", "0A000", "EXPLAIN_MVIEW");
        fails("call dbms_mview.refresh('mv') extra", "42601", "unexpected extra");
    }

    @ParameterizedTest
    @ValueSource(strings = {"select * from t", "insert into t values (1)", "update t set a = 1", "call other_proc('x')",
            "drop table t", "create table materialized (a int)", "begin", "delete from t where note = 'materialized'"})
    void otherStatementsAreNotOurs(String sql) throws SQLException {
        assertThat(MviewParser.parse(sql, Dialect.MYSQL)).isEmpty();
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {"select 1|false", "  create materialized view log on t|true",
            "{call dbms_mview.refresh('a')}|true", "insert into materialized values (1)|false", "drop materialized view x|true"})
    void cheapTest(String sql, boolean mayBe) {
        assertThat(MviewParser.mayBeOurs(sql)).isEqualTo(mayBe);
    }
}
