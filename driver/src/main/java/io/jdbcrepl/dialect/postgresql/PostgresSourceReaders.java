package io.jdbcrepl.dialect.postgresql;

import io.jdbcrepl.config.LogSignature;
import io.jdbcrepl.dialect.Dialect;
import io.jdbcrepl.log.ChangeLogSchema;
import io.jdbcrepl.log.Position;
import io.jdbcrepl.log.SourceReader;
import io.jdbcrepl.log.SourceReaders;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;

/** PostgreSQL's log is read by transaction-id snapshots ({@link PgSourceReader}); positions are snapshots. */
final class PostgresSourceReaders implements SourceReaders {

    @Override
    public SourceReader open(Connection source, Dialect dialect, ChangeLogSchema log, int page, LogSignature signature)
            throws SQLException {
        return new PgSourceReader(source, log, signature);
    }

    @Override
    public Position initial() {
        return Position.initial(true);
    }

    /** The snapshot of a REPEATABLE READ transaction is its first statement's: the position's S1 is that one. */
    @Override
    public Position beginSnapshot(Connection donor, Connection other, ChangeLogSchema log) throws SQLException {
        donor.setAutoCommit(false);
        donor.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
        donor.setReadOnly(true);
        try (PreparedStatement ps = donor.prepareStatement("SELECT pg_current_snapshot()::text"); ResultSet rs = ps.executeQuery()) {
            rs.next();
            return new Position.Snapshot(rs.getString(1), null, 0, null);
        }
    }

    @Override
    public long purge(Connection local, ChangeLogSchema log, List<Position> active) throws SQLException {
        Long horizon = active.isEmpty() ? currentXmin(local) : null;
        for (Position p : active) {
            if (!(p instanceof Position.Snapshot s) || s.low() == null) return 0;
            long xmin = xmin(s.low());
            horizon = horizon == null ? xmin : Math.min(horizon, xmin);
        }
        // Every transaction below the xmin of a consumer's S1 is visible in S1: consumed. The lower
        // bound says nothing but makes the range two-sided, which the planner reads by index even
        // on a log never analysed (see PgSourceReader.batch), not by a scan every ten seconds.
        try (PreparedStatement ps = local.prepareStatement("DELETE FROM " + log.table("repl_log")
                + " WHERE tx_id >= '0'::xid8 AND tx_id < ?::xid8")) {
            ps.setString(1, Long.toString(horizon));
            return ps.executeUpdate();
        }
    }

    private static long currentXmin(Connection local) throws SQLException {
        try (PreparedStatement ps = local.prepareStatement("SELECT pg_snapshot_xmin(pg_current_snapshot())::text");
                ResultSet rs = ps.executeQuery()) {
            rs.next();
            return Long.parseLong(rs.getString(1));
        }
    }

    /** The xmin of a snapshot's text form {@code xmin:xmax:xip,...}. */
    static long xmin(String snapshot) {
        return Long.parseLong(snapshot.substring(0, snapshot.indexOf(':')));
    }
}
