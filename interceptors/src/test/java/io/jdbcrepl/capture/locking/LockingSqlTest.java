package io.jdbcrepl.capture.locking;

import io.jdbcrepl.sql.SqlSyntax;
import io.jdbcrepl.dialect.Dialect;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Each dialect's capture parts: what locking capture follows per database and connector. */
class LockingSqlTest {

    @Test
    void everyDialectReadsSqlItsWay() {
        for (Dialect d : Dialect.all()) assertThat(d.part(SqlSyntax.class)).as(d.name()).isNotNull();
        assertThat(Dialect.named("mysql").part(SqlSyntax.class).backslashEscapes()).isTrue();
        assertThat(Dialect.named("mariadb").part(SqlSyntax.class).backslashEscapes()).isTrue();
        assertThat(Dialect.named("postgresql").part(SqlSyntax.class).escapeStrings()).isTrue();
        assertThat(Dialect.named("h2").part(SqlSyntax.class).deltaTables()).isTrue();
    }

    @Test
    void theConnectorDecidesHowResultKindsAreAnswered() {
        // jdbc:mysql: is MySQL Connector/J, jdbc:mariadb: MariaDB's: the same SQL, other answers
        assertThat(Dialect.named("mysql").part(LockingSql.class).capabilities().strictResultKinds()).isTrue();
        assertThat(Dialect.named("mariadb").part(LockingSql.class).capabilities().strictResultKinds()).isFalse();
        assertThat(Dialect.named("h2").part(LockingSql.class).capabilities().strictResultKinds()).isFalse();
        assertThat(Dialect.named("mariadb").part(LockingSql.class).returning()).isTrue();
        assertThat(Dialect.named("h2").part(LockingSql.class).returning()).isFalse();
    }

    @Test
    void postgresqlCapturesWithoutLockingReads() {
        assertThatThrownBy(() -> Dialect.named("postgresql").part(LockingSql.class))
                .isInstanceOf(IllegalStateException.class);
    }
}
