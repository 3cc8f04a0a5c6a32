/**
 * The row LCR (logical change record, Oracle's {@code LCR$_ROW_RECORD}) and its typed values, with
 * the JSON form they take in {@code repl_log}. Values round-trip losslessly between PostgreSQL,
 * MariaDB/MySQL and H2 for the common SQL types.
 */
package io.jdbcrepl.lcr;
