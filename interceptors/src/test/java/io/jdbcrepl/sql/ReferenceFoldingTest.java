package io.jdbcrepl.sql;

import io.jdbcrepl.dialect.Dialect;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ReferenceFoldingTest {

    @Test
    void tableAndColumnReferencesFoldTheirParts() {
        TableRef t = new TableRef("Hr", "Emp", null, false, true, "Hr.\"Emp\"");
        assertThat(t.foldedSchema(Dialect.named("postgresql"))).isEqualTo("hr");
        assertThat(t.foldedName(Dialect.named("postgresql"))).isEqualTo("Emp");
        assertThat(t.foldedSchema(Dialect.named("h2"))).isEqualTo("HR");
        assertThat(new TableRef(null, "t", null, false, false, "t").foldedSchema(Dialect.named("h2"))).isNull();
        assertThat(ColumnRef.of("Salary").folded(Dialect.named("h2"))).isEqualTo("SALARY");
        assertThat(ColumnRef.of("\"Salary\"").folded(Dialect.named("h2"))).isEqualTo("Salary");
        assertThat(ColumnRef.of("`Salary`")).isEqualTo(new ColumnRef("Salary", true));
    }
}
