/**
 * The interception points the driver's proxies offer to replication features: statements (once
 * per SQL text, around each execution and batch) and transaction boundaries. Pure interfaces and
 * small value classes, so that capture logic can be tested with stubs, without a database.
 */
package io.jdbcrepl.intercept;
