package io.jdbcrepl.capture.locking;

/**
 * What a database and its connector do that the executors of locking capture (MariaDB/MySQL, H2)
 * must follow, so that they ask what the database does, not which database it is; one per
 * database, from its {@link LockingSql}.
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
 * @param strictResultKinds the connector (MySQL Connector/J) refuses {@code executeQuery} of a
 *        statement that returns no rows before running it, and answers {@code executeUpdate} of one
 *        that returns rows with their count (-1 for one row) rather than failing
 * @param insertIdKeys generated keys come as the connector shapes them for the MySQL family (MariaDB
 *        Connector/J): one row {@code insert_id} (BIGINT UNSIGNED) per execution with its first
 *        auto-increment value; else (H2) the requested columns, or the identity and key columns, per row
 * @param temporalsAsText a time or timestamp the driver binds (a key) goes as text, every fractional
 *        digit kept (the MySQL family: MySQL Connector/J talking to MariaDB drops the microseconds)
 */
public record LockingCapabilities(boolean textTransactions, boolean streamsResults, boolean keepsFailedChanges,
        boolean sessionZoneTimestamps, boolean deltaTableRowLimit, boolean failedBatchKeepsKeys,
        boolean strictResultKinds, boolean insertIdKeys, boolean temporalsAsText) {
}
