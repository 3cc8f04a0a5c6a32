package io.jdbcrepl.capture.locking;

import io.jdbcrepl.capture.CaptureException;
import io.jdbcrepl.capture.CaptureSettings;
import io.jdbcrepl.capture.ColumnInfo;
import io.jdbcrepl.capture.TableInfo;
import io.jdbcrepl.dialect.Dialect;
import io.jdbcrepl.lcr.CommandType;
import io.jdbcrepl.lcr.ValueType;
import io.jdbcrepl.sql.MultiTableDml;
import io.jdbcrepl.sql.SqlClassifier;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Multi-table UPDATE and DELETE on MariaDB/MySQL (SPEC 8.3): lock the join, change by the locked keys, read back. */
class MultiTablePlannerTest {

    private static final TableInfo EMP = new TableInfo("hr", "emp", List.of(
            new ColumnInfo("id", ValueType.INTEGER, "INT", false, false),
            new ColumnInfo("dept", ValueType.INTEGER, "INT", true, false),
            new ColumnInfo("salary", ValueType.DECIMAL, "DECIMAL", true, false),
            new ColumnInfo("ts", ValueType.TIMESTAMP, "DATETIME", true, false)), List.of("id"));
    private static final TableInfo DEPT = new TableInfo("hr", "dept", List.of(
            new ColumnInfo("id", ValueType.INTEGER, "INT", false, false),
            new ColumnInfo("name", ValueType.STRING, "VARCHAR", true, false),
            new ColumnInfo("total", ValueType.DECIMAL, "DECIMAL", true, false)), List.of("id"));
    private static final TableInfo LOOSE = new TableInfo("hr", "loose", List.of(
            new ColumnInfo("a", ValueType.INTEGER, "INT", true, false)), List.of()).keyedByComparableColumns();

    private static final Dialect MARIADB = Dialect.named("mariadb");

    /** Plans {@code sql} with the tables of {@code replicated} (by name) replicated. */
    private static MultiTablePlan plan(String sql, Map<String, TableInfo> replicated, CaptureSettings settings)
            throws CaptureException {
        MultiTableDml dml = (MultiTableDml) SqlClassifier.analyze(sql, MARIADB);
        List<MultiTablePlanner.Replicated> tables = new ArrayList<>();
        for (MultiTableDml.JoinedTable t : dml.changed()) {
            TableInfo info = replicated.get(t.table().name());
            if (info != null) tables.add(new MultiTablePlanner.Replicated(t, info, settings));
        }
        return new MultiTablePlanner(MARIADB, 1000).plan(dml, tables);
    }

    private static MultiTablePlan plan(String sql) throws CaptureException {
        return plan(sql, Map.of("emp", EMP, "dept", DEPT, "loose", LOOSE), CaptureSettings.DEFAULT);
    }

    @Test
    void updateOfOneTableReadsItsJoinAndChangesByTheLockedKeysAPageAtATime() throws Exception {
        MultiTablePlan p = plan("UPDATE emp e JOIN dept d ON d.id = e.dept SET e.salary = e.salary + ? WHERE d.name = ?");
        assertThat(p.command()).isEqualTo(CommandType.UPDATE);
        assertThat(p.targets()).hasSize(1);
        assertThat(p.lockingRead().text()).isEqualTo("SELECT `e`.`id`, `e`.`salary` FROM emp e JOIN dept d ON d.id = e.dept"
                + " WHERE (d.name = ?\n) FOR UPDATE");
        assertThat(p.lockingRead().parameters()).containsExactly(2);
        assertThat(p.pagedChange()).isTrue();
        assertThat(p.change(List.of(2)).text()).isEqualTo("UPDATE emp e JOIN dept d ON d.id = e.dept SET e.salary ="
                + " e.salary + ? WHERE (d.name = ?\n) AND `e`.`id` IN (?, ?)");
        assertThat(p.change(List.of(2)).parameters()).containsExactly(1, 2, PlannedSql.DRIVER, PlannedSql.DRIVER);
        MultiTablePlan.Target t = p.targets().get(0);
        assertThat(p.readBack(t, 1).text()).isEqualTo("SELECT `e`.`id`, `e`.`salary` FROM emp AS `e` WHERE `e`.`id` IN (?)");
        assertThat(t.shape().changeVectorJson()).isEqualTo("[\"salary\"]");
    }

    @Test
    void updateOfTwoTablesChangesOnceWithEveryLockedKey() throws Exception {
        MultiTablePlan p = plan("UPDATE emp, dept SET emp.salary = 1, dept.total = dept.total + emp.salary"
                + " WHERE emp.dept = dept.id");
        assertThat(p.targets()).extracting(x -> x.table().name()).containsExactly("emp", "dept");
        assertThat(p.lockingRead().text()).isEqualTo("SELECT emp.`id`, emp.`salary`, dept.`id`, dept.`total` FROM emp, dept"
                + " WHERE (emp.dept = dept.id\n) FOR UPDATE");
        assertThat(p.targets().get(1).firstColumn()).isEqualTo(3);
        assertThat(p.pagedChange()).isFalse();
        assertThat(p.change(List.of(1, 2)).text()).isEqualTo("UPDATE emp, dept SET emp.salary = 1, dept.total ="
                + " dept.total + emp.salary WHERE (emp.dept = dept.id\n) AND emp.`id` IN (?) AND dept.`id` IN (?, ?)");
    }

    @Test
    void aChangedTableThatIsNotReplicatedStillForbidsPagesButHasNoTarget() throws Exception {
        MultiTablePlan p = plan("UPDATE emp JOIN other o ON o.id = emp.id SET emp.dept = 1, o.x = 2");
        assertThat(p.targets()).extracting(x -> x.table().name()).containsExactly("emp");
        assertThat(p.pagedChange()).isFalse();
        assertThat(p.change(List.of(1)).text()).isEqualTo("UPDATE emp JOIN other o ON o.id = emp.id SET emp.dept = 1,"
                + " o.x = 2 WHERE emp.`id` IN (?)");
    }

    @Test
    void deleteReadsEveryColumnAndReadsBackTheKey() throws Exception {
        MultiTablePlan p = plan("DELETE FROM e USING emp AS e LEFT JOIN dept d ON d.id = e.dept WHERE d.id IS NULL");
        assertThat(p.command()).isEqualTo(CommandType.DELETE);
        assertThat(p.lockingRead().text()).isEqualTo("SELECT `e`.`id`, `e`.`dept`, `e`.`salary`, `e`.`ts` FROM emp AS e"
                + " LEFT JOIN dept d ON d.id = e.dept WHERE (d.id IS NULL\n) FOR UPDATE");
        assertThat(p.change(List.of(1)).text()).isEqualTo("DELETE FROM e USING emp AS e LEFT JOIN dept d ON d.id = e.dept"
                + " WHERE (d.id IS NULL\n) AND `e`.`id` IN (?)");
        assertThat(p.readBack(p.targets().get(0), 2).text()).isEqualTo("SELECT `e`.`id` FROM emp AS `e` WHERE `e`.`id` IN (?, ?)");
    }

    @Test
    void theTimestampColumnGetsTheNextTimestamp() throws Exception {
        CaptureSettings ts = new CaptureSettings(false, List.of(), List.of(), "ts");
        MultiTablePlan p = plan("UPDATE emp JOIN dept ON dept.id = emp.dept SET emp.salary = 5", Map.of("emp", EMP), ts);
        assertThat(p.change(List.of(1)).text()).isEqualTo("UPDATE emp JOIN dept ON dept.id = emp.dept SET emp.`salary` = 5,"
                + " emp.`ts` = CASE WHEN emp.`ts` IS NULL OR emp.`ts` < NOW(6) THEN NOW(6) ELSE emp.`ts` + INTERVAL 1"
                + " MICROSECOND END WHERE emp.`id` IN (?)");
        assertThat(p.targets().get(0).shape().changeVectorJson()).isEqualTo("[\"salary\",\"ts\"]");
    }

    @Test
    void whatCannotBeExactIsRefusedSayingHowToWriteIt() {
        assertThatThrownBy(() -> plan("UPDATE dept LEFT JOIN emp ON emp.dept = dept.id SET emp.salary = 0"))
                .isInstanceOf(CaptureException.class).hasMessageContaining("outer side of a LEFT or RIGHT JOIN")
                .hasMessageContaining("inner JOIN").hasMessageContaining("repl.unsupported=passthrough");
        assertThatThrownBy(() -> plan("UPDATE emp JOIN dept ON dept.id = emp.dept SET emp.id = emp.id + 100"))
                .hasMessageContaining("key column id").hasMessageContaining("single-table");
        assertThatThrownBy(() -> plan("DELETE loose FROM loose JOIN dept ON dept.id = loose.a"))
                .hasMessageContaining("without a key").hasMessageContaining("repl.key.loose");
        assertThatThrownBy(() -> plan("UPDATE emp a JOIN emp b ON a.id = b.dept SET a.salary = 1, b.salary = 2"))
                .hasMessageContaining("two of its names");
    }
}
