package io.jdbcrepl.capture.locking;

import io.jdbcrepl.capture.CaptureException;
import io.jdbcrepl.capture.CaptureSettings;
import io.jdbcrepl.capture.ColumnInfo;
import io.jdbcrepl.capture.TableInfo;
import io.jdbcrepl.dialect.Dialect;
import io.jdbcrepl.sql.Dml;
import io.jdbcrepl.sql.SqlClassifier;
import io.jdbcrepl.lcr.ValueType;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class LockingPlannerTest {

    private static final TableInfo EMP = new TableInfo("hr", "emp", List.of(
            new ColumnInfo("id", ValueType.INTEGER, "INT", false, false),
            new ColumnInfo("name", ValueType.STRING, "VARCHAR", false, false),
            new ColumnInfo("salary", ValueType.DECIMAL, "DECIMAL", true, false),
            new ColumnInfo("ts", ValueType.TIMESTAMP, "DATETIME", true, false)), List.of("id"));
    private static final TableInfo PAIR = new TableInfo("hr", "pair", List.of(
            new ColumnInfo("a", ValueType.INTEGER, "INT", false, false),
            new ColumnInfo("b", ValueType.INTEGER, "INT", false, false),
            new ColumnInfo("v", ValueType.STRING, "VARCHAR", true, false)), List.of("a", "b"), java.util.Map.of(),
            java.util.Set.of("a", "b"));
    private static final CaptureSettings TS = new CaptureSettings(false, List.of(), List.of(), "ts");

    private static final Dialect MARIADB = Dialect.named("mariadb");
    private static final Dialect H2 = Dialect.named("h2");

    private static LockingPlan plan(Dialect d, String sql, TableInfo table, CaptureSettings s) throws CaptureException {
        return new LockingPlanner(d, 1000).plan((Dml) SqlClassifier.analyze(sql, d), table, s);
    }

    private static UpdatePlan update(String sql) throws CaptureException {
        return (UpdatePlan) plan(MARIADB, sql, EMP, CaptureSettings.DEFAULT);
    }

    @Test
    void updateLocksTheRowsOfItsWhereAPageAtATimeUpToTheLastRow() throws Exception {
        UpdatePlan p = update("UPDATE emp SET salary = salary * ? WHERE name = ? AND salary < ?");
        assertThat(p.paged()).isTrue();
        assertThat(p.lockingRead(true).text()).isEqualTo("SELECT `emp`.`id`, `emp`.`salary` FROM emp"
                + " WHERE (name = ? AND salary < ?) ORDER BY `emp`.`id` LIMIT 1000 FOR UPDATE");
        assertThat(p.lockingRead(true).parameters()).containsExactly(2, 3);
        assertThat(p.lastRowRead().text()).isEqualTo("SELECT `emp`.`id` FROM emp WHERE (name = ? AND salary < ?)"
                + " ORDER BY `emp`.`id` DESC LIMIT 1 FOR UPDATE");
        assertThat(p.lockingRead(false).text()).isEqualTo("SELECT `emp`.`id`, `emp`.`salary` FROM emp"
                + " WHERE (name = ? AND salary < ?) AND ((`emp`.`id` > ?)) AND ((`emp`.`id` <= ?))"
                + " ORDER BY `emp`.`id` LIMIT 1000 FOR UPDATE");
        assertThat(p.lockingRead(false).parameters()).containsExactly(2, 3, PlannedSql.DRIVER, PlannedSql.DRIVER);
        assertThat(UpdatePlan.pageValues(List.of(7), List.of(90))).containsExactly(7, 90);
    }

    /** A table without key (SPEC 3.3): keyed by its comparable columns; the LOB is not one. */
    private static final TableInfo HISTORY = new TableInfo("hr", "history", List.of(
            new ColumnInfo("h_id", ValueType.INTEGER, "INT", true, false),
            new ColumnInfo("note", ValueType.STRING, "VARCHAR", true, false),
            new ColumnInfo("doc", ValueType.STRING, "LONGTEXT", true, false)), List.of()).keyedByComparableColumns();

    @Test
    void aTableWithoutKeyIsChangedAKeyAtATimeNullSafelyAndAsManyRowsAsWereLocked() throws Exception {
        assertThat(HISTORY.keyless()).isTrue();
        assertThat(HISTORY.key()).containsExactly("h_id", "note");
        UpdatePlan maria = (UpdatePlan) plan(MARIADB, "UPDATE history SET doc = ? WHERE h_id = ? LIMIT 1",
                HISTORY, CaptureSettings.DEFAULT);
        assertThat(maria.paged()).as("NULL has no place in key order").isFalse();
        assertThat(maria.spill()).as("the locked rows are grouped by key in memory").isNull();
        assertThat(maria.oneRow()).isNull();
        assertThat(maria.updateSome(2).text()).isEqualTo("UPDATE history SET `doc` = ? WHERE (h_id = ?) AND"
                + " ((`history`.`h_id` <=> ? AND `history`.`note` <=> ?)) LIMIT 2");
        assertThat(maria.updateSome(2).parameters()).containsExactly(1, 2, PlannedSql.DRIVER, PlannedSql.DRIVER);
        UpdatePlan h2 = (UpdatePlan) plan(H2, "UPDATE history SET note = 'x'", HISTORY, CaptureSettings.DEFAULT);
        assertThat(h2.keyAssigned()).isTrue();
        assertThat(h2.spill()).isNull();
        assertThat(h2.updateSome(1).text()).isEqualTo("UPDATE history SET \"note\" = 'x' WHERE"
                + " ((\"HISTORY\".\"h_id\" IS NOT DISTINCT FROM ? AND \"HISTORY\".\"note\" IS NOT DISTINCT FROM ?)) LIMIT 1");
        assertThat(h2.readNew(1).text()).endsWith("WHERE ((\"HISTORY\".\"h_id\" IS NOT DISTINCT FROM ?"
                + " AND \"HISTORY\".\"note\" IS NOT DISTINCT FROM ?))");
        ReturningPlan.Keyed delete = ((ReturningPlan) plan(H2, "DELETE FROM history WHERE h_id = 1 LIMIT 1",
                HISTORY, CaptureSettings.DEFAULT)).keyed();
        assertThat(delete.deleteSome(1).text()).isEqualTo("DELETE FROM history WHERE (h_id = 1) AND"
                + " ((\"HISTORY\".\"h_id\" IS NOT DISTINCT FROM ? AND \"HISTORY\".\"note\" IS NOT DISTINCT FROM ?)) LIMIT 1");
    }

    @Test
    void deleteIsALockingReadAndDeletesByKeyOnH2AndWholeOnMariaDb() throws Exception {
        ReturningPlan h2 = (ReturningPlan) plan(H2, "DELETE FROM emp WHERE salary < ? LIMIT 5", EMP,
                CaptureSettings.DEFAULT);
        ReturningPlan.Keyed keyed = h2.keyed();
        assertThat(keyed.lockingRead().text()).isEqualTo("SELECT \"EMP\".\"id\", \"EMP\".\"name\", \"EMP\".\"salary\","
                + " \"EMP\".\"ts\" FROM emp WHERE (salary < ?) LIMIT 5 FOR UPDATE");
        assertThat(keyed.lockingRead().parameters()).containsExactly(1);
        assertThat(keyed.delete(2).text()).isEqualTo("DELETE FROM emp WHERE \"EMP\".\"id\" IN (?, ?)");
        assertThat(keyed.delete(2).parameters()).containsExactly(PlannedSql.DRIVER, PlannedSql.DRIVER);
        assertThat(keyed.size()).isEqualTo(1000);
        assertThat(((ReturningPlan) plan(H2, "SELECT id FROM OLD TABLE (DELETE FROM emp)", EMP,
                CaptureSettings.DEFAULT)).keyed()).isNull();
        // MariaDB: one statement whatever it deletes (the driver streams its RETURNING)
        for (String sql : List.of("DELETE FROM emp WHERE salary < ?", "DELETE FROM emp WHERE id = ?",
                "DELETE FROM emp WHERE id IN (SELECT id FROM emp e2 WHERE salary > 1) ORDER BY id LIMIT 5000")) {
            ReturningPlan p = (ReturningPlan) plan(MARIADB, sql, EMP, CaptureSettings.DEFAULT);
            assertThat(p.keyed()).as(sql).isNull();
            assertThat(p.sql().text()).as(sql).isEqualTo(sql + "\nRETURNING `id`, `name`, `salary`, `ts`");
        }
    }

    /**
     * Issue 16: MariaDB's DELETE x FROM t x (Hibernate 6's bulk delete) takes no RETURNING: a locking read
     * under the alias, then DELETE by key naming the table, as H2 deletes.
     */
    @Test
    void mariaDbDeleteUnderAnAliasIsALockingReadAndDeletesByKey() throws Exception {
        ReturningPlan p = (ReturningPlan) plan(MARIADB, "delete e1_0 from emp e1_0 where e1_0.salary < ?",
                EMP, CaptureSettings.DEFAULT);
        ReturningPlan.Keyed keyed = p.keyed();
        assertThat(keyed).isNotNull();
        assertThat(keyed.lockingRead().text()).isEqualTo("SELECT `e1_0`.`id`, `e1_0`.`name`, `e1_0`.`salary`, `e1_0`.`ts`"
                + " FROM emp AS `e1_0` WHERE (e1_0.salary < ?) FOR UPDATE");
        assertThat(keyed.lockingRead().parameters()).containsExactly(1);
        assertThat(keyed.delete(2).text()).isEqualTo("DELETE FROM emp WHERE `emp`.`id` IN (?, ?)");
        assertThat(keyed.delete(2).parameters()).containsExactly(PlannedSql.DRIVER, PlannedSql.DRIVER);
        ReturningPlan named = (ReturningPlan) plan(MARIADB, "DELETE emp FROM hr.emp WHERE id = ?", PAIR,
                CaptureSettings.DEFAULT);
        assertThat(named.keyed().lockingRead().text()).isEqualTo("SELECT `emp`.`a`, `emp`.`b`, `emp`.`v` FROM hr.emp AS `emp`"
                + " WHERE (id = ?) FOR UPDATE");
        assertThat(named.keyed().delete(1).text()).isEqualTo("DELETE FROM hr.emp WHERE ((`emp`.`a` = ? AND `emp`.`b` = ?))");
        assertThatThrownBy(() -> plan(MARIADB, "DELETE IGNORE x FROM emp x WHERE x.id = 1", EMP,
                CaptureSettings.DEFAULT)).isInstanceOf(CaptureException.class).hasMessageContaining("without the alias");
    }

    /** Issue 16: Hibernate 6's bulk update on MariaDB, update t x set x.v=? where x.id=?, is a plain captured UPDATE. */
    @Test
    void mariaDbUpdateUnderAnAliasQualifyingItsSetColumns() throws Exception {
        UpdatePlan p = update("update emp e1_0 set e1_0.salary=? where e1_0.id=?");
        assertThat(p.logged().newColumns()).contains("salary");
        assertThat(p.lockingRead(true).text()).startsWith("SELECT `e1_0`.`id`, `e1_0`.`salary` FROM emp AS `e1_0`"
                + " WHERE (e1_0.id=?)");
        assertThat(p.lockingRead(true).parameters()).containsExactly(2);
    }

    @Test
    void h2QueryOverADeltaTableGetsEveryColumnAfterItsItems() throws Exception {
        ReturningPlan p = (ReturningPlan) plan(H2, "SELECT id * 2 AS twice, * FROM FINAL TABLE"
                + " (INSERT INTO emp (name) VALUES (?)) f", EMP, CaptureSettings.DEFAULT);
        assertThat(p.sql().text()).isEqualTo("SELECT id * 2 AS twice, *, \"id\", \"name\", \"salary\", \"ts\""
                + " FROM FINAL TABLE (INSERT INTO emp (name) VALUES (?)\n) f");
        assertThat(p.applicationColumns()).isEqualTo(5);
        assertThat(p.sql().parameters()).containsExactly(1);
        ReturningPlan d = (ReturningPlan) plan(H2, "SELECT name FROM OLD TABLE (DELETE FROM emp)", EMP,
                CaptureSettings.DEFAULT);
        assertThat(d.keyed()).isNull();
        assertThat(d.sql().text()).isEqualTo("SELECT name, \"id\", \"name\", \"salary\", \"ts\" FROM OLD TABLE"
                + " (DELETE FROM emp\n)");
    }

    @Test
    void aSubqueryInTheWhereIsReadInOnePiece() throws Exception {
        // MariaDB reads the application's subquery against the rows as they were: a page must not see earlier pages
        UpdatePlan p = update("UPDATE emp SET salary = 0 WHERE salary > (SELECT AVG(salary) FROM emp)");
        assertThat(p.paged()).isFalse();
        assertThat(p.lockingRead(true).text()).endsWith("WHERE (salary > (SELECT AVG(salary) FROM emp)) FOR UPDATE");
    }

    @Test
    void restrictedUpdateBindsTheSetThenTheLockedKeys() throws Exception {
        UpdatePlan p = update("UPDATE emp SET salary = salary * ? WHERE name = ?");
        PlannedSql u = p.update(3);
        assertThat(u.text()).isEqualTo("UPDATE emp SET `salary` = salary * ? WHERE `emp`.`id` IN (?, ?, ?)");
        assertThat(u.parameters()).containsExactly(1, PlannedSql.DRIVER, PlannedSql.DRIVER, PlannedSql.DRIVER);
        assertThat(p.readNew(2).text()).isEqualTo("SELECT `emp`.`id`, `emp`.`salary` FROM emp WHERE `emp`.`id` IN (?, ?)");
        assertThat(p.readNew(2).driverValues()).isEqualTo(2);
    }

    @Test
    void updateByTheWholeKeyIsOneCompoundStatementOnMariaDb() throws Exception {
        UpdatePlan p = update("UPDATE emp SET salary = salary + ? WHERE id = ?");
        assertThat(p.oneRow()).isNotNull();
        PlannedSql block = p.oneRow().inTransaction();
        assertThat(block.text()).startsWith("/*client prepare*/BEGIN NOT ATOMIC").doesNotContain("START TRANSACTION")
                .contains("SELECT `emp`.`id`, `emp`.`salary` FROM emp WHERE (id = ?) FOR UPDATE;")
                .contains("IF repl_n = 1 THEN SAVEPOINT")
                .contains("UPDATE emp SET `salary` = salary + ? WHERE (id = ?\n);")
                .contains("SELECT repl_r, `emp`.`id`, `emp`.`salary` FROM emp WHERE (id = ?\n);")
                .endsWith("END IF;\nEND");
        // read: the key; update: the SET then the key; read-back: the key.
        assertThat(block.parameters()).containsExactly(2, 1, 2, 2);
        assertThat(p.oneRow().beginning().text()).contains("START TRANSACTION;").doesNotContain("SAVEPOINT");
        assertThat(update("UPDATE emp SET name = ? WHERE `emp`.`ID` = ?").oneRow()).isNotNull();
    }

    @Test
    void updatesThatMayChangeSeveralRowsOrAssignTheKeyKeepTheGeneralSteps() throws Exception {
        assertThat(update("UPDATE emp SET salary = 1 WHERE id = ? OR id = ?").oneRow()).isNull();
        assertThat(update("UPDATE emp SET salary = 1 WHERE id = 5").oneRow()).isNull();
        assertThat(update("UPDATE emp SET salary = 1 WHERE id > ?").oneRow()).isNull();
        assertThat(update("UPDATE emp SET salary = 1 WHERE name = ?").oneRow()).isNull();
        assertThat(update("UPDATE emp SET salary = 1 WHERE id = ? AND name = ?").oneRow()).isNull();
        assertThat(update("UPDATE emp SET id = id + 1 WHERE id = ?").oneRow()).isNull();
        assertThat(update("UPDATE emp SET salary = 1 WHERE other.id = ?").oneRow()).isNull();
        assertThat(update("UPDATE emp SET salary = 1").oneRow()).isNull();
        assertThat(((UpdatePlan) plan(H2, "UPDATE emp SET salary = 1 WHERE id = ?", EMP,
                CaptureSettings.DEFAULT)).oneRow()).isNull();
        UpdatePlan pair = (UpdatePlan) plan(MARIADB, "UPDATE pair SET v = ? WHERE b = ? AND a = ?", PAIR,
                CaptureSettings.DEFAULT);
        assertThat(pair.oneRow()).isNotNull();
        assertThat(((UpdatePlan) plan(MARIADB, "UPDATE pair SET v = ? WHERE a = ?", PAIR,
                CaptureSettings.DEFAULT)).oneRow()).isNull();
    }

    @Test
    void onH2AnUpdateAssigningAUniqueColumnIsNotPagedByKey() throws Exception {
        assertThat(((UpdatePlan) plan(H2, "UPDATE pair SET v = ? WHERE v IS NULL", PAIR,
                CaptureSettings.DEFAULT)).paged()).isTrue();
        TableInfo uniqueV = new TableInfo("hr", "pair", PAIR.columns(), PAIR.key(), java.util.Map.of(), java.util.Set.of("a", "b", "v"));
        assertThat(((UpdatePlan) plan(H2, "UPDATE pair SET v = ? WHERE v IS NULL", uniqueV,
                CaptureSettings.DEFAULT)).paged()).isFalse();
        assertThat(((UpdatePlan) plan(MARIADB, "UPDATE pair SET v = ? WHERE v IS NULL", uniqueV,
                CaptureSettings.DEFAULT)).paged()).isTrue(); // MariaDB checks unique keys row by row, as the pages do
        // indexes not known: not paged
        TableInfo unknown = new TableInfo("hr", "pair", PAIR.columns(), PAIR.key());
        assertThat(((UpdatePlan) plan(H2, "UPDATE pair SET v = ? WHERE v IS NULL", unknown,
                CaptureSettings.DEFAULT)).paged()).isFalse();
    }

    @Test
    void compositeKeysMatchAndPageWithExpandedConditions() throws Exception {
        UpdatePlan p = (UpdatePlan) plan(H2, "UPDATE pair SET v = ? WHERE v IS NULL", PAIR,
                CaptureSettings.DEFAULT);
        assertThat(p.update(2).text()).isEqualTo("UPDATE pair SET \"v\" = ? WHERE ((\"PAIR\".\"a\" = ? AND \"PAIR\".\"b\" = ?)"
                + " OR (\"PAIR\".\"a\" = ? AND \"PAIR\".\"b\" = ?))");
        assertThat(p.lockingRead(true).text()).endsWith("WHERE (v IS NULL) ORDER BY \"PAIR\".\"a\", \"PAIR\".\"b\""
                + " FETCH FIRST 1000 ROWS ONLY FOR UPDATE");
        assertThat(p.lockingRead(false).text()).contains("WHERE (v IS NULL) AND ((\"PAIR\".\"a\" > ?) OR (\"PAIR\".\"a\" = ?"
                + " AND \"PAIR\".\"b\" > ?)) AND ((\"PAIR\".\"a\" < ?) OR (\"PAIR\".\"a\" = ? AND \"PAIR\".\"b\" <= ?))");
        assertThat(UpdatePlan.pageValues(List.of(1, 2), List.of(8, 9))).containsExactly(1, 1, 2, 8, 8, 9);
        assertThat(p.lastRowRead().text()).endsWith("ORDER BY \"PAIR\".\"a\" DESC, \"PAIR\".\"b\" DESC"
                + " FETCH FIRST 1 ROWS ONLY FOR UPDATE");
    }

    @Test
    void orderByAndLimitAreKeptAndNotPaged() throws Exception {
        UpdatePlan p = update("UPDATE emp SET name = ? WHERE salary > ? ORDER BY salary DESC LIMIT ?");
        assertThat(p.paged()).isFalse();
        assertThat(p.lockingRead(true).text()).endsWith("WHERE (salary > ?) ORDER BY salary DESC LIMIT ? FOR UPDATE");
        assertThat(p.lockingRead(true).parameters()).containsExactly(2, 3);
        assertThat(p.update(1).text()).endsWith("WHERE `emp`.`id` IN (?) ORDER BY salary DESC");
        assertThat(p.update(1).parameters()).containsExactly(1, PlannedSql.DRIVER);
    }

    @Test
    void keyUpdateReadsTheNewKeyAndIsNotPaged() throws Exception {
        UpdatePlan p = update("UPDATE emp SET id = id + ?, name = ? WHERE id = ?");
        assertThat(p.keyAssigned()).isTrue();
        assertThat(p.paged()).isFalse();
        assertThat(p.lockingRead(true).text()).isEqualTo(
                "SELECT `emp`.`id`, `emp`.`name`, (id + ?) FROM emp WHERE (id = ?) FOR UPDATE");
        assertThat(p.lockingRead(true).parameters()).containsExactly(1, 3);
    }

    @Test
    void mariaDbRefusesAKeyAssignmentAfterAnotherAssignment() {
        assertThatThrownBy(() -> update("UPDATE emp SET name = ?, id = id + 1"))
                .isInstanceOf(CaptureException.class).hasMessageContaining("repl.unsupported");
    }

    @Test
    void timestampIsSetLastFromTheOldValue() throws Exception {
        UpdatePlan p = (UpdatePlan) plan(MARIADB, "UPDATE emp SET name = ? WHERE id = ?", EMP, TS);
        assertThat(p.update(1).text()).isEqualTo("UPDATE emp SET `name` = ?, `ts` = CASE WHEN `emp`.`ts` IS NULL OR"
                + " `emp`.`ts` < NOW(6) THEN NOW(6) ELSE `emp`.`ts` + INTERVAL 1 MICROSECOND END WHERE `emp`.`id` IN (?)");
        assertThat(p.logged().changeVector()).containsExactly("name", "ts");
        assertThat(p.otherOldColumns()).containsExactly("name", "ts");
    }

    @Test
    void insertAndDeleteReturnEveryColumn() throws Exception {
        ReturningPlan ins = (ReturningPlan) plan(MARIADB, "INSERT INTO emp (name) VALUES (?);", EMP,
                CaptureSettings.DEFAULT);
        assertThat(ins.sql().text()).isEqualTo("INSERT INTO emp (name) VALUES (?)\nRETURNING `id`, `name`, `salary`, `ts`");
        assertThat(ins.sql().parameters()).containsExactly(1);
        ReturningPlan del = (ReturningPlan) plan(H2, "DELETE FROM emp WHERE id = ? -- bye", EMP,
                CaptureSettings.DEFAULT);
        assertThat(del.sql().text()).isEqualTo("SELECT \"id\", \"name\", \"salary\", \"ts\" FROM OLD TABLE (DELETE FROM emp WHERE id = ? -- bye\n)");
        assertThat(del.logged().oldColumns()).hasSize(4);
    }

    @Test
    void insertWithTimestampIsRebuiltKeepingParameters() throws Exception {
        ReturningPlan ins = (ReturningPlan) plan(H2, "INSERT INTO emp (name, ts) VALUES (?, ?), ('x', ?)",
                EMP, TS);
        assertThat(ins.sql().text()).isEqualTo("SELECT \"id\", \"name\", \"salary\", \"ts\" FROM FINAL TABLE (INSERT INTO emp"
                + " (\"name\", \"ts\") VALUES (?, CASE WHEN (?) IS NULL THEN LOCALTIMESTAMP(6) ELSE LOCALTIMESTAMP(6) END),"
                + " ('x', CASE WHEN (?) IS NULL THEN LOCALTIMESTAMP(6) ELSE LOCALTIMESTAMP(6) END)\n)");
        assertThat(ins.sql().parameters()).containsExactly(1, 2, 3);
        ReturningPlan appended = (ReturningPlan) plan(MARIADB, "INSERT INTO emp (name) VALUES (?)", EMP, TS);
        assertThat(appended.sql().text()).startsWith("INSERT INTO emp (`name`, `ts`) VALUES (?, NOW(6))");
        assertThat(appended.logged().changeVector()).containsExactly("name", "ts");
    }

    @Test
    void upsertCopiesOldValuesInItsFirstAssignmentAndReturnsThem() throws Exception {
        UpsertPlan p = (UpsertPlan) plan(MARIADB, "INSERT INTO emp (id, name) VALUES (?, 'a')"
                + " ON DUPLICATE KEY UPDATE name = CONCAT(name, ?) ;", EMP, CaptureSettings.DEFAULT);
        assertThat(p.inTransaction().text()).isEqualTo("/*client prepare*/BEGIN NOT ATOMIC\n"
                + "SET @repl_n = 0, @repl_o1 = CAST(NULL AS SIGNED), @repl_o2 = CAST(NULL AS CHAR CHARACTER SET utf8mb4);\n"
                + "INSERT INTO emp (id, name) VALUES (?, 'a') ON DUPLICATE KEY UPDATE `emp`.`id` = IF(ISNULL(@repl_n :="
                + " @repl_n + 1) + ISNULL(@repl_o1 := `emp`.`id`) + ISNULL(@repl_o2 := CONVERT(`emp`.`name` USING utf8mb4))"
                + " >= 0, `emp`.`id`, `emp`.`id`), name = CONCAT(name, ?)\n"
                + "RETURNING `id`, `name`, `salary`, `ts`, @repl_n, CAST(@repl_o1 AS SIGNED),"
                + " CAST(@repl_o2 AS CHAR CHARACTER SET utf8mb4);\nEND");
        assertThat(p.inTransaction().parameters()).containsExactly(1, 2);
        assertThat(p.beginning().text()).startsWith("/*client prepare*/BEGIN NOT ATOMIC\nSTART TRANSACTION;\nSET @repl_n = 0");
        assertThat(p.oldColumns()).containsExactly("id", "name");
        assertThat(p.updateLogged().changeVector()).containsExactly("name");
        assertThat(p.logged().changeVector()).containsExactly("id", "name");
        assertThatThrownBy(() -> plan(H2, "INSERT INTO emp (id, name) VALUES (1, 'a')"
                + " ON DUPLICATE KEY UPDATE name = 'b'", EMP, CaptureSettings.DEFAULT)).isInstanceOf(CaptureException.class);
        UpsertPlan ts = (UpsertPlan) plan(MARIADB, "INSERT INTO emp (id, name) VALUES (?, 'a')"
                + " ON DUPLICATE KEY UPDATE name = ?", EMP, TS);
        assertThat(ts.inTransaction().text()).contains("INSERT INTO emp (`id`, `name`, `ts`) VALUES (?, 'a', NOW(6))"
                + " ON DUPLICATE KEY UPDATE `emp`.`id` = IF(")
                .contains(" `emp`.`id`, `emp`.`id`), `name` = ?, `ts` = CASE WHEN `emp`.`ts` IS NULL OR `emp`.`ts` < NOW(6)"
                        + " THEN NOW(6) ELSE `emp`.`ts` + INTERVAL 1 MICROSECOND END\nRETURNING ");
        assertThat(ts.inTransaction().parameters()).containsExactly(1, 2);
        assertThat(ts.updateLogged().changeVector()).containsExactly("name", "ts");
    }

    @Test
    void whatCannotBeCapturedExactlyIsRefused() {
        for (String sql : List.of("UPDATE IGNORE emp SET id = 1", "UPDATE emp SET name = 'x' RETURNING id",
                "INSERT INTO emp (id) VALUES (1) ON DUPLICATE KEY UPDATE name = 'b' RETURNING id")) {
            assertThatThrownBy(() -> plan(MARIADB, sql, EMP, CaptureSettings.DEFAULT))
                    .as(sql).isInstanceOf(CaptureException.class).hasMessageContaining("repl.unsupported")
                    .extracting(e -> ((CaptureException) e).getSQLState()).isEqualTo("0AR01");
        }
        assertThatThrownBy(() -> plan(MARIADB, "INSERT INTO emp (name) SELECT name FROM emp", EMP, TS))
                .isInstanceOf(CaptureException.class);
    }

    @Test
    void logInsertHasNineValuesPerRow() {
        assertThat(LogInsert.sql("`db`.`repl_log`", 2)).endsWith("VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?), (?, ?, ?, ?, ?, ?, ?, ?, ?)");
    }
}
