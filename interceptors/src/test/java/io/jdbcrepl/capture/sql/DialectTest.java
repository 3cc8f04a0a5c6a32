package io.jdbcrepl.capture.sql;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DialectTest {

    @Test
    void subprotocolsNameTheirDialect() {
        assertThat(Dialect.fromSubprotocol("postgresql")).isEqualTo(Dialect.POSTGRESQL);
        assertThat(Dialect.fromSubprotocol("mysql")).isEqualTo(Dialect.MYSQL);
        assertThat(Dialect.fromSubprotocol("mariadb")).isEqualTo(Dialect.MYSQL);
        assertThat(Dialect.fromSubprotocol("h2")).isEqualTo(Dialect.H2);
        assertThat(Dialect.fromSubprotocol("MariaDB")).isEqualTo(Dialect.MYSQL);
    }

    @Test
    void unknownSubprotocolsAreRejectedByName() {
        assertThatThrownBy(() -> Dialect.fromSubprotocol("oracle")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'oracle'").hasMessageContaining("postgresql");
        assertThatThrownBy(() -> Dialect.fromSubprotocol(null)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void unquotedIdentifiersFoldPerDialect() {
        assertThat(Dialect.POSTGRESQL.fold("Employees")).isEqualTo("employees");
        assertThat(Dialect.H2.fold("Employees")).isEqualTo("EMPLOYEES");
        assertThat(Dialect.MYSQL.fold("Employees")).isEqualTo("Employees");
    }

    @Test
    void quotedIdentifiersKeepTheirCaseWithoutQuotes() {
        for (Dialect d : Dialect.values()) {
            assertThat(d.fold("\"Order\"")).as(d.name()).isEqualTo("Order");
            assertThat(d.fold("`Order`")).as(d.name()).isEqualTo("Order");
            assertThat(d.fold("\"a\"\"b\"")).as(d.name()).isEqualTo("a\"b");
            assertThat(d.fold("`a``b`")).as(d.name()).isEqualTo("a`b");
            assertThat(d.fold("Order", true)).as(d.name()).isEqualTo("Order");
        }
    }

    @Test
    void postgresqlFoldsOnlyAsciiLetters() {
        assertThat(Dialect.POSTGRESQL.fold("ÄBC_1")).isEqualTo("Äbc_1");
        assertThat(Dialect.H2.fold("äbc")).isEqualTo("ÄBC");
    }

    @Test
    void tableAndColumnReferencesFoldTheirParts() {
        TableRef t = new TableRef("Hr", "Emp", null, false, true, "Hr.\"Emp\"");
        assertThat(t.foldedSchema(Dialect.POSTGRESQL)).isEqualTo("hr");
        assertThat(t.foldedName(Dialect.POSTGRESQL)).isEqualTo("Emp");
        assertThat(t.foldedSchema(Dialect.H2)).isEqualTo("HR");
        assertThat(new TableRef(null, "t", null, false, false, "t").foldedSchema(Dialect.H2)).isNull();
        assertThat(ColumnRef.of("Salary").folded(Dialect.H2)).isEqualTo("SALARY");
        assertThat(ColumnRef.of("\"Salary\"").folded(Dialect.H2)).isEqualTo("Salary");
        assertThat(ColumnRef.of("`Salary`")).isEqualTo(new ColumnRef("Salary", true));
    }
}
