package io.jdbcrepl.log;

import io.jdbcrepl.config.LogSignature;
import io.jdbcrepl.dialect.Dialect;

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

    /** The clause after an ordered query that keeps its first {@code rows} rows. */
    protected abstract String firstRows(int rows);

    @Override
    public long purge(Connection local, ChangeLogSchema log, List<Position> active) throws SQLException {
        Position.Epoch min = active.isEmpty() ? new Position.Epoch(Long.MAX_VALUE, 0, "") : null;
        for (Position p : active) {
            if (!(p instanceof Position.Epoch e)) return 0;
            if (min == null || Purger.compare(e, min) < 0) min = e;
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
