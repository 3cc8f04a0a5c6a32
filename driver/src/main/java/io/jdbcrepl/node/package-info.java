/**
 * A node: the state one {@code repl.node} shares across its connections in a JVM (configuration,
 * table metadata, what other packages attach to it), and how it reads its tables' metadata from the
 * database. Capture itself is in {@code capture.session} and {@code capture.locking}.
 */
package io.jdbcrepl.node;
