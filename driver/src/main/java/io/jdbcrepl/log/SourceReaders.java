package io.jdbcrepl.log;

import io.jdbcrepl.config.LogSignature;
import io.jdbcrepl.dialect.Dialect;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

/**
 * How a database's log is read in commit order (SPEC 4.1), which differs per database: PostgreSQL
 * reads it by transaction-id snapshots, the others by the epochs capture stamps
 * ({@link EpochSourceReaders}). With it go the positions such a reader stores and the purge of a
 * node's own log that those positions allow (SPEC 4.5).
 */
public interface SourceReaders {

    /**
     * A reader of the log {@code log} on {@code source}, a connection of its own that the reader now
     * owns; {@code page}: transactions per batch, where the reader pages; {@code signature}:
     * repl.log.key's verifier, or null.
     */
    SourceReader open(Connection source, Dialect dialect, ChangeLogSchema log, int page, LogSignature signature)
            throws SQLException;

    /** The position of a consumer that has read nothing yet. */
    Position initial();

    /**
     * Begins on {@code donor} a read-only transaction whose snapshot holds exactly the captured
     * transactions that a consumer at the returned position has consumed, so that a copy read in it
     * and the log read from that position hold every change once (SPEC 8.1). {@code other}, a second
     * connection to the same database, may be used meanwhile (epochs: to hold the epoch while the
     * snapshot starts) and is left as it was given. The transaction stays open until the caller ends it.
     */
    Position beginSnapshot(Connection donor, Connection other, ChangeLogSchema log) throws SQLException;

    /**
     * Deletes from this node's log, on {@code local} (autocommit on), the LCRs that every one of
     * {@code active}, the positions of the subscribers, has consumed: all committed ones when there is
     * none. Returns the LCRs deleted.
     */
    long purge(Connection local, ChangeLogSchema log, List<Position> active) throws SQLException;
}
