/**
 * Schema migration tools find the driver for a {@code jdbc:repl:} URL (SPEC 8.3): a Flyway database
 * type ({@link ReplFlywayDatabaseType}) and a Liquibase database ({@link ReplLiquibaseDatabase}) that
 * name {@link io.jdbcrepl.ReplDriver} for it. Both only choose the driver: the connection reports its
 * vendor's product name, so each tool handles it with its own support for that vendor. Only the tools'
 * ServiceLoaders load these classes; the driver itself never references them, so it needs neither tool.
 */
package io.jdbcrepl.migration;
