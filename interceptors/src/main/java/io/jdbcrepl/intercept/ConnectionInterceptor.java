package io.jdbcrepl.intercept;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Savepoint;

/**
 * Sees, and may change, the JDBC calls of one connection. The driver creates one per connection,
 * so implementations may keep per-transaction state; like the connection, it is used by one
 * thread at a time. Every method has a pass-through default.
 */
public interface ConnectionInterceptor {

    /**
     * A statement the application prepares ({@code prepareStatement}, {@code prepareCall}) or
     * executes on a plain {@code Statement}. Called once per prepared statement, at prepare time,
     * and once per execution of plain SQL. Returns {@code null} to leave the statement entirely to
     * the real driver: the common case, and the fast path.
     */
    default StatementInterceptor onStatement(String sql, StatementKind kind) throws SQLException {
        return null;
    }

    /**
     * The SQL a plain statement's {@code addBatch(sql)} hands to the real driver: the application's,
     * or a rewrite; an exception refuses the entry before anything runs.
     */
    default String batchSql(String sql) throws SQLException {
        return sql;
    }

    /**
     * A statement is created or prepared with this result set concurrency; an exception refuses it
     * (changes made through an updatable result set are not statements an interceptor sees).
     */
    default void checkConcurrency(int resultSetConcurrency) throws SQLException {
    }

    /** Around a plain statement's batch ({@code addBatch(String)} entries). */
    default long[] executeBatch(SqlBatch batch) throws SQLException {
        return batch.proceed();
    }

    /**
     * Before the real driver commits: explicit {@code commit()}, and {@code setAutoCommit(true)}
     * on a connection that was in a transaction. Work done here on {@code connection} is part of
     * the committing transaction; an exception aborts the commit and reaches the application.
     */
    default void beforeCommit(Connection connection) throws SQLException {
    }

    /** After the real driver committed. */
    default void afterCommit() {
    }

    /** After the real driver rolled the whole transaction back. */
    default void afterRollback() {
    }

    /** After the real driver set a savepoint; {@code savepoint} is the real driver's object. */
    default void afterSetSavepoint(Savepoint savepoint) {
    }

    /** After the real driver rolled back to a savepoint. */
    default void afterRollbackToSavepoint(Savepoint savepoint) {
    }

    /** After the real driver released a savepoint. */
    default void afterReleaseSavepoint(Savepoint savepoint) {
    }

    /** After the auto-commit mode changed (never called when it stays the same). */
    default void afterAutoCommitChange(boolean autoCommit) {
    }

    /**
     * What {@code unwrap(iface)} hands out in place of the real connection, or null for the real one:
     * a view of a vendor interface that keeps the interceptor in the way (PostgreSQL's copy API).
     * {@code application} is the application's connection (the proxy).
     */
    default Object unwrap(Class<?> iface, Connection application) throws SQLException {
        return null;
    }

    /** After the connection was closed (also when closing failed). */
    default void afterClose() {
    }
}
