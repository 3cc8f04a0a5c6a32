/**
 * The driver's tables in the node's own database ({@code repl.schema}): how SQL names them, their
 * definitions per dialect, the versioned installer that creates and upgrades them, the grants of
 * least privilege on them, and the signature of the change log's rows.
 */
package io.jdbcrepl.log;
