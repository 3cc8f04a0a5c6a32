package io.jdbcrepl.dialect.postgresql;

import io.jdbcrepl.logging.DriverLog;
import io.jdbcrepl.node.LocalDatabase;
import io.jdbcrepl.node.Notifier;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

/**
 * Sends {@code NOTIFY repl_log, '<node>'} on PostgreSQL after the node's transactions commit
 * captured changes, from a connection of its own, so that peers' apply sides listening on the
 * channel wake at once (SPEC 4.6).
 *
 * <p>Not from the application's transaction: a notifying transaction holds a database-wide lock
 * from its pre-commit to the end of its commit, which would serialise every capturing commit and
 * defeat group commit. Here the application pays nothing (a flag), requests that arrive while a
 * notification is on its way are merged into the next one, and the notification is sent after
 * the commit it announces, so a woken reader sees it; at most one is sent per
 * {@value #INTERVAL_MILLIS} ms. The thread ends after a minute without requests and starts again
 * with the next one.
 */
final class PostgresNotifier implements Notifier.Sender {

    static final String CHANNEL = "repl_log";
    private static final DriverLog LOG = DriverLog.of(PostgresNotifier.class);
    private static final long IDLE_MILLIS = 60_000;
    private static final long RETRY_MILLIS = 5_000;
    /**
     * At most one notification per interval: each is a transaction of its own that takes the
     * database-wide notify lock, so under a busy capture load they are merged, costing a woken
     * reader at most this much latency.
     */
    private static final long INTERVAL_MILLIS = 5;

    private final String node;
    private final LocalDatabase database;
    private boolean requested;
    private Thread thread;
    private boolean closed;
    /** {@link #stop} asked the thread to end; a request after it wins (the thread serves it). */
    private boolean stopping;
    /** When sending last failed (0: it did not); touched by the notifier thread only. */
    private long failedAt;

    PostgresNotifier(String node, LocalDatabase database) {
        this.node = node;
        this.database = database;
    }

    @Override
    public synchronized void request() {
        stopping = false;
        if (closed || requested) return; // one is on its way: this commit rides along
        requested = true;
        if (thread == null) {
            thread = new Thread(this::run, "jdbc-repl-notify-" + node);
            thread.setDaemon(true);
            thread.start();
        } else {
            notifyAll();
        }
    }

    /** Ends the thread and closes its connection, unless a request comes first; a later request starts them again. */
    @Override
    public synchronized void stop() {
        stopping = true;
        notifyAll();
    }

    /** Stops the thread and closes its connection, waiting up to {@code waitMillis} for the thread to end. */
    @Override
    public void close(long waitMillis) {
        Thread running;
        synchronized (this) {
            closed = true;
            notifyAll();
            running = thread;
        }
        if (running == null || running == Thread.currentThread()) return;
        try {
            running.join(waitMillis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void run() {
        Connection connection = null; // the thread's own: an ending thread and its successor may overlap
        try {
            while (awaitRequest()) {
                connection = send(connection);
                Thread.sleep(INTERVAL_MILLIS); // requests arriving meanwhile merge into the next one
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            closeQuietly(connection);
        }
    }

    /** False when the notifier is closed or was idle long enough to end its thread. */
    private synchronized boolean awaitRequest() {
        long idleUntil = System.currentTimeMillis() + IDLE_MILLIS;
        while (!requested && !closed && !stopping) {
            long left = idleUntil - System.currentTimeMillis();
            if (left <= 0) {
                thread = null;
                return false;
            }
            try {
                wait(left);
            } catch (InterruptedException e) {
                thread = null;
                Thread.currentThread().interrupt();
                return false;
            }
        }
        if (closed || (stopping && !requested)) {
            stopping = false;
            thread = null;
            return false;
        }
        requested = false;
        return true;
    }

    /** Sends one notification; returns the connection to send the next one on (null after a failure). */
    private Connection send(Connection connection) {
        if (failedAt != 0 && System.currentTimeMillis() - failedAt < RETRY_MILLIS) return connection; // peers still poll
        try {
            if (connection == null) {
                connection = database.open();
                connection.setAutoCommit(true);
            }
            try (PreparedStatement ps = connection.prepareStatement("SELECT pg_notify('" + CHANNEL + "', ?)")) {
                ps.setString(1, node);
                ps.execute();
            }
            if (failedAt != 0) LOG.info("Change notifications of node " + node + " are sent again");
            failedAt = 0;
            return connection;
        } catch (SQLException | RuntimeException e) {
            if (failedAt == 0) {
                LOG.warn("Could not send a change notification for node " + node + " (peers fall back to polling,"
                        + " retried every " + RETRY_MILLIS / 1000 + " s): " + e.getMessage());
            }
            failedAt = System.currentTimeMillis();
            closeQuietly(connection);
            return null;
        }
    }

    private static void closeQuietly(Connection connection) {
        if (connection == null) return;
        try {
            connection.close();
        } catch (SQLException ignored) {
            // a broken connection: nothing to release
        }
    }
}
