package io.jdbcrepl.intercept;

/** Which {@code execute} method the application called; it decides the result's type. */
public enum ExecuteMethod {
    /** {@code execute}: a {@code Boolean}, true when the first result is a result set. */
    EXECUTE,
    /** {@code executeQuery}: a {@code ResultSet}. */
    EXECUTE_QUERY,
    /** {@code executeUpdate}: an {@code Integer}. */
    EXECUTE_UPDATE,
    /** {@code executeLargeUpdate}: a {@code Long}. */
    EXECUTE_LARGE_UPDATE
}
