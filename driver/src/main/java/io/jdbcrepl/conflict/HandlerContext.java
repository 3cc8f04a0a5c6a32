package io.jdbcrepl.conflict;

import io.jdbcrepl.api.Conflict;
import io.jdbcrepl.api.ConflictException;
import io.jdbcrepl.api.DmlContext;
import io.jdbcrepl.lcr.RowLcr;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Objects;

/**
 * The apply side's {@link DmlContext}: it supplies the LCR, the conflict, the connection and how
 * to execute the LCR ({@link Executor}); after {@code handle} returns, {@link #outcome()} says
 * what the handler did.
 */
public final class HandlerContext implements DmlContext {

    /** The apply side's way of applying an LCR; it returns the conflict it met and resolved, if any. */
    @FunctionalInterface
    public interface Executor {
        /**
         * Applies the LCR now, running the prebuilt handlers on a conflict when asked.
         *
         * @return the conflict met (resolved), or null when it applied cleanly
         * @throws ConflictException when a conflict was not resolved
         */
        Conflict execute(RowLcr lcr, boolean conflictResolution) throws SQLException;
    }

    /** What the handler did with the LCR. */
    public enum Outcome {
        /** It executed the LCR (the last call succeeded). */
        EXECUTED,
        /** It called {@link #discard()}, or returned without executing: the LCR is dropped. */
        DISCARDED
    }

    private final RowLcr lcr;
    private final Connection connection;
    private final Executor executor;
    private final SQLException error;
    private Conflict conflict;
    private Outcome outcome = Outcome.DISCARDED;

    /** A DML handler's context, or an error handler's for a conflict (no other error). */
    public HandlerContext(RowLcr lcr, Conflict conflict, Connection connection, Executor executor) {
        this(lcr, conflict, null, connection, executor);
    }

    /**
     * @param conflict the conflict that failed the LCR (error handler), or null
     * @param error the error that failed the LCR (error handler), or null (DML handler)
     */
    public HandlerContext(RowLcr lcr, Conflict conflict, SQLException error, Connection connection, Executor executor) {
        this.lcr = Objects.requireNonNull(lcr, "lcr");
        this.conflict = conflict;
        this.error = error;
        this.connection = connection;
        this.executor = Objects.requireNonNull(executor, "executor");
    }

    @Override
    public RowLcr lcr() {
        return lcr;
    }

    @Override
    public Conflict conflict() {
        return conflict;
    }

    @Override
    public SQLException error() {
        return error;
    }

    @Override
    public Connection connection() {
        return connection;
    }

    @Override
    public void execute(boolean conflictResolution) throws SQLException {
        try {
            Conflict met = executor.execute(lcr, conflictResolution);
            if (met != null) {
                conflict = met;
            }
            outcome = Outcome.EXECUTED;
        } catch (ConflictException e) {
            conflict = e.conflict();
            throw e;
        }
    }

    @Override
    public void discard() {
        outcome = Outcome.DISCARDED;
    }

    public Outcome outcome() {
        return outcome;
    }
}
