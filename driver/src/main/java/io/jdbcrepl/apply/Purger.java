package io.jdbcrepl.apply;

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
        return node.dialect().part(SourceReaders.class).purge(local, node.changeLog(), active);
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

    static int compare(Position.Epoch a, Position.Epoch b) {
        int c = Long.compare(a.epoch(), b.epoch());
        if (c == 0) c = Long.compare(a.lastPosition(), b.lastPosition());
        return c != 0 ? c : a.txId().compareTo(b.txId());
    }

}
