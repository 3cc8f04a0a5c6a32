package io.jdbcrepl.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.AlphaChars;
import net.jqwik.api.constraints.StringLength;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class TablePatternTest {

    @ParameterizedTest(name = "{0} matches {1}.{2} (current {3}, upper {4}): {5}")
    @CsvSource(nullValues = "null", value = {
        "*.*, hr, employees, null, false, true",
        "*.*, null, employees, null, false, true",
        "*.*, null, employees, public, false, true",
        "hr.*, hr, employees, null, false, true",
        "hr.*, HR, EMPLOYEES, null, true, true",
        "hr.*, Hr, Employees, null, false, true",
        "HR.*, hr, x, null, false, true",
        "hr.*, sales, employees, null, false, false",
        "hr.*, null, employees, hr, false, true",
        "hr.*, null, employees, sales, false, false",
        "hr.*, null, employees, null, false, false",
        "hr.emp*, hr, employees, null, false, true",
        "hr.emp*, hr, emp, null, false, true",
        "hr.emp*, hr, jobs, null, false, false",
        "hr.emp*, hr, xemployees, null, false, false",
        "hr.*s, hr, jobs, null, false, true",
        "hr.*o*, hr, jobs, null, false, true",
        "hr.e*p*s, hr, employees, null, false, true",
        "hr.e*p*s, hr, employee, null, false, false",
        "h*.emp, hr, emp, null, false, true",
        "orders, sales, orders, null, false, true",
        "orders, sales, orders, sales, false, true",
        "orders, sales, orders, hr, false, false",
        "orders, null, orders, hr, false, true",
        "orders, null, ORDERS, null, true, true",
        "orders, null, order, null, false, false",
        "*, x, anything, null, false, true",
        "*, x, anything, y, false, false",
        "emp, null, emp_, null, false, false",
    })
    void matches(String pattern, String schema, String table, String current, boolean upper, boolean expected) {
        assertThat(TablePattern.parse(pattern).matches(schema, table, current, upper)).isEqualTo(expected);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", ".", "a.", ".a", "a.b.c", "a b", "a-b", "\"a\"", "a..b", "a,b", "a.?"})
    void rejectsNonPatterns(String text) {
        assertThatThrownBy(() -> TablePattern.parse(text)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void parseKeepsTheText() {
        assertThat(TablePattern.parse("HR.Emp*")).isEqualTo(new TablePattern("HR", "Emp*"));
        assertThat(TablePattern.parse("HR.Emp*")).hasToString("HR.Emp*");
        assertThat(TablePattern.parse("orders")).isEqualTo(new TablePattern(null, "orders"));
    }

    @Test
    void tableNames() {
        assertThat(TableName.parse("hr.employees")).isEqualTo(new TableName("hr", "employees"));
        assertThat(TableName.parse("employees")).hasToString("employees");
        assertThat(TableName.parse("Hr.Emp").matches("HR", "EMP", null, true)).isTrue();
        assertThat(TableName.parse("Hr.Emp").matches("hr", "emp", null, false)).isTrue();
        assertThat(TableName.parse("hr.emp").matches("hr", "emp2", null, false)).isFalse();
        assertThat(TableName.parse("hr.emp").matches(null, "emp", "hr", false)).isTrue();
        assertThat(TableName.parse("hr.emp").matches(null, "emp", null, false)).isFalse();
        assertThat(TableName.parse("hr.emp").sameAs(TableName.parse("HR.EMP"))).isTrue();
        assertThat(TableName.parse("emp").sameAs(TableName.parse("hr.emp"))).isFalse();
        for (String bad : new String[] {"", "a.b.c", "a.*", "a b", "."}) {
            assertThatThrownBy(() -> TableName.parse(bad)).isInstanceOf(IllegalArgumentException.class);
        }
    }

    @Property
    void starMatchesEveryTableAndALiteralOnlyItself(@ForAll @AlphaChars @StringLength(min = 1, max = 12) String a,
            @ForAll @AlphaChars @StringLength(min = 1, max = 12) String b) {
        assertThat(TablePattern.parse("*").matches(null, a, null, false)).isTrue();
        assertThat(TablePattern.parse("s." + a).matches("S", a.toUpperCase(), null, true)).isTrue();
        assertThat(TablePattern.parse(a + "*").matches("s", a + b, null, false)).isTrue();
        assertThat(TablePattern.parse("*" + b).matches("s", a + b, null, false)).isTrue();
        assertThat(TablePattern.parse(a).matches("s", b, null, false)).isEqualTo(a.equalsIgnoreCase(b));
    }
}
