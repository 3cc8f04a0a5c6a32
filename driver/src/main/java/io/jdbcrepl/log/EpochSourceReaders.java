package io.jdbcrepl.log;

import io.jdbcrepl.config.LogSignature;
import io.jdbcrepl.dialect.Dialect;

import io.jdbcrepl.intercept.SqlState;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * Reading a log in the order of the epochs capture stamps in {@code repl_tx} ({@link EpochSourceReader}),
 * for a database that tells no commit order otherwise (MariaDB/MySQL, H2). What differs between
 * them, closing an epoch and paging, is left to each database's subclass.
 */
public abstract class EpochSourceReaders implements SourceReaders {

    @Override
    public SourceReader open(Connection source, Dialect dialect, ChangeLogSchema log, int page, LogSignature signature)
            throws SQLException {
        return new EpochSourceReader(source, this, log, page, signature);
    }

    @Override
    public Position initial() {
        return Position.initial(false);
    }

    /** Sets up a reader's connection, in auto-commit already: nothing unless a database needs it. */
    protected void prepare(Connection source) throws SQLException {
    }

    /**
     * Closes the current epoch of {@code epochTable} ({@code UPDATE ... SET epoch = epoch + 1 WHERE id = 1}),
     * in one auto-committed statement, and returns the new epoch as this statement set it (never a
     * later consumer's); 0 when the table has no row with id 1.
     */
    protected abstract long closeEpoch(Statement s, String epochTable) throws SQLException;

    /**
     * Closes the current epoch on {@code other} without committing: that waits for every commit
     * stamped with it, and holds back every new stamp until {@code other} commits. The snapshot
     * {@code donor} takes meanwhile holds every transaction of the closed epoch and below and none
     * of a later one.
     */
    @Override
    public Position beginSnapshot(Connection donor, Connection other, ChangeLogSchema log) throws SQLException {
        boolean autoCommit = other.getAutoCommit();
        other.setAutoCommit(false);
        try (Statement s = other.createStatement()) {
            long next = closeEpoch(s, log.table("repl_epoch"));
            if (next == 0) {
                throw SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE.exception("repl_epoch has no row with id 1 in "
                        + log.table("repl_epoch"));
            }
            startSnapshot(donor, log);
            return Position.Epoch.through(next - 1);
        } finally {
            other.commit();
            other.setAutoCommit(autoCommit);
        }
    }

    /** Begins on {@code donor} (in auto-commit) a transaction whose snapshot is taken now, and leaves it open. */
    protected abstract void startSnapshot(Connection donor, ChangeLogSchema log) throws SQLException;

    /** The clause after an ordered query that keeps its first {@code rows} rows. */
    protected abstract String firstRows(int rows);

    @Override
    public long purge(Connection local, ChangeLogSchema log, List<Position> active) throws SQLException {
        Position.Epoch min = active.isEmpty() ? new Position.Epoch(Long.MAX_VALUE, 0, "") : null;
        for (Position p : active) {
            if (!(p instanceof Position.Epoch e)) return 0;
            if (min == null || Position.Epoch.compare(e, min) < 0) min = e;
        }
        String consumed = "NOT " + EpochSourceReader.after();
        String txTable = log.table("repl_tx");
        boolean autoCommit = local.getAutoCommit();
        local.setAutoCommit(false);
        try (PreparedStatement logs = local.prepareStatement("DELETE FROM " + log.table("repl_log")
                + " WHERE tx_id IN (SELECT tx_id FROM " + txTable + " WHERE " + consumed + ")");
                PreparedStatement txs = local.prepareStatement("DELETE FROM " + txTable + " WHERE " + consumed)) {
            EpochSourceReader.bindAfter(logs, 0, min);
            EpochSourceReader.bindAfter(txs, 0, min);
            long n = logs.executeUpdate();
            txs.executeUpdate();
            local.commit();
            return n;
        } catch (SQLException e) {
            local.rollback();
            throw e;
        } finally {
            local.setAutoCommit(autoCommit);
        }
    }
}
