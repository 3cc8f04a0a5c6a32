package io.jdbcrepl.capture;

import io.jdbcrepl.lcr.ValueType;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class LoggedColumnsTest {

    private static final TableInfo EMP = new TableInfo("hr", "employees", List.of(
            col("employee_id"), col("first_name"), col("salary"), col("commission_pct"), col("job_id"),
            col("department_id"), col("manager_id"), col("time")), List.of("employee_id"));

    private static ColumnInfo col(String name) {
        return new ColumnInfo(name, ValueType.STRING, "text", true, false);
    }

    @Test
    void insertLogsEveryNewValue() {
        LoggedColumns c = LoggedColumns.forInsert(EMP, List.of("employee_id", "salary"), CaptureSettings.DEFAULT);
        assertThat(c.oldColumns()).isEmpty();
        assertThat(c.newColumns()).hasSize(8).startsWith("employee_id");
        assertThat(c.changeVector()).containsExactly("employee_id", "salary");
    }

    @Test
    void deleteLogsEveryOldValue() {
        LoggedColumns c = LoggedColumns.forDelete(EMP);
        assertThat(c.oldColumns()).hasSize(8);
        assertThat(c.newColumns()).isEmpty();
    }

    @Test
    void updateWithKeysLogsTheKeyAndTheAssignedColumns() {
        LoggedColumns c = LoggedColumns.forUpdate(EMP, List.of("SALARY"), CaptureSettings.DEFAULT);
        assertThat(c.oldColumns()).containsExactly("employee_id", "salary");
        assertThat(c.newColumns()).containsExactly("salary");
        assertThat(c.changeVector()).containsExactly("salary");
    }

    @Test
    void updateOfTheKeyCarriesTheOldKey() {
        LoggedColumns c = LoggedColumns.forUpdate(EMP, List.of("employee_id"), CaptureSettings.DEFAULT);
        assertThat(c.oldColumns()).containsExactly("employee_id");
        assertThat(c.newColumns()).containsExactly("employee_id");
    }

    @Test
    void allLogsEveryOldValue() {
        LoggedColumns c = LoggedColumns.forUpdate(EMP, List.of("salary"),
                new CaptureSettings(true, List.of(), List.of(), null));
        assertThat(c.oldColumns()).hasSize(8);
        assertThat(c.newColumns()).containsExactly("salary");
    }

    @Test
    void unconditionalGroupsAreAlwaysLogged() {
        CaptureSettings s = new CaptureSettings(false, List.of(List.of("job_id", "manager_id")), List.of(), null);
        assertThat(LoggedColumns.forUpdate(EMP, List.of("first_name"), s).oldColumns())
                .containsExactly("employee_id", "first_name", "job_id", "manager_id");
    }

    @Test
    void conditionalGroupsOnlyWhenAMemberIsAssigned() {
        CaptureSettings s = new CaptureSettings(false, List.of(), List.of(List.of("salary", "commission_pct", "time")), null);
        assertThat(LoggedColumns.forUpdate(EMP, List.of("first_name"), s).oldColumns())
                .containsExactly("employee_id", "first_name");
        assertThat(LoggedColumns.forUpdate(EMP, List.of("salary"), s).oldColumns())
                .containsExactly("employee_id", "salary", "commission_pct", "time");
    }

    @Test
    void theMaintainedTimestampIsAssignedAndTriggersItsGroups() {
        CaptureSettings s = new CaptureSettings(false, List.of(), List.of(List.of("time", "salary")), "TIME");
        LoggedColumns c = LoggedColumns.forUpdate(EMP, List.of("first_name"), s);
        assertThat(c.newColumns()).containsExactly("first_name", "time");
        assertThat(c.changeVector()).containsExactly("first_name", "time");
        assertThat(c.oldColumns()).containsExactly("employee_id", "first_name", "salary", "time");
        assertThat(LoggedColumns.forInsert(EMP, List.of("employee_id"), s).changeVector())
                .containsExactly("employee_id", "time");
    }

    @Test
    void substituteKeysAreLoggedLikeAPrimaryKey() {
        TableInfo t = new TableInfo(null, "t", List.of(col("a"), col("b"), col("c")), List.of("B", "a"));
        assertThat(t.key()).containsExactly("b", "a");
        assertThat(LoggedColumns.forUpdate(t, List.of("c"), CaptureSettings.DEFAULT).oldColumns())
                .containsExactly("a", "b", "c");
    }

    @Test
    void unknownColumnsAreNamed() {
        assertThatThrownBy(() -> LoggedColumns.forUpdate(EMP, List.of("bogus"), CaptureSettings.DEFAULT))
                .hasMessageContaining("bogus").hasMessageContaining("hr.employees");
        assertThatThrownBy(() -> new TableInfo(null, "t", List.of(col("a")), List.of("x")))
                .hasMessageContaining("Key column x");
    }

    @Test
    void aLargeObjectsOldValueIsNeverLoggedItsNewValueIs() {
        TableInfo doc = new TableInfo("public", "doc", List.of(new ColumnInfo("id", ValueType.INTEGER, "int4", false, false),
                new ColumnInfo("data", ValueType.LARGE_OBJECT, "oid", true, false), col("note")), List.of("id"));
        assertThat(LoggedColumns.forDelete(doc).oldColumns()).containsExactly("id", "note");
        LoggedColumns update = LoggedColumns.forUpdate(doc, List.of("data", "note"), CaptureSettings.DEFAULT);
        assertThat(update.oldColumns()).containsExactly("id", "note");
        assertThat(update.newColumns()).containsExactly("data", "note");
        assertThat(LoggedColumns.forInsert(doc, List.of("id", "data"), CaptureSettings.DEFAULT).newColumns())
                .containsExactly("id", "data", "note");
    }
}
