package io.jdbcrepl.apply;

import io.jdbcrepl.log.ChangeLogSchema;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * How a database holds the lock that keeps one applier per (source, destination) across JVMs
 * (SPEC 4.3): a lock the database frees when its holder's session dies. A session lock where the
 * database has one ({@link ApplierLock#sessionLock}), else a row lock held by a transaction.
 */
public interface ApplierLocks {

    /**
     * Takes the lock {@code name} without waiting, on {@code local} (the applier's connection,
     * autocommit off) or on a connection of its own from {@code connections}; returns what frees
     * it, or null when another applier holds it.
     */
    Held tryAcquire(String name, Connection local, ApplierLock.ConnectionFactory connections, ChangeLogSchema log)
            throws SQLException;

    /**
     * Whether some session, in any process, holds the lock {@code name} now: read from the database
     * without taking it where it can say so, else by trying it for an instant and letting go at once.
     * {@code local} is a connection of the caller's own (autocommit as it likes; left as found).
     */
    boolean held(String name, Connection local, ChangeLogSchema log) throws SQLException;

    /** A lock taken. */
    interface Held {
        /** Frees it; a connection gone meanwhile has freed it already. */
        void release();
    }
}
