package io.jdbcrepl.sql;

import io.jdbcrepl.dialect.Dialect;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;

import static io.jdbcrepl.sql.Analyses.opaque;
import static org.assertj.core.api.Assertions.assertThat;

class OpaqueAnalysisTest {

    private static TableRef table(String name) {
        return new TableRef(null, name, null, false, false, name);
    }

    private static List<String> names(Opaque o) {
        return o.tablesNamed().stream().map(TableRef::sqlText).toList();
    }

    @ParameterizedTest
    @MethodSource("io.jdbcrepl.dialect.Dialect#all")
    void everyReasonSaysWhatToDoAndNamesTheWayOut(Dialect dialect) {
        for (String sql : List.of("MERGE INTO t USING u ON t.id = u.id WHEN MATCHED THEN DELETE", "TRUNCATE t",
                "CALL p()", "EXECUTE s", "DO 1", "COPY t FROM STDIN", "LOAD DATA INFILE 'f' INTO TABLE t",
                "RUNSCRIPT FROM 'f'", "EXPLAIN ANALYZE DELETE FROM t", "WITH x AS (DELETE FROM t RETURNING *) SELECT 1",
                "UPDATE t SET a = 1; DELETE FROM t", "UPDATE t SET a = $1", "UPDATE t SET a = = 1",
                "REPLACE INTO t VALUES (1)")) {
            Opaque o = opaque(sql, dialect);
            assertThat(o.reason()).as(sql).contains("cannot be captured").endsWith(
                    "or set repl.unsupported=passthrough to run it uncaptured (its changes then do not replicate).");
        }
    }

    @ParameterizedTest
    @MethodSource("io.jdbcrepl.dialect.Dialect#all")
    void mergeInBothForms(Dialect dialect) {
        Opaque pg = opaque("MERGE INTO hr.emp AS e USING src s ON e.id = s.id WHEN MATCHED THEN UPDATE SET x = s.x", dialect);
        assertThat(pg.reason()).startsWith("MERGE cannot be captured").contains("INSERT … ON CONFLICT");
        assertThat(names(pg)).containsExactly("hr.emp");
        Opaque h2 = opaque("MERGE INTO \"T\" KEY (id) VALUES (1, 'a')", dialect);
        assertThat(h2.tablesNamed()).containsExactly(new TableRef(null, "T", null, false, true, "\"T\""));
    }

    @Test
    void replaceAndUpsert() {
        assertThat(opaque("REPLACE INTO t (a) VALUES (1)", Dialect.named("mariadb")).tablesNamed()).containsExactly(table("t"));
        assertThat(opaque("REPLACE LOW_PRIORITY t SET a = 1", Dialect.named("mariadb")).reason()).startsWith("REPLACE/UPSERT");
        assertThat(names(opaque("UPSERT INTO db.t VALUES (1)", Dialect.named("h2")))).containsExactly("db.t");
    }

    @Test
    void truncateNamesItsTablesUnlessCascade() {
        assertThat(names(opaque("TRUNCATE TABLE a", Dialect.named("mariadb")))).containsExactly("a");
        assertThat(names(opaque("TRUNCATE ONLY a, hr.b * RESTART IDENTITY", Dialect.named("postgresql")))).containsExactly("a", "hr.b");
        Opaque cascade = opaque("TRUNCATE a CASCADE", Dialect.named("postgresql"));
        assertThat(cascade.tablesNamed()).isEmpty();
        assertThat(cascade.reason()).startsWith("TRUNCATE cannot be captured").contains("DELETE FROM");
    }

    @Test
    void routinesAndBlocksNameNoTable() {
        assertThat(opaque("CALL hr.raise(?, ?)", Dialect.named("postgresql"))).isEqualTo(new Opaque(Reasons.CALL, List.of(), true));
        assertThat(opaque("{call raise(?)}", Dialect.named("mariadb"))).isEqualTo(new Opaque(Reasons.CALL, List.of(), true));
        assertThat(opaque("{? = call f(?)}", Dialect.named("h2")).reason()).startsWith("CALL cannot be captured");
        assertThat(opaque("EXEC p 1", Dialect.named("mariadb")).reason()).startsWith("EXECUTE cannot be captured");
        assertThat(opaque("EXECUTE stmt USING @a", Dialect.named("mariadb")).reason()).contains("PREPARE");
        assertThat(opaque("DO $$ BEGIN DELETE FROM t; END $$", Dialect.named("postgresql"))).isEqualTo(new Opaque(Reasons.DO, List.of(), true));
        assertThat(opaque("RUNSCRIPT FROM 'init.sql'", Dialect.named("h2")).tablesNamed()).isEmpty();
    }

    @Test
    void routinesSayWhyPeersWouldDivergeAndHowToProceed() {
        for (String sql : List.of("CALL p()", "DO $$ BEGIN NULL; END $$")) {
            Opaque o = opaque(sql, Dialect.named("postgresql"));
            assertThat(o.routine()).as(sql).isTrue();
            assertThat(o.reason()).as(sql).startsWith(sql.substring(0, sql.indexOf(' ')) + " cannot be captured")
                    .contains("out of the driver's sight", "diverge", "through the driver", "repl.unsupported=passthrough");
        }
        assertThat(opaque("EXECUTE s", Dialect.named("postgresql")).routine()).as("not a routine").isFalse();
    }

    /** What the vendor's JDBC driver makes of the escape: a SELECT of the function is a query, left alone. */
    @Test
    void callEscapesAreWhatTheVendorsDriverRuns() {
        Dialect pg = Dialect.named("postgresql");
        assertThat(SqlClassifier.analyze("{? = call add_one(?)}", pg)).as("pgjdbc: select * from add_one(?)").isEqualTo(NotDml.INSTANCE);
        assertThat(SqlClassifier.analyze("{ call add_one(?) }", pg)).as("pgjdbc's escapeSyntaxCallMode=select").isEqualTo(NotDml.INSTANCE);
        assertThat(SqlClassifier.analyze("call double_it(?)", pg)).isInstanceOf(Opaque.class);
        Dialect mariadb = Dialect.named("mariadb");
        assertThat(SqlClassifier.analyze("{?=call add_one(?)}", mariadb)).as("Connector/J: SELECT add_one(?)").isEqualTo(NotDml.INSTANCE);
        assertThat(opaque("{call double_it(?)}", mariadb).routine()).isTrue();
        Dialect h2 = Dialect.named("h2");
        assertThat(opaque("{? = call add_ints(?, ?)}", h2).routine()).as("H2 runs it as CALL").isTrue();
        assertThat(opaque("{call add_ints(?, ?)}", h2).routine()).isTrue();
    }

    /** H2's CALL of a session value is a query (Flyway's CALL SCHEMA()); any other CALL still runs a routine. */
    @Test
    void anH2CallOfASessionValueOnlyReads() {
        Dialect h2 = Dialect.named("h2");
        for (String sql : List.of("CALL SCHEMA()", "call schema ( )", "CALL DATABASE()", "CALL CURRENT_SCHEMA", "CALL H2VERSION();")) {
            assertThat(SqlClassifier.analyze(sql, h2)).as(sql).isEqualTo(NotDml.INSTANCE);
        }
        for (String sql : List.of("CALL PUBLIC.SCHEMA()", "CALL SCHEMA(1)", "CALL SCHEMA() + my_alias()", "CALL my_alias()")) {
            assertThat(opaque(sql, h2).routine()).as(sql).isTrue();
        }
        assertThat(opaque("CALL SCHEMA()", Dialect.named("postgresql")).routine()).as("a procedure of that name").isTrue();
    }

    @Test
    void copyFromAndLoadDataNameTheirTable() {
        Opaque copy = opaque("COPY hr.emp (id, name) FROM STDIN WITH (FORMAT csv)", Dialect.named("postgresql"));
        assertThat(copy.reason()).startsWith("COPY … FROM in this form cannot be captured").contains("INSERT");
        assertThat(names(copy)).containsExactly("hr.emp");
        Opaque load = opaque("LOAD DATA LOCAL INFILE '/tmp/x.csv' REPLACE INTO TABLE `db`.`t` FIELDS TERMINATED BY ','",
                Dialect.named("mariadb"));
        assertThat(load.reason()).startsWith("LOAD DATA in this form").contains("LOCAL");
        assertThat(load.tablesNamed()).containsExactly(new TableRef("db", "t", null, true, true, "`db`.`t`"));
        assertThat(names(opaque("LOAD XML INFILE 'x.xml' INTO TABLE t", Dialect.named("mariadb")))).containsExactly("t");
    }

    @Test
    void explainAnalyzeRunsTheStatement() {
        Opaque pg = opaque("EXPLAIN ANALYZE UPDATE t SET a = 1", Dialect.named("postgresql"));
        assertThat(pg.reason()).startsWith("EXPLAIN ANALYZE cannot be captured");
        assertThat(pg.tablesNamed()).containsExactly(table("t"));
        assertThat(names(opaque("EXPLAIN (ANALYZE, BUFFERS) DELETE FROM t", Dialect.named("postgresql")))).containsExactly("t");
        assertThat(names(opaque("EXPLAIN (ANALYZE true) INSERT INTO t VALUES (1)", Dialect.named("postgresql")))).containsExactly("t");
        assertThat(names(opaque("ANALYZE DELETE FROM t WHERE a = 1", Dialect.named("mariadb")))).containsExactly("t");
        assertThat(opaque("EXPLAIN ANALYZE MERGE INTO t KEY (id) VALUES (1)", Dialect.named("h2")).reason()).startsWith("EXPLAIN ANALYZE");
    }

    @Test
    void dataModifyingWithQueries() {
        Opaque select = opaque("WITH moved AS (DELETE FROM t WHERE a = ? RETURNING *) SELECT count(*) FROM moved",
                Dialect.named("postgresql"));
        assertThat(select.reason()).startsWith("A WITH query that contains INSERT, UPDATE or DELETE");
        assertThat(names(select)).containsExactly("t");
        Opaque insert = opaque("WITH x AS (UPDATE a SET n = n + 1 RETURNING id) INSERT INTO b SELECT id FROM x",
                Dialect.named("postgresql"));
        assertThat(names(insert)).containsExactly("a", "b");
        Opaque dml = opaque("WITH ids AS (SELECT id FROM u) DELETE FROM t WHERE id IN (SELECT id FROM ids)",
                Dialect.named("postgresql"));
        assertThat(dml.reason()).startsWith("INSERT, UPDATE or DELETE with a WITH clause").contains("subquery");
        assertThat(names(dml)).containsExactly("t");
    }

    /** Where MySQL's multi-table syntax is not the dialect's (MariaDB's: see MultiTableAnalysisTest). */
    @Test
    void multiTableUpdatesAndDeletes() {
        for (String sql : List.of("UPDATE a JOIN b ON a.id = b.id SET a.x = 1", "DELETE a FROM a JOIN b ON a.id = b.id")) {
            assertThat(opaque(sql, Dialect.named("h2")).reason()).as(sql).contains("cannot be captured").endsWith(
                    "or set repl.unsupported=passthrough to run it uncaptured (its changes then do not replicate).");
        }
        Opaque join = opaque("UPDATE a JOIN b ON a.id = b.id SET a.x = b.y WHERE b.z = ?", Dialect.named("h2"));
        assertThat(join.reason()).startsWith("An UPDATE of several tables");
        assertThat(names(join)).containsExactly("a", "b");
        assertThat(names(opaque("UPDATE a, b SET a.x = b.y WHERE a.id = b.id", Dialect.named("h2")))).containsExactly("a", "b");
        Opaque delete = opaque("DELETE a, b FROM a JOIN b ON a.id = b.id WHERE a.x = 1", Dialect.named("h2"));
        assertThat(delete.reason()).startsWith("A DELETE in multi-table form");
        assertThat(names(delete)).containsExactly("a", "b");
        assertThat(names(opaque("DELETE t FROM t JOIN u ON u.id = t.id", Dialect.named("h2")))).containsExactly("t");
    }

    @Test
    void rowSubqueryAssignments() {
        Opaque o = opaque("UPDATE t SET (a, b) = (SELECT x, y FROM u WHERE u.id = t.id)", Dialect.named("postgresql"));
        assertThat(o.reason()).startsWith("UPDATE … SET (a, b) = (SELECT …)").contains("SET a = (SELECT …)");
        assertThat(o.tablesNamed()).containsExactly(table("t"));
    }

    @Test
    void severalStatementsInOneExecute() {
        Opaque both = opaque("UPDATE a SET x = 1; DELETE FROM b WHERE y = ';'", Dialect.named("postgresql"));
        assertThat(both.reason()).startsWith("Several statements in one execute");
        assertThat(names(both)).containsExactly("a", "b");
        assertThat(names(opaque("SELECT 1; INSERT INTO t VALUES (1);", Dialect.named("mariadb")))).containsExactly("t");
        Opaque withCall = opaque("DELETE FROM t; CALL p()", Dialect.named("h2"));
        assertThat(withCall.tablesNamed()).as("a CALL may change any table").isEmpty();
        assertThat(withCall.routine()).as("refused as the CALL is").isTrue();
        assertThat(names(opaque("CREATE TABLE x (a INT); DELETE FROM t", Dialect.named("mariadb")))).containsExactly("t");
    }

    @Test
    void numberedParametersAreNotJdbcParameters() {
        Opaque dollar = opaque("UPDATE t SET a = $1 WHERE b = $2", Dialect.named("postgresql"));
        assertThat(dollar.reason()).startsWith("Numbered parameters");
        assertThat(dollar.tablesNamed()).containsExactly(table("t"));
        assertThat(opaque("DELETE FROM t WHERE a = ?1", Dialect.named("h2")).reason()).startsWith("Numbered parameters");
        assertThat(opaque("INSERT INTO t VALUES ($1)", Dialect.named("postgresql")).reason()).startsWith("Numbered parameters");
    }

    @Test
    void mysqlExecutableCommentsHideSyntax() {
        Opaque o = opaque("INSERT /*! IGNORE */ INTO t VALUES (?)", Dialect.named("mariadb"));
        assertThat(o.reason()).startsWith("MySQL executable comments");
        assertThat(o.tablesNamed()).containsExactly(table("t"));
        assertThat(opaque("UPDATE t SET a = 1 /*M!100000 , b = 2 */", Dialect.named("mariadb")).reason()).startsWith("MySQL executable");
    }

    @Test
    void h2DataChangeDeltaTables() {
        Opaque o = opaque("SELECT id FROM FINAL TABLE (UPDATE t SET a = ? WHERE b = ?)", Dialect.named("h2"));
        assertThat(o.reason()).startsWith("A query over the rows a data change returns");
        assertThat(o.tablesNamed()).containsExactly(table("t"));
        assertThat(names(opaque("SELECT * FROM NEW TABLE (INSERT INTO hr.emp (id) VALUES (?))", Dialect.named("h2"))))
                .containsExactly("hr.emp");
        assertThat(names(opaque("SELECT * FROM OLD TABLE (DELETE FROM t) WHERE id > 1", Dialect.named("h2")))).containsExactly("t");
        assertThat(names(opaque("SELECT COUNT(*) FROM OLD TABLE (DELETE FROM t) x JOIN u ON u.id = x.id", Dialect.named("h2"))))
                .containsExactly("t");
        assertThat(names(opaque("SELECT id + ? FROM FINAL TABLE (INSERT INTO t (id) VALUES (1))", Dialect.named("h2"))))
                .containsExactly("t");
        assertThat(names(opaque("SELECT * FROM OLD TABLE (INSERT INTO t (id) VALUES (1))", Dialect.named("h2")))).containsExactly("t");
    }

    /** The simple query over an INSERT's FINAL or a DELETE's OLD table: the statement, with the select list as its RETURNING. */
    @Test
    void h2QueriesOverAnInsertsFinalOrADeletesOldTableAreThatStatement() {
        Dml d = (Dml) SqlClassifier.analyze("SELECT id, name || '!' AS n FROM FINAL TABLE (INSERT INTO hr.emp (id, name)"
                + " VALUES (?, ?)) AS f;", Dialect.named("h2"));
        assertThat(d.command()).isEqualTo(io.jdbcrepl.lcr.CommandType.INSERT);
        assertThat(d.sql()).isEqualTo("INSERT INTO hr.emp (id, name) VALUES (?, ?)");
        assertThat(d.returningTexts()).containsExactly("id", "name || '!' AS n");
        assertThat(d.delta()).isEqualTo(new Dml.DeltaTable("FINAL", "AS f"));
        assertThat(d.parameterCount()).isEqualTo(2);
        Dml del = (Dml) SqlClassifier.analyze("SELECT * FROM OLD TABLE (DELETE FROM t WHERE a = ?)", Dialect.named("h2"));
        assertThat(del.returningAll()).isTrue();
        assertThat(del.delta().alias()).isEmpty();
        assertThat(del.whereText()).isEqualTo("a = ?");
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "INSERT INTO t (a) VALUES (1) ON CONFLICT (lower(a)) DO NOTHING",
        "INSERT INTO t (a) VALUES (1) AS new ON DUPLICATE KEY UPDATE a = new.a",
        "UPDATE t SET a = 1, (b, c) = (2, 3)",
        "UPDATE t SET (a, b) = ROW(1, 2)",
        "UPDATE t SET a = 1 WHERE CURRENT OF c",
        "UPDATE t SET a = 1 FETCH FIRST 2 ROWS ONLY",
    })
    void statementsJSqlParserCannotReadAreOpaqueWithTheParsersWordAndTheirTable(String sql) {
        Opaque o = opaque(sql, Dialect.named("postgresql"));
        assertThat(o.reason()).containsPattern("^(INSERT|UPDATE|DELETE) could not be analysed \\(the SQL parser says: .+ at line 1, column \\d+\\)")
                .doesNotContain("Was expecting");
        assertThat(o.tablesNamed()).containsExactly(table("t"));
    }

    @Test
    void mysqlHashCommentsAreNotReadByJSqlParser() {
        Opaque o = opaque("DELETE FROM t # why\n WHERE a = 1", Dialect.named("mariadb"));
        assertThat(o.reason()).startsWith("DELETE could not be analysed");
        assertThat(o.tablesNamed()).containsExactly(table("t"));
    }

    @Test
    void unreadableStatementsNameTheirTableOnlyWhenSure() {
        assertThat(opaque("DELETE FROM t USING u JOIN v ON u.id = v.id WHERE t.id = u.id", Dialect.named("postgresql")).tablesNamed())
                .containsExactly(table("t"));
        assertThat(opaque("UPDATE a JOIN b USING (id) SET a.x = 1 WHERE CURRENT OF c", Dialect.named("mariadb")).tablesNamed())
                .as("the words after UPDATE name two tables").isEmpty();
        assertThat(opaque("DELETE FROM a, b USING a JOIN b WHERE CURRENT OF c", Dialect.named("mariadb")).tablesNamed()).isEmpty();
        assertThat(opaque("WITH x AS (DELETE FROM t RETURNING *) SELECT * FROM x WHERE CURRENT OF c", Dialect.named("postgresql"))
                .reason()).startsWith("WITH could not be analysed");
    }

    @Test
    void aReasonKeepsTheParsersMessageShort() {
        String longSql = "UPDATE t SET a = 1 WHERE CURRENT OF " + "c".repeat(500);
        assertThat(opaque(longSql, Dialect.named("postgresql")).reason()).hasSizeLessThan(450);
        assertThat(Reasons.abbreviate("Encountered \"x\"\n    at line 1, column 2.\n\nWas expecting one of:\n  \"A\"\n"))
                .isEqualTo("the SQL parser says: Encountered \"x\" at line 1, column 2");
        assertThat(Reasons.abbreviate(null)).isEqualTo("the SQL parser gave no reason");
    }
}
