package io.jdbcrepl.log;

import io.jdbcrepl.config.DurationText;
import io.jdbcrepl.dialect.Dialect;
import io.jdbcrepl.logging.DriverLog;

import java.sql.Connection;
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
 * for longer than {@code repl.retention} is dropped with an error in the log.
 */
public final class Purger {

    private static final DriverLog LOG = DriverLog.of(Purger.class);

    private Purger() {
    }

    /**
     * Purges the log {@code log} of the node {@code node} on {@code local} (its database,
     * autocommit on), keeping what a subscriber heard from within {@code retention}, or a peer of
     * {@code peers} (repl.peers) not subscribed yet, still needs; returns the LCRs deleted.
     */
    public static long purge(Connection local, Dialect dialect, ChangeLogSchema log, String node, Duration retention,
            List<String> peers) throws SQLException {
        Subscribers subscribers = new Subscribers(dialect, log);
        List<Subscribers.Subscriber> all = subscribers.list(local);
        List<Position> active = new ArrayList<>();
        Set<String> known = new TreeSet<>(String.CASE_INSENSITIVE_ORDER);
        for (Subscribers.Subscriber s : all) {
            known.add(s.name());
            if (s.droppedAt() != null) continue;
            if (s.silence().compareTo(retention) > 0) {
                subscribers.drop(local, s.name());
                LOG.error("jdbc:repl: subscriber " + s.name() + " of " + node + " has been silent since "
                        + s.updatedAt() + ", longer than repl.retention=" + DurationText.of(retention) + ": dropped; its changes from "
                        + node + " are no longer kept for it", null);
                continue;
            }
            active.add(s.position());
        }
        for (String peer : peers) {
            if (!known.contains(peer)) return 0; // not subscribed yet: keep everything for it
        }
        if (active.isEmpty() && known.isEmpty()) return 0; // nobody ever consumed this log: keep it
        // With every subscriber dropped nothing is kept for anyone: everything committed goes.
        return dialect.part(SourceReaders.class).purge(local, log, active);
    }

}
