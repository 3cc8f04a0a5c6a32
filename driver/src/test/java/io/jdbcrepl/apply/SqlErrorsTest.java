package io.jdbcrepl.apply;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.SQLException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** SPEC 8.8: which failures pause the applier (retried with backoff) and which queue the transaction. */
class SqlErrorsTest {

    @ParameterizedTest(name = "{0}/{1}: {2}")
    @CsvSource({
        // passing conditions: paused and retried
        "40001, 0, true",     // serialization failure
        "40P01, 0, true",     // PostgreSQL deadlock
        "08006, 0, true",     // connection failure
        "53100, 0, true",     // PostgreSQL disk full
        "53200, 0, true",     // out of memory
        "53300, 0, true",     // too many connections
        "57P01, 0, true",     // admin shutdown
        "57P03, 0, true",     // cannot connect now (recovering)
        "57014, 0, true",     // statement cancelled or timed out
        "25006, 0, true",     // read-only transaction
        "HY000, 1205, true",  // MySQL lock wait timeout
        "40001, 1213, true",  // MySQL deadlock
        "HY000, 1021, true",  // MySQL disk full
        "HY000, 1114, true",  // MySQL table full
        "HY001, 1037, true",  // MySQL out of memory
        "HY000, 1290, true",  // MariaDB --read-only
        "HY000, 1836, true",  // MySQL read-only mode
        "70100, 1969, true",  // MariaDB max_statement_time exceeded
        "HY000, 3024, true",  // MySQL max_execution_time exceeded
        "90097, 90097, true", // H2 read only
        "HYT00, 0, true",     // H2 lock timeout
        // the change itself is wrong here: queued
        "23505, 0, false",    // unique violation
        "23000, 1062, false", // MySQL duplicate key
        "23503, 0, false",    // foreign key
        "42P01, 0, false",    // no such table
        "42S22, 1054, false", // MySQL unknown column
        "22P02, 0, false",    // invalid text representation
        "22001, 1406, false", // data too long
        "HY000, 1366, false", // MySQL incorrect value
        "23514, 0, false",    // check violation
    })
    void transientOrPermanent(String state, int code, boolean passes) {
        assertThat(SqlErrors.transientError(new SQLException("x", state, code))).isEqualTo(passes);
        // the same, wrapped as a cause
        assertThat(SqlErrors.transientError(new SQLException("wrapper", "HY000", new SQLException("x", state, code))))
                .isEqualTo(passes);
    }
}
