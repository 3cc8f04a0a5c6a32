package io.jdbcrepl.node;

import io.jdbcrepl.dialect.Dialect;

/**
 * What a database does that locking capture (MariaDB/MySQL, H2) must follow: one constant per
 * vendor, so that the executors ask what the database does, not which database it is.
 *
 * @param textTransactions a transaction of its own is begun and ended with SQL text (START
 *        TRANSACTION, or a compound statement; COMMIT in one with the last LCRs), not with
 *        setAutoCommit: fewer round trips, and the connection's auto-commit mode never changes
 * @param streamsResults a result read with a fetch size comes as the server sends it rather than
 *        whole, and the connection runs nothing else until it has ended (MariaDB/MySQL; H2's
 *        embedded results can be read while the LCRs are written, and spill to disk in H2 itself)
 * @param keepsFailedChanges a query over a data change delta table ({@code SELECT … FROM
 *        FINAL|OLD TABLE (…)}) that fails keeps the rows it changed before failing, in the open
 *        transaction (H2 2.4: a DELETE of a referenced row deletes the rows before it and the row
 *        itself, then fails); such a statement runs after a savepoint and a failure rolls back to
 *        it, so that it changes nothing, as the same statement without the delta table does
 * @param sessionZoneTimestamps a TIMESTAMP reads as the wall time of the session's time zone
 *        (MariaDB), logged as the instant it holds
 * @param deltaTableRowLimit a delta table's result larger than H2's {@code MAX_MEMORY_ROWS} loses
 *        rows (H2 2.4): such a statement is refused
 * @param failedBatchKeepsKeys after a failed batch entry, the generated keys of the entries that
 *        ran are still there (H2; MariaDB Connector/J has none)
 */
record LockingCapabilities(boolean textTransactions, boolean streamsResults, boolean keepsFailedChanges,
        boolean sessionZoneTimestamps, boolean deltaTableRowLimit, boolean failedBatchKeepsKeys) {

    static final LockingCapabilities MARIADB = new LockingCapabilities(true, true, false, true, false, false);
    static final LockingCapabilities H2 = new LockingCapabilities(false, false, true, false, true, true);

    static LockingCapabilities of(Dialect dialect) {
        return switch (dialect.kind()) {
            case MYSQL -> MARIADB;
            case H2 -> H2;
            case POSTGRESQL -> throw new IllegalArgumentException("PostgreSQL captures without locking reads");
        };
    }
}
