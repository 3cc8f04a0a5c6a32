package io.jdbcrepl.sql;

/**
 * The parser accepted a statement, but its tokens do not line up with what the analysis expects
 * (a JSqlParser form this package does not know). The statement is then reported as opaque.
 */
final class UnreadableSqlException extends RuntimeException {

    UnreadableSqlException(String what) {
        super(what, null, false, false);
    }
}
