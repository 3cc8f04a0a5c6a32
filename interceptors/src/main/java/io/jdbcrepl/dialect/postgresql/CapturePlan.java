package io.jdbcrepl.dialect.postgresql;

/**
 * A statement rewritten to capture its changes.
 *
 * @param sql            the SQL to prepare in place of the application's; its parameters are the
 *                       application's, in the same order
 * @param result         what executing it returns
 * @param parameterCount the number of parameters (the application's)
 * @param retriesOnConcurrentInsert an upsert: run it again when it fails with
 *                       {@link PostgresCapture#CONCURRENT_INSERT} in its message
 */
public record CapturePlan(String sql, Result result, int parameterCount, boolean retriesOnConcurrentInsert) {

    public enum Result {
        /** An update count: the number of rows changed (one LCR each). */
        UPDATE_COUNT,
        /** The application's RETURNING rows. */
        ROWS
    }
}
