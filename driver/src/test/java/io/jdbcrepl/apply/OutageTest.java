package io.jdbcrepl.apply;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.BatchUpdateException;
import java.sql.SQLException;
import org.junit.jupiter.api.Test;

class OutageTest {

    @Test
    void aPassingErrorIsSaidWithItsMessage() {
        SQLException refused = new SQLException("Connection to 127.0.0.1:5432 refused", "08001");
        assertThat(Outage.valueFree(refused)).contains("Connection to 127.0.0.1:5432 refused");
    }

    @Test
    void anyOtherErrorIsSaidWithoutTheValuesItsMessageMayQuote() {
        SQLException unique = new SQLException("ERROR: duplicate key\n  Detail: Key (email)=(secret-7f3a) already exists.",
                "23505", 0);
        assertThat(Outage.valueFree(unique)).doesNotContain("secret-7f3a").contains("23505", "DEBUG");
        BatchUpdateException batch = new BatchUpdateException("Batch entry 4 INSERT INTO t VALUES ('secret-7f3a') was aborted",
                "22P02", 0, new int[0], null);
        assertThat(Outage.valueFree(batch)).doesNotContain("secret-7f3a").contains("BatchUpdateException", "22P02");
        assertThat(Outage.valueFree(new IllegalArgumentException("For input string: secret-7f3a")))
                .doesNotContain("secret-7f3a").contains("IllegalArgumentException");
    }
}
