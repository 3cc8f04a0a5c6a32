/**
 * Capture plans for MariaDB/MySQL and H2, where no single statement can lock, change and log rows:
 * locking reads restricted to the captured keys, {@code RETURNING} (MariaDB) and data change delta
 * tables (H2). Pure SQL text generation here; the driver module's half of this package executes the
 * plans ({@code LockingStatementCapture} and its executors, the transaction's log rows). What differs
 * per database is the dialect's {@link io.jdbcrepl.capture.locking.LockingSql} part.
 */
package io.jdbcrepl.capture.locking;
