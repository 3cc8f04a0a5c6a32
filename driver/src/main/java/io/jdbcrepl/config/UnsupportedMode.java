package io.jdbcrepl.config;

/** {@code repl.unsupported}: what a DML statement that cannot be captured, and a CALL or DO, gets. */
public enum UnsupportedMode {
    /** Fail before it runs, SQLState 0AR01. */
    ERROR,
    /** Run it uncaptured and log a warning. */
    PASSTHROUGH
}
