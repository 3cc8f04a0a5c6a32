package io.jdbcrepl.intercept;

import java.sql.SQLException;

/**
 * Takes over one statement: planned once (per prepared statement, at prepare time), then called
 * around each of its executions.
 */
public interface StatementInterceptor {

    /**
     * The SQL the real driver prepares in place of the application's (prepared and callable
     * statements only). A rewrite must keep the application's parameters in their order, since
     * the application's setters are forwarded to the real statement as they are.
     */
    default String preparedSql(String applicationSql) {
        return applicationSql;
    }

    /** Whether executions need the bound parameters ({@link Execution#parameters()}). */
    default boolean needsParameters() {
        return false;
    }

    /**
     * Around one execution. Return what {@link Execution#proceed()} would return for the same
     * method: a {@code Boolean}, a {@code ResultSet}, an {@code Integer} or a {@code Long}.
     */
    Object execute(Execution execution) throws SQLException;

    /** Around {@code executeBatch}/{@code executeLargeBatch} of a prepared statement. */
    default long[] executeBatch(PreparedBatch batch) throws SQLException {
        return batch.proceed();
    }
}
