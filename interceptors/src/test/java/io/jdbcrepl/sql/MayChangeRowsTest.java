package io.jdbcrepl.sql;

import io.jdbcrepl.dialect.Dialect;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

class MayChangeRowsTest {

    @ParameterizedTest
    @ValueSource(strings = {
        "INSERT INTO t VALUES (1)",
        "insert into t values (1)",
        "UPDATE t SET a = 1",
        "update t set a = 1",
        "DELETE FROM t",
        "  \t\n DELETE FROM t",
        "MERGE INTO t USING u ON t.id = u.id WHEN MATCHED THEN DELETE",
        "REPLACE INTO t VALUES (1)",
        "UPSERT INTO t VALUES (1)",
        "WITH x AS (SELECT 1) SELECT * FROM x",
        "with x as (delete from t returning *) select * from x",
        "TRUNCATE TABLE t",
        "LOAD DATA INFILE 'f' INTO TABLE t",
        "COPY t FROM STDIN",
        "CALL p(?)",
        "call p()",
        "DO $$ BEGIN UPDATE t SET a = 1; END $$",
        "EXEC p",
        "EXECUTE stmt",
        "EXPLAIN ANALYZE DELETE FROM t",
        "ANALYZE DELETE FROM t",
        "RUNSCRIPT FROM 'x.sql'",
        "--x\nupdate t set a = 1",
        "-- a comment\r\nUPDATE t SET a = 1",
        "/* leading */ INSERT INTO t VALUES (1)",
        "/* one */ /* two */\n-- three\nDELETE FROM t",
        "# mysql comment\nDELETE FROM t",
        "// h2 comment\nDELETE FROM t",
        "/* a /* nested */ comment */ DELETE FROM t",
        "/* /* */ DELETE FROM t",
        "/* not closed DELETE FROM t",
        "\uFEFFUPDATE t SET a = 1",
        "{call p(?)}",
        " {? = call f(?)}",
        "SELECT 1; DELETE FROM t",
        "select 1 ;update t set a = 1",
        "SELECT * FROM FINAL TABLE (UPDATE t SET a = 1)",
        "select id from new table(insert into t values (1))",
        "(UPDATE t SET a = 1)",
        "Update t Set a = 1",
    })
    void statementsThatMayChangeRowsAreAnalysed(String sql) {
        assertThat(SqlClassifier.mayChangeRows(sql)).as(sql).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "SELECT * FROM t",
        "select * from t for update",
        "SELECT * FROM t WHERE id = ? FOR NO KEY UPDATE",
        "/* insert */ select 1",
        "/* UPDATE t SET a = 1 */ SELECT 1",
        "-- delete\nSELECT 1",
        "SHOW TABLES",
        "SET search_path = hr",
        "SET autocommit = 0",
        "BEGIN",
        "START TRANSACTION",
        "COMMIT",
        "ROLLBACK TO SAVEPOINT s",
        "SAVEPOINT s",
        "CREATE TABLE t (a INT)",
        "ALTER TABLE t ADD COLUMN b INT",
        "DROP TABLE t",
        "VALUES (1), (2)",
        "TABLE t",
        "PREPARE p AS UPDATE t SET a = 1",
        "LOCK TABLE t IN EXCLUSIVE MODE",
        "GRANT SELECT ON t TO u",
        "VACUUM t",
        "(SELECT 1) UNION (SELECT 2)",
        "SELECT 1;",
        "SELECT 1 ; ; -- done",
        "SELECT count(*) FROM t JOIN u USING (id)",
        "SELECT * FROM TABLES",
        "INSERTED",
        "UPDATES",
        "DELETEd_rows",
        "WITHIN",
        "",
        "   ",
        "-- only a comment",
        "SELECT updated FROM t",
        "DESCRIBE t",
        "USE db",
        "RESET ALL",
    })
    void statementsThatCannotChangeRowsPassThrough(String sql) {
        assertThat(SqlClassifier.mayChangeRows(sql)).as(sql).isFalse();
    }

    @Test
    void nullIsNotAStatement() {
        assertThat(SqlClassifier.mayChangeRows(null)).isFalse();
    }

    @Test
    void aSemicolonInsideALiteralIsLeftToAnalyze() {
        // the cheap check does not lex literals: any ; followed by more text may be a second statement
        String sql = "SELECT 'a; b' AS x";
        assertThat(SqlClassifier.mayChangeRows(sql)).isTrue();
        for (Dialect d : Dialect.all()) assertThat(SqlClassifier.analyze(sql, d)).isInstanceOf(NotDml.class);
    }
}
