/**
 * A node: the state one {@code repl.node} shares across its connections in a JVM (configuration,
 * table metadata, capture plans), and how it reads its tables' metadata from the database.
 */
package io.jdbcrepl.node;
