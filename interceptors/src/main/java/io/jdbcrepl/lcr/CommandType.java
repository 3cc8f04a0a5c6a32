package io.jdbcrepl.lcr;

/**
 * The LCR's command type: a row change, or {@code DDL} (SPEC 8.3), a statement on a table
 * (CREATE/ALTER/DROP/RENAME TABLE, indexes, TRUNCATE) whose text is in the new values
 * ({@link DdlImage}).
 */
public enum CommandType {
    INSERT, UPDATE, DELETE, DDL
}
