package io.jdbcrepl.api;

import io.jdbcrepl.lcr.RowLcr;
import java.sql.Connection;
import java.sql.SQLException;

/** What a {@link DmlHandler} sees and may do with one LCR. */
public interface DmlContext {

    /**
     * The LCR (SPEC 3.2: source database, command type, schema and table, transaction id,
     * position, commit time, tag, old and new values, change vector, extra attributes). Its old
     * and new values are mutable: {@link #execute} applies them as they are then.
     */
    RowLcr lcr();

    /**
     * The conflict that made the LCR fail (operation, type, kind, conflicting columns, the
     * destination's current row), for an error handler; null in a handler called before any
     * conflict, until an {@link #execute} in it met one.
     */
    Conflict conflict();

    /**
     * The error that made the LCR fail, for an error handler: a {@link ConflictException}
     * (SQLState 23000) for a conflict the prebuilt handlers did not resolve, else the database's
     * exception (a NOT NULL or check constraint, a missing column...), with its SQLState; null in a
     * DML handler.
     */
    SQLException error();

    /**
     * The destination's connection, in the apply side's transaction: statements run here commit
     * or roll back with the source transaction. Do not commit, roll back or close it.
     */
    Connection connection();

    /**
     * Applies the LCR as it is now (Oracle's {@code lcr.EXECUTE(conflict_resolution)}).
     *
     * @param conflictResolution true: a conflict goes to the table's prebuilt handlers (SPEC 5.3);
     *     false: a conflict is an error right away
     * @throws SQLException when the LCR cannot be applied (a conflict not resolved, a constraint);
     *     let it propagate to send the transaction to the error queue, or catch it and decide
     */
    void execute(boolean conflictResolution) throws SQLException;

    /** Drops the LCR without changing the table; the rest of the transaction is applied. */
    void discard();
}
