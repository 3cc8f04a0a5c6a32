package io.jdbcrepl.intercept;

/** SQLStates the driver itself raises. */
public final class SqlStates {

    /**
     * A statement or feature the driver refuses (a statement it cannot capture, an option it does not
     * support). Class 0A (feature not supported) with an implementation-defined subclass, not the
     * standard {@code 0A000}: HikariCP and other pools treat {@code 0A000} as a broken connection and
     * evict it, while a refusal leaves the connection perfectly usable.
     */
    public static final String REFUSED = "0AR01";

    private SqlStates() {
    }
}
