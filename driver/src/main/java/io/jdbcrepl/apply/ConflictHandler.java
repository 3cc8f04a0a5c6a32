package io.jdbcrepl.apply;

import io.jdbcrepl.api.Conflict;
import io.jdbcrepl.conflict.Resolution.ConflictHistory;
import io.jdbcrepl.lcr.RowLcr;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

/**
 * The seam where conflict resolution plugs in (SPEC 5.2 to 5.4): called for each conflict with the
 * LCR and the local connection, inside the LCR's savepoint. {@link PrebuiltHandlers} is the
 * implementation.
 */
interface ConflictHandler {

    /**
     * Resolves the conflict (it may change rows on {@code local}); returns null when resolved, else
     * the failure that sends the whole source transaction to the error queue.
     */
    ApplyFailure resolve(Conflict conflict, RowLcr lcr, TableMap.LocalTable table, long number, Connection local)
            throws SQLException;

    /** An unresolved conflict that a custom handler then took over: its history is written now. */
    default void recordUnresolved(Connection local, ApplyFailure unresolved) throws SQLException {
    }

    /**
     * Until {@link #writeDeferred} or {@link #dropDeferred}, the resolutions' statements and the
     * history of resolved conflicts are kept back, to be run as JDBC batches (the conflicts of one
     * JDBC batch of the fast mode, on distinct rows).
     */
    default void deferHistory() {
    }

    /** Runs what was kept back since {@link #deferHistory()}, in the local transaction. */
    default void writeDeferred(Connection local) throws SQLException {
    }

    /** Forgets the history kept back (its statements are being rolled back). */
    default void dropDeferred() {
    }

    /** Starts a run of one source transaction: forgets the conflicts met before. */
    void begin();

    /**
     * The repl_conflict rows of every conflict met since {@link #begin()}, resolved or not: when
     * the transaction fails they are rolled back with it and written again with its error queue
     * entry (SPEC 5.5: the history keeps every detected conflict).
     */
    List<ConflictHistory> met();
}
