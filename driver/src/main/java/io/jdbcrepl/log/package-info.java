/** The change log ({@code repl_log}) in the node's own database: its tables, per dialect. */
package io.jdbcrepl.log;
