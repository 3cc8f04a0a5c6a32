package io.jdbcrepl.capture.session;

import org.junit.jupiter.api.Test;

import static io.jdbcrepl.capture.session.TransactionControl.Effect.COMMITS;
import static io.jdbcrepl.capture.session.TransactionControl.Effect.NONE;
import static io.jdbcrepl.capture.session.TransactionControl.Effect.ROLLS_BACK;
import static org.assertj.core.api.Assertions.assertThat;

class TransactionControlTest {

    @Test
    void statementsThatEndTheTransaction() {
        assertThat(TransactionControl.of("COMMIT")).isEqualTo(COMMITS);
        assertThat(TransactionControl.of("  commit work")).isEqualTo(COMMITS);
        assertThat(TransactionControl.of("/* x */ create table t (id int)")).isEqualTo(COMMITS);
        assertThat(TransactionControl.of("-- ddl\nALTER TABLE t ADD c int")).isEqualTo(COMMITS);
        assertThat(TransactionControl.of("drop table t")).isEqualTo(COMMITS);
        assertThat(TransactionControl.of("TRUNCATE t")).isEqualTo(COMMITS);
        assertThat(TransactionControl.of("begin")).isEqualTo(COMMITS);
        assertThat(TransactionControl.of("START TRANSACTION")).isEqualTo(COMMITS);
        assertThat(TransactionControl.of("LOCK TABLES t WRITE")).isEqualTo(COMMITS);
        assertThat(TransactionControl.of("rollback")).isEqualTo(ROLLS_BACK);
        assertThat(TransactionControl.of("ROLLBACK WORK")).isEqualTo(ROLLS_BACK);
    }

    @Test
    void statementsThatDoNot() {
        assertThat(TransactionControl.of("ROLLBACK TO SAVEPOINT s")).isEqualTo(NONE);
        assertThat(TransactionControl.of("rollback to s")).isEqualTo(NONE);
        assertThat(TransactionControl.of("select 1")).isEqualTo(NONE);
        assertThat(TransactionControl.of("update t set a = 1")).isEqualTo(NONE);
        assertThat(TransactionControl.of("SAVEPOINT s")).isEqualTo(NONE);
        assertThat(TransactionControl.of("/* create */ select 1")).isEqualTo(NONE);
        assertThat(TransactionControl.of("")).isEqualTo(NONE);
        assertThat(TransactionControl.of("   ")).isEqualTo(NONE);
        assertThat(TransactionControl.of("(select 1)")).isEqualTo(NONE);
    }
}
