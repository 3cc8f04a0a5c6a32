package io.jdbcrepl.intercept;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

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

    /**
     * Prepares the real statement (prepared and callable statements). The default prepares
     * {@link #preparedSql} with the application's options; an interceptor may choose others, such
     * as a scrollable result for generated keys it serves itself.
     */
    default PreparedStatement prepare(PrepareRequest request) throws SQLException {
        return request.prepare(preparedSql(request.sql()));
    }

    /** What {@code getResultSet()} returns after an execution this interceptor ran. */
    default ResultSet resultSet(Statement statement) throws SQLException {
        return statement.getResultSet();
    }

    /** What {@code getGeneratedKeys()} returns after an execution this interceptor ran. */
    default ResultSet generatedKeys(Statement statement) throws SQLException {
        return statement.getGeneratedKeys();
    }

    /**
     * What {@code getUpdateCount()} answers after an execution this interceptor ran itself (as
     * {@code execute()} returning false), or {@link #ASK_THE_STATEMENT}.
     */
    default long updateCount() {
        return ASK_THE_STATEMENT;
    }

    /** {@code getMoreResults()} moved past the interceptor's own result. */
    default void moreResults() {
    }

    /** {@link #updateCount()}'s answer when the real statement knows. */
    long ASK_THE_STATEMENT = -2;

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
