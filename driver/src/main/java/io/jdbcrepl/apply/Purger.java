package io.jdbcrepl.apply;

import io.jdbcrepl.dialect.Dialect;
import io.jdbcrepl.logging.DriverLog;
import io.jdbcrepl.node.Node;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * The purge of a node's own {@code repl_log} (SPEC 4.5): LCRs every registered subscriber and every
 * peer named in {@code repl.peers} has consumed are deleted; a peer named but not subscribed yet
 * blocks the purge, so that it still gets everything from the oldest LCR kept. A subscriber silent
 * for longer than {@code repl.retention} is dropped with an error in the log. The conflict history
 * {@code repl_conflict} keeps its rows for {@code repl.retention} too (SPEC 8.8).
 */
final class Purger {

    private static final DriverLog LOG = DriverLog.of(Purger.class);

    private Purger() {
    }

    /** Rows of {@code repl_conflict} deleted per statement: a long history goes without one long lock. */
    static final int CONFLICT_CHUNK = 1000;

    /**
     * Purges on {@code local} (this node's database, autocommit on): the log, then the conflict
     * history older than {@code repl.retention}; returns the LCRs deleted.
     */
    static long purge(Node node, Connection local) throws SQLException {
        long lcrs = purgeLog(node, local);
        purgeConflicts(node, local);
        return lcrs;
    }

    private static long purgeLog(Node node, Connection local) throws SQLException {
        Subscribers subscribers = new Subscribers(node.dialect(), node.changeLog());
        Duration retention = node.config().retention();
        List<Subscribers.Subscriber> all = subscribers.list(local);
        List<Position> active = new ArrayList<>();
        Set<String> known = new TreeSet<>(String.CASE_INSENSITIVE_ORDER);
        for (Subscribers.Subscriber s : all) {
            known.add(s.name());
            if (s.droppedAt() != null) continue;
            if (s.silence().compareTo(retention) > 0) {
                subscribers.drop(local, s.name());
                LOG.error("jdbc:repl: subscriber " + s.name() + " of " + node.name() + " has been silent since "
                        + s.updatedAt() + ", longer than repl.retention=" + retention + ": dropped; its changes from "
                        + node.name() + " are no longer kept for it", null);
                continue;
            }
            active.add(s.position());
        }
        for (String peer : node.config().peers()) {
            if (!known.contains(peer)) return 0; // not subscribed yet: keep everything for it
        }
        if (active.isEmpty() && known.isEmpty()) return 0; // nobody ever consumed this log: keep it
        // With every subscriber dropped nothing is kept for anyone: everything committed goes.
        return node.dialect().kind() == Dialect.Kind.POSTGRESQL ? purgeSnapshots(node, local, active) : purgeEpochs(node, local, active);
    }

    /**
     * Deletes the conflicts older than {@code repl.retention} by the server's clock (which wrote
     * {@code conflict_time}), in ranges of {@link #CONFLICT_CHUNK} ids from the oldest, each its own
     * statement, read by the primary key: ids grow with time, so the first range that keeps a row
     * has reached the recent history and ends the purge. Returns the rows deleted.
     */
    static long purgeConflicts(Node node, Connection local) throws SQLException {
        String table = node.changeLog().table("repl_conflict");
        double seconds = node.config().retention().toMillis() / 1000.0;
        long deleted = 0;
        try (PreparedStatement first = local.prepareStatement("SELECT MIN(id) FROM " + table + " WHERE id >= ?");
                PreparedStatement delete = local.prepareStatement("DELETE FROM " + table + " WHERE id >= ? AND id < ?"
                        + " AND " + node.changeLog().secondsSince("conflict_time") + " > ?");
                PreparedStatement kept = local.prepareStatement("SELECT COUNT(*) FROM " + table + " WHERE id >= ? AND id < ?")) {
            long from = Long.MIN_VALUE;
            while (true) {
                first.setLong(1, from);
                try (java.sql.ResultSet rs = first.executeQuery()) {
                    rs.next();
                    from = rs.getLong(1);
                    if (rs.wasNull()) return deleted;
                }
                long to = from + CONFLICT_CHUNK;
                delete.setLong(1, from);
                delete.setLong(2, to);
                delete.setDouble(3, seconds);
                deleted += delete.executeUpdate();
                if (!local.getAutoCommit()) local.commit();
                kept.setLong(1, from);
                kept.setLong(2, to);
                try (java.sql.ResultSet rs = kept.executeQuery()) {
                    rs.next();
                    if (rs.getLong(1) > 0) return deleted;
                }
                from = to;
            }
        }
    }

    private static long purgeSnapshots(Node node, Connection local, List<Position> active) throws SQLException {
        Long horizon = active.isEmpty() ? currentXmin(local) : null;
        for (Position p : active) {
            if (!(p instanceof Position.Snapshot s) || s.low() == null) return 0;
            long xmin = xmin(s.low());
            horizon = horizon == null ? xmin : Math.min(horizon, xmin);
        }
        // Every transaction below the xmin of a consumer's S1 is visible in S1: consumed. The lower
        // bound says nothing but makes the range two-sided, which the planner reads by index even
        // on a log never analysed (see PgSourceReader.batch), not by a scan every ten seconds.
        try (PreparedStatement ps = local.prepareStatement("DELETE FROM " + node.changeLog().table("repl_log")
                + " WHERE tx_id >= '0'::xid8 AND tx_id < ?::xid8")) {
            ps.setString(1, Long.toString(horizon));
            return ps.executeUpdate();
        }
    }

    private static long currentXmin(Connection local) throws SQLException {
        try (PreparedStatement ps = local.prepareStatement("SELECT pg_snapshot_xmin(pg_current_snapshot())::text");
                java.sql.ResultSet rs = ps.executeQuery()) {
            rs.next();
            return Long.parseLong(rs.getString(1));
        }
    }

    /** The xmin of a snapshot's text form {@code xmin:xmax:xip,...}. */
    static long xmin(String snapshot) {
        return Long.parseLong(snapshot.substring(0, snapshot.indexOf(':')));
    }

    private static long purgeEpochs(Node node, Connection local, List<Position> active) throws SQLException {
        Position.Epoch min = active.isEmpty() ? new Position.Epoch(Long.MAX_VALUE, 0, "") : null;
        for (Position p : active) {
            if (!(p instanceof Position.Epoch e)) return 0;
            if (min == null || compare(e, min) < 0) min = e;
        }
        String consumed = "NOT " + EpochSourceReader.after();
        String txTable = node.changeLog().table("repl_tx");
        boolean autoCommit = local.getAutoCommit();
        local.setAutoCommit(false);
        try (PreparedStatement logs = local.prepareStatement("DELETE FROM " + node.changeLog().table("repl_log")
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

    static int compare(Position.Epoch a, Position.Epoch b) {
        int c = Long.compare(a.epoch(), b.epoch());
        if (c == 0) c = Long.compare(a.lastPosition(), b.lastPosition());
        return c != 0 ? c : a.txId().compareTo(b.txId());
    }

}
