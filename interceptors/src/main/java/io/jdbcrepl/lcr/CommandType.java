package io.jdbcrepl.lcr;

/** The row LCR's command type. */
public enum CommandType {
    INSERT, UPDATE, DELETE
}
