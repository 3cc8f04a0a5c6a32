package io.jdbcrepl.sql;

import io.jdbcrepl.dialect.Dialect;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

class NotDmlAnalysisTest {

    @ParameterizedTest
    @ValueSource(strings = {
        "SELECT * FROM t WHERE a = ?",
        "SELECT * FROM t WHERE id = ? FOR UPDATE",
        "(SELECT 1) UNION (SELECT 2)",
        "WITH x AS (SELECT 1) SELECT * FROM x",
        "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 9) SELECT * FROM n",
        "WITH x AS (SELECT * FROM t FOR UPDATE) SELECT * FROM x",
        "CREATE TABLE t (a INT PRIMARY KEY)",
        "ALTER TABLE t ADD COLUMN b INT",
        "DROP TABLE t",
        "SET search_path TO hr",
        "SHOW TABLES",
        "BEGIN",
        "COMMIT",
        "COPY t TO STDOUT",
        "COPY (SELECT * FROM t) TO STDOUT",
        "EXPLAIN UPDATE t SET a = 1",
        "EXPLAIN (ANALYZE false) DELETE FROM t",
        "EXPLAIN FORMAT=JSON DELETE FROM t",
        "EXPLAIN ANALYZE SELECT * FROM t",
        "ANALYZE t",
        "ANALYZE VERBOSE t",
        "ANALYZE TABLE t",
        "LOAD INDEX INTO CACHE t",
        "LOAD 'auto_explain'",
        "SELECT 1; SELECT 2;",
        "SELECT 'a; DELETE FROM t'",
        "SELECT * FROM TABLE(x INT = (1, 2))",
        "VALUES (1)",
        "",
        "  -- nothing\n",
        "CREATE FUNCTION f() RETURNS int AS $$ UPDATE t SET a = 1; SELECT 1 $$ LANGUAGE sql",
        "CREATE FUNCTION f() RETURNS int AS $body$ DELETE FROM t; SELECT 1 $body$ LANGUAGE sql",
        "CREATE PROCEDURE p() BEGIN UPDATE t SET a = 1; DELETE FROM u; END",
        "CREATE TRIGGER tr BEFORE INSERT ON t FOR EACH ROW BEGIN IF NEW.a > 1 THEN SET NEW.b = 2; END IF; "
                + "UPDATE u SET c = 1; END",
        "CREATE PROCEDURE p() BEGIN CASE WHEN 1 = 1 THEN DELETE FROM t; END CASE; UPDATE u SET c = 1; END",
        "PREPARE p AS UPDATE t SET a = 1",
    })
    void queriesDdlAndSessionStatementsPassThrough(String sql) {
        for (Dialect d : Dialect.all()) {
            assertThat(SqlClassifier.analyze(sql, d)).as("%s on %s", sql, d).isInstanceOf(NotDml.class);
        }
    }
}
