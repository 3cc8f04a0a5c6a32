package io.jdbcrepl.intercept;

/** How the application handed SQL to the driver. */
public enum StatementKind {
    /** {@code Statement.execute*(sql)} and {@code addBatch(sql)}. */
    PLAIN,
    /** {@code Connection.prepareStatement(sql…)}. */
    PREPARED,
    /** {@code Connection.prepareCall(sql…)}. */
    CALLABLE
}
