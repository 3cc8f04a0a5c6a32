package io.jdbcrepl.dialect;


import java.sql.SQLException;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DialectTest {

    @Test
    void urlsNameTheirDialect() throws Exception {
        assertThat(Dialect.forUrl("jdbc:postgresql://h/db")).isEqualTo(Dialect.named("postgresql"));
        assertThat(Dialect.forUrl("jdbc:mysql://h/db")).isEqualTo(Dialect.named("mysql"));
        assertThat(Dialect.forUrl("jdbc:mariadb://h/db")).isEqualTo(Dialect.named("mariadb"));
        assertThat(Dialect.forUrl("jdbc:h2:mem:x")).isEqualTo(Dialect.named("h2"));
        assertThat(Dialect.forUrl("jdbc:MariaDB://h/db")).isEqualTo(Dialect.named("mariadb"));
        assertThat(Dialect.subprotocol("jdbc:sqlserver://h;databaseName=x")).isEqualTo("sqlserver");
        assertThat(Dialect.ofUrl("jdbc:sqlserver://h")).isEmpty();
        assertThat(Dialect.subprotocol("postgresql://h/db")).isEmpty();
        assertThat(Dialect.subprotocol("jdbc:")).isEmpty();
        assertThat(Dialect.subprotocol(null)).isEmpty();
    }

    @Test
    void urlsOfOtherDatabasesAreRefusedByName() {
        assertThatThrownBy(() -> Dialect.forUrl("jdbc:oracle:thin:@h:1521/x")).isInstanceOf(SQLException.class)
                .hasMessageContaining("'oracle'").hasMessageContaining("postgresql")
                .extracting(e -> ((SQLException) e).getSQLState()).isEqualTo("0AR01");
        assertThatThrownBy(() -> Dialect.forUrl("not a url")).isInstanceOf(SQLException.class);
    }

    @Test
    void identifiersAreQuotedPerDialectWithTheirQuotesDoubled() {
        assertThat(Dialect.named("mariadb").quote("a`b")).isEqualTo("`a``b`");
        assertThat(Dialect.named("postgresql").quote("a\"b")).isEqualTo("\"a\"\"b\"");
        assertThat(Dialect.named("h2").quote("Order")).isEqualTo("\"Order\"");
        for (Dialect d : Dialect.all()) assertThat(d.fold(d.quote("x`\"y"))).as(d.name()).isEqualTo("x`\"y");
    }

    @Test
    void unquotedIdentifiersFoldPerDialect() {
        assertThat(Dialect.named("postgresql").fold("Employees")).isEqualTo("employees");
        assertThat(Dialect.named("h2").fold("Employees")).isEqualTo("EMPLOYEES");
        assertThat(Dialect.named("mariadb").fold("Employees")).isEqualTo("Employees");
    }

    @Test
    void onlyH2FoldsToUpperCase() {
        for (Dialect d : Dialect.all()) assertThat(d.foldsToUpper()).as(d.name()).isEqualTo(d.name().equals("h2"));
    }

    @Test
    void quotedIdentifiersKeepTheirCaseWithoutQuotes() {
        for (Dialect d : Dialect.all()) {
            assertThat(d.fold("\"Order\"")).as(d.name()).isEqualTo("Order");
            assertThat(d.fold("`Order`")).as(d.name()).isEqualTo("Order");
            assertThat(d.fold("\"a\"\"b\"")).as(d.name()).isEqualTo("a\"b");
            assertThat(d.fold("`a``b`")).as(d.name()).isEqualTo("a`b");
            assertThat(d.fold("Order", true)).as(d.name()).isEqualTo("Order");
        }
    }

    @Test
    void postgresqlFoldsOnlyAsciiLetters() {
        assertThat(Dialect.named("postgresql").fold("ÄBC_1")).isEqualTo("Äbc_1");
        assertThat(Dialect.named("h2").fold("äbc")).isEqualTo("ÄBC");
    }

    @Test
    void aPartNoDatabaseHasIsRefusedByName() {
        assertThatThrownBy(() -> Dialect.named("h2").part(Runnable.class)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("h2").hasMessageContaining("java.lang.Runnable");
    }

    @Test
    void everyDatabaseIsRegisteredOnceUnderItsSubprotocols() {
        assertThat(Dialect.all()).extracting(Dialect::name).containsExactlyInAnyOrder("postgresql", "mariadb", "mysql", "h2");
        assertThat(Dialect.ofUrl("jdbc:mariadb://h/db")).containsSame(Dialect.named("mariadb"));
    }

    @Test
    void stringLiteralsAreReadBackAsTheirText() {
        assertThat(Dialect.named("postgresql").stringLiteral("it's a\\b")).isEqualTo("'it''s a\\b'");
        assertThat(Dialect.named("mariadb").stringLiteral("it's a\\b")).isEqualTo("'it''s a\\\\b'");
        assertThat(Dialect.named("h2").stringLiteral("x")).isEqualTo("'x'");
    }
}
