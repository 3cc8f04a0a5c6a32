package io.jdbcrepl.mview;

import io.jdbcrepl.dialect.Dialect;
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
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.sql.SQLException;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.params.provider.Arguments.arguments;

class MviewParserTest {

    private static final Refresh BOTH = new Refresh(List.of(new Name(null, "mv"), new Name("s", "mv2")), Method.FORCE);

    /** Each statement (read as PostgreSQL unless a dialect is given) and the command it stands for. */
    static Stream<Arguments> commands() {
        return Stream.of(
                // the seed's logs
                arguments("create materialized view log on t_rowid with rowid, sequence (name, num) including new values",
                        Dialect.named("postgresql"), new CreateLog(new Name(null, "t_rowid"), false, true, true, List.of("name", "num"), true)),
                arguments("create materialized view log on t_pk with primary key", Dialect.named("postgresql"),
                        new CreateLog(new Name(null, "t_pk"), true, false, false, List.of(), false)),
                arguments("drop materialized view log on t_rowid", Dialect.named("postgresql"), new DropLog(new Name(null, "t_rowid"))),
                // log options; WITH PRIMARY KEY is the default
                arguments("CREATE MATERIALIZED VIEW LOG ON hr.\"Emp\"", Dialect.named("postgresql"),
                        new CreateLog(new Name("hr", "Emp"), true, false, false, List.of(), false)),
                arguments("create materialized view log on t with (a, \"B\") excluding new values;", Dialect.named("postgresql"),
                        new CreateLog(new Name(null, "t"), false, false, false, List.of("a", "B"), false)),
                arguments("create materialized view log on t with primary key, rowid (a) including new values", Dialect.named("postgresql"),
                        new CreateLog(new Name(null, "t"), true, true, false, List.of("a"), true)),
                arguments("create materialized view log on t with rowid (a)", Dialect.named("h2"),
                        new CreateLog(new Name(null, "T"), false, true, false, List.of("A"), false)),
                // views
                arguments("create materialized view mv_t_rowid refresh fast on commit as select name, count(*) from t_rowid group by name",
                        Dialect.named("postgresql"), new CreateView(new Name(null, "mv_t_rowid"), Method.FAST, true,
                                "select name, count(*) from t_rowid group by name")),
                arguments("create materialized view mv_t_rowid1 refresh fast as select name from t_rowid;", Dialect.named("postgresql"),
                        new CreateView(new Name(null, "mv_t_rowid1"), Method.FAST, false, "select name from t_rowid")),
                arguments("CREATE MATERIALIZED VIEW s.mv BUILD IMMEDIATE REFRESH COMPLETE ON DEMAND AS SELECT 1 FROM t",
                        Dialect.named("postgresql"), new CreateView(new Name("s", "mv"), Method.COMPLETE, false, "SELECT 1 FROM t")),
                arguments("create materialized view mv refresh on commit as select a from t", Dialect.named("postgresql"),
                        new CreateView(new Name(null, "mv"), Method.FORCE, true, "select a from t")),
                arguments("drop materialized view mv", Dialect.named("postgresql"), new DropView(new Name(null, "mv"))),
                // calls
                arguments("call dbms_mview.refresh('mv, s.mv2')", Dialect.named("postgresql"), BOTH),
                arguments("{call DBMS_MVIEW.REFRESH('mv, s.mv2')}", Dialect.named("postgresql"), BOTH),
                arguments("BEGIN DBMS_MVIEW.REFRESH('mv, s.mv2'); END;", Dialect.named("postgresql"), BOTH),
                arguments("EXEC DBMS_MVIEW.REFRESH('mv', 'C')", Dialect.named("postgresql"),
                        new Refresh(List.of(new Name(null, "mv")), Method.COMPLETE)),
                arguments("call dbms_mview.refresh('\"Mv\"', 'f')", Dialect.named("postgresql"),
                        new Refresh(List.of(new Name(null, "Mv")), Method.FAST)),
                arguments("call dbms_mview.purge_log('t')", Dialect.named("postgresql"), new PurgeLog(new Name(null, "t"), false)),
                arguments("call dbms_mview.purge_log('t', 'delete')", Dialect.named("postgresql"), new PurgeLog(new Name(null, "t"), true)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("commands")
    void readsTheCommand(String sql, Dialect dialect, MviewCommand expected) throws SQLException {
        assertThat(MviewParser.parse(sql, dialect).orElseThrow()).isEqualTo(expected);
    }

    /**
     * Strings, comments and quoted names inside our statements are read as the database reads them
     * (the lexer of io.jdbcrepl.sql): escaped quotes, dollar quotes, nested and dialect-only comments.
     */
    static Stream<Arguments> readAsTheDatabaseDoes() {
        Refresh itsC = new Refresh(List.of(new Name(null, "it's")), Method.COMPLETE);
        Refresh its = new Refresh(List.of(new Name(null, "it's")), Method.FORCE);
        return Stream.of(
                // PostgreSQL: E'' strings, dollar quotes, nested comments; a backslash is a plain character elsewhere
                arguments("call dbms_mview.refresh(E'\"it\\'s\"', 'C')", Dialect.named("postgresql"), itsC),
                arguments("call dbms_mview.refresh($$\"it's\"$$)", Dialect.named("postgresql"), its),
                arguments("call dbms_mview.refresh('\"a\\b\"')", Dialect.named("postgresql"),
                        new Refresh(List.of(new Name(null, "a\\b")), Method.FORCE)),
                arguments("create materialized view log on t /* a /* nested */ comment */ with primary key", Dialect.named("postgresql"),
                        new CreateLog(new Name(null, "t"), true, false, false, List.of(), false)),
                arguments("create materialized view mv refresh fast as select a from t where b = $$it's$$", Dialect.named("postgresql"),
                        new CreateView(new Name(null, "mv"), Method.FAST, false, "select a from t where b = $$it's$$")),
                // MySQL and MariaDB: backslash escapes, # comments
                arguments("call dbms_mview.refresh('`it\\'s`', 'C')", Dialect.named("mysql"), itsC),
                arguments("call dbms_mview.refresh('\"it\\'s\"', 'C')", Dialect.named("mariadb"), itsC),
                arguments("create materialized view log on t # a comment\n with rowid", Dialect.named("mysql"),
                        new CreateLog(new Name(null, "t"), false, true, false, List.of(), false)),
                arguments("create materialized view mv refresh fast as select a from t where b = 'it\\'s'", Dialect.named("mariadb"),
                        new CreateView(new Name(null, "mv"), Method.FAST, false, "select a from t where b = 'it\\'s'")),
                arguments("create materialized view log on t /* one */ with /* two */ primary key # three", Dialect.named("mariadb"),
                        new CreateLog(new Name(null, "t"), true, false, false, List.of(), false)),
                // H2: dollar quotes, nested and // comments
                arguments("call dbms_mview.refresh($$\"it's\"$$, 'c')", Dialect.named("h2"), itsC),
                arguments("call dbms_mview.refresh('\"it''s\"', 'c')", Dialect.named("h2"), itsC),
                arguments("create materialized view log on t /* a /* nested */ comment */ with rowid (a)", Dialect.named("h2"),
                        new CreateLog(new Name(null, "T"), false, true, false, List.of("A"), false)),
                arguments("create materialized view log on t // a comment\n with primary key", Dialect.named("h2"),
                        new CreateLog(new Name(null, "T"), true, false, false, List.of(), false)));
    }

    @ParameterizedTest(name = "{1}: {0}")
    @MethodSource("readAsTheDatabaseDoes")
    void readsStringsAndCommentsAsTheDatabaseDoes(String sql, Dialect dialect, MviewCommand expected) throws SQLException {
        assertThat(MviewParser.parse(sql, dialect).orElseThrow()).isEqualTo(expected);
    }

    /** A string the database reads as unclosed is a syntax error, as before; where it ends depends on the dialect. */
    @ParameterizedTest(name = "{1}: {0}")
    @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
            "call dbms_mview.refresh('mv) | postgresql | unterminated '",
            "call dbms_mview.refresh('mv\\') | mysql | unterminated '",
            "call dbms_mview.refresh($$mv) | h2 | unterminated $$",
            "call dbms_mview.refresh(E'mv\\') | postgresql | unterminated '"})
    void unclosedStringsFail(String sql, String dialect, String mentions) {
        assertThatThrownBy(() -> MviewParser.parse(sql, Dialect.named(dialect)))
                .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("42601"))
                .hasMessageContaining(mentions);
    }

    @Test
    void aBackslashEndsAPostgresStringButNotAMysqlOne() throws SQLException {
        String sql = "call dbms_mview.refresh('mv\\', 'C')";
        assertThatThrownBy(() -> MviewParser.parse(sql, Dialect.named("postgresql"))).hasMessageContaining("is not a table or view name");
        assertThatThrownBy(() -> MviewParser.parse(sql, Dialect.named("mysql"))).hasMessageContaining("unterminated '");
    }

    /** Options without meaning here (0AR01) and malformed statements (42601): the message names what is wrong. */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
            create materialized view log on t_oid with object id | 0AR01 | OBJECT ID;t_oid;PostgreSQL
            create materialized view log on t with commit scn | 0AR01 | COMMIT SCN
            create materialized view log on t tablespace users | 0AR01 | tablespace
            create materialized view log on t purge immediate | 0AR01 | purge
            create materialized view log on t with | 42601 | expected PRIMARY KEY, ROWID, SEQUENCE
            create materialized view log on t with rowid (a | 42601 | expected )
            create materialized view log on | 42601 | expected a name
            create materialized view log on t including values | 42601 | expected NEW
            create materialized view mv build deferred refresh fast as select a from t | 0AR01 | BUILD DEFERRED
            create materialized view mv never refresh as select a from t | 0AR01 | NEVER REFRESH
            create materialized view mv refresh fast with rowid as select a from t | 0AR01 | with
            create materialized view mv refresh fast on update as select a from t | 42601 | ON COMMIT or ON DEMAND
            create materialized view mv refresh fast as | 42601 | query is missing
            call dbms_mview.refresh('mv', 'X') | 42601 | 'X';'F' (fast)
            call dbms_mview.refresh('') | 42601 | names no view
            call dbms_mview.refresh() | 42601 | DBMS_MVIEW.REFRESH takes
            call dbms_mview.refresh(mv) | 42601 | string literal
            call dbms_mview.purge_log('t', 3) | 0AR01 | 'DELETE'
            call dbms_mview.explain_mview('mv') | 0AR01 | EXPLAIN_MVIEW
            call dbms_mview.refresh('mv') extra | 42601 | unexpected extra
            """)
    void badStatementsFail(String sql, String state, String mentions) {
        assertThatThrownBy(() -> MviewParser.parse(sql, Dialect.named("postgresql")))
                .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo(state))
                .hasMessageContainingAll(mentions.split(";"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"create materialized view mv as select 1", "refresh materialized view mv", "create view v as select 1"})
    void postgresOwnMaterializedViewsAreNotOurs(String sql) throws SQLException {
        assertThat(MviewParser.parse(sql, Dialect.named("postgresql"))).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"select * from t", "insert into t values (1)", "update t set a = 1", "call other_proc('x')",
            "drop table t", "create table materialized (a int)", "begin", "delete from t where note = 'materialized'"})
    void otherStatementsAreNotOurs(String sql) throws SQLException {
        assertThat(MviewParser.parse(sql, Dialect.named("mariadb"))).isEmpty();
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {"select 1|false", "  create materialized view log on t|true",
            "{call dbms_mview.refresh('a')}|true", "insert into materialized values (1)|false", "drop materialized view x|true"})
    void cheapTest(String sql, boolean mayBe) {
        assertThat(MviewParser.mayBeOurs(sql)).isEqualTo(mayBe);
    }
}
