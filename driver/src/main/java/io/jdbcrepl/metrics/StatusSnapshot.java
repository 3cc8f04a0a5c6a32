package io.jdbcrepl.metrics;

import io.jdbcrepl.api.NodeStatus;
import io.jdbcrepl.api.PeerStatus;
import io.jdbcrepl.api.ReplAdmin;
import io.jdbcrepl.logging.DriverLog;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A node's {@link NodeStatus} as the gauges read it: what {@code status} shows, read from the
 * database (so it is true whichever process applies), at most once per {@link #FRESH_MILLIS}. A read
 * that finds it older starts a refresh in a thread of its own and waits for it up to
 * {@link #WAIT_MILLIS}; a scrape never waits long for an unreachable peer, it gets the last value.
 */
public final class StatusSnapshot {

    private static final DriverLog LOG = DriverLog.of(StatusSnapshot.class);
    static final long FRESH_MILLIS = Long.getLong("io.jdbcrepl.metrics.freshMillis", 1_000L);
    static final long WAIT_MILLIS = 2_000;

    private final String node;
    private volatile ReplAdmin admin;
    private volatile NodeStatus last;
    private volatile long readAt;
    private CompletableFuture<Void> refreshing; // guarded by this

    StatusSnapshot(String node) {
        this.node = node;
    }

    /** Where the status is read: the node's admin API (the newest wins: the node's configuration may change). */
    public void readFrom(ReplAdmin admin) {
        this.admin = admin;
    }

    /** The node's status, at most {@link #FRESH_MILLIS} old where it could be read; null before it ever was. */
    public NodeStatus current() {
        if (System.currentTimeMillis() - readAt >= FRESH_MILLIS) {
            CompletableFuture<Void> running = refresh();
            if (running != null) {
                try {
                    running.get(WAIT_MILLIS, TimeUnit.MILLISECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } catch (Exception slowOrFailed) {
                    // the last value stands; the refresh goes on and says why it failed
                }
            }
        }
        return last;
    }

    /** What the status says of {@code peer}, or null. */
    public PeerStatus peer(String peer) {
        NodeStatus s = current();
        if (s == null) return null;
        for (PeerStatus p : s.peers()) {
            if (p.peer().equals(peer)) return p;
        }
        return null;
    }

    private synchronized CompletableFuture<Void> refresh() {
        ReplAdmin from = admin;
        if (from == null) return null;
        if (refreshing != null && !refreshing.isDone()) return refreshing;
        CompletableFuture<Void> done = new CompletableFuture<>();
        Thread t = new Thread(() -> {
            try {
                last = from.status();
            } catch (Exception | LinkageError e) {
                last = null; // a status that cannot be read shows as no value, not as the last good one
                LOG.debug("jdbc:repl: metrics could not read the status of " + node + ": " + e);
            } finally {
                readAt = System.currentTimeMillis();
                done.complete(null);
            }
        }, "jdbc:repl metrics status " + node);
        t.setDaemon(true);
        refreshing = done;
        t.start();
        return done;
    }
}
