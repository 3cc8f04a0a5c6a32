package io.jdbcrepl.apply;

import static org.assertj.core.api.Assertions.assertThat;

import io.jdbcrepl.capture.ColumnInfo;
import io.jdbcrepl.capture.TableInfo;
import io.jdbcrepl.conflict.TableSettings;
import io.jdbcrepl.lcr.ValueType;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** What conflict detection learns of a destination table: key, NOT NULL and CHAR(n) columns, nocompare. */
class ConflictSettingsTest {

    private static TableInfo emp() {
        return new TableInfo("hr", "emp", List.of(new ColumnInfo("id", ValueType.INTEGER, "int4", false, false),
                new ColumnInfo("code", ValueType.STRING, "bpchar", false, false),
                new ColumnInfo("name", ValueType.STRING, "varchar", true, false),
                new ColumnInfo("grade", ValueType.STRING, "CHAR", true, false)), List.of("id"));
    }

    @Test
    void keyNotNullAndPaddedColumnsComeFromTheMetadata() {
        TableSettings s = RowApplier.settings(new TableMap.LocalTable(emp(), "\"hr\".\"emp\"", Set.of(), false, false));
        assertThat(s.schema()).isEqualTo("hr");
        assertThat(s.table()).isEqualTo("emp");
        assertThat(s.keyColumns()).containsExactly("id");
        assertThat(s.notNullColumns()).containsExactly("id", "code");
        assertThat(s.paddedColumns()).containsExactly("code", "grade");
        assertThat(s.noCompare()).isNull();
        assertThat(s.compared("name")).isTrue();
    }

    @Test
    void nocompareListsAndStarAreKept() {
        TableSettings named = RowApplier.settings(new TableMap.LocalTable(emp(), "emp", Set.of("name"), false, false));
        assertThat(named.compared("name")).isFalse();
        assertThat(named.compared("grade")).isTrue();
        TableSettings star = RowApplier.settings(new TableMap.LocalTable(emp(), "emp", Set.of(), true, false));
        assertThat(star.compared("name")).isFalse();
        assertThat(star.compared("id")).isTrue();
    }
}
