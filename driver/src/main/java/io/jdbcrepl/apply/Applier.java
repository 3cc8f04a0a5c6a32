package io.jdbcrepl.apply;

import io.jdbcrepl.ReplDriver;
import io.jdbcrepl.capture.sql.Dialect;
import io.jdbcrepl.config.PeerConfig;
import io.jdbcrepl.logging.DriverLog;
import io.jdbcrepl.node.CommitSignal;
import io.jdbcrepl.node.Node;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Applies one source's transactions to this node, in the source's commit order, each whole
 * (SPEC 4.1, 4.2): several source transactions per local transaction when there is a backlog, each
 * under its own savepoint, and the progress moved in the same local transaction. A failing source
 * transaction is rolled back to its savepoint, re-run in exact mode to find the failing LCR and its
 * conflict, and, when still failing, recorded in the error queue; apply goes on with the next one.
 */
final class Applier implements Runnable {

    private static final DriverLog LOG = DriverLog.of(Applier.class);
    private static final long MAX_BACKOFF_MILLIS = 30_000;
    private static final long SUBSCRIBE_EVERY_MILLIS = 1_000;

    /**
     * How long a local transaction of the applier should hold its row locks, from its first LCR to
     * its commit: longer ones, mostly waiting for the application's locks on hot rows, hold up every
     * application transaction on the rows they already changed (issue 17), so the next groups are
     * made smaller, down to one source transaction, and grow back while they commit in time.
     */
    static final long GROUP_HOLD_NANOS = java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(20);

    /** How often a person is reminded of an outage that goes on. */
    private static final long REMINDER_NANOS = java.util.concurrent.TimeUnit.MINUTES.toNanos(5);

    /** PAUSED: a passing failure here (a full disk, a read-only database, ...), retried with backoff. */
    enum State { STARTING, STANDBY, RUNNING, PAUSED, UNREACHABLE, STOPPED, DROPPED }

    private final Node node;
    private final PeerConfig peer;
    private final int batchLcrs;
    /** LCRs per local transaction now: batchLcrs, less while groups hold their locks too long; applier thread only. */
    private int groupLcrs;
    private final long pollMillis;
    private final java.time.Duration fkRetry;
    private final ProgressStore progress;
    private final ErrorQueue errorQueue;
    private final ConflictLog conflicts;
    private final CommitSignal signal;

    private volatile boolean stopped;
    private volatile boolean dropped;
    private volatile State state = State.STARTING;
    private volatile Position applied;
    private volatile Position read;
    private volatile String lastError;
    private final AtomicLong failures = new AtomicLong();
    private volatile Connection local;
    private volatile SourceReader reader;
    private long lastSubscribed;
    private long outageSince; // System.nanoTime() when the current outage began, 0 when none; applier thread only
    private long lastReminder;
    private boolean warned; // the current outage was logged at WARN
    private boolean announced; // a peer without a log yet was logged at INFO
    /** Whether "applying" was logged since the applier started. */
    private boolean applyingLogged;

    Applier(Node node, PeerConfig peer) {
        this.node = node;
        this.peer = peer;
        this.batchLcrs = node.config().applyBatch();
        this.groupLcrs = batchLcrs;
        this.pollMillis = node.config().applyPoll().toMillis();
        this.fkRetry = node.config().fkRetry();
        this.progress = new ProgressStore(node.changeLog());
        this.errorQueue = new ErrorQueue(node.dialect(), node.changeLog());
        this.conflicts = new ConflictLog(node.dialect(), node.changeLog());
        this.signal = CommitSignal.of(peer.name());
    }

    String source() {
        return peer.name();
    }

    State state() {
        return state;
    }

    Position applied() {
        return applied;
    }

    Position read() {
        return read;
    }

    long failures() {
        return failures.get();
    }

    String lastError() {
        return lastError;
    }

    void stop() {
        stopped = true;
    }

    /** Closes the connections, which unblocks a thread waiting in the database. */
    void closeConnections() {
        SourceReader r = reader;
        if (r != null) r.close();
        Connection c = local;
        if (c != null) {
            try {
                c.close();
            } catch (SQLException ignored) {
                // gone already
            }
        }
    }

    /** Lock conflicts in a row that are retried at once before the session restarts with backoff. */
    private static final int MAX_LOCK_CONFLICTS = 50;

    @Override
    public void run() {
        long backoff = 100;
        while (!stopped) {
            try {
                session();
            } catch (InterruptedException e) {
                break;
            } catch (Exception e) {
                if (stopped) break;
                if (outageSince == 0) backoff = 100; // a new outage, not the last one going on
                failures.incrementAndGet();
                lastError = e instanceof SQLException s && s.getSQLState() != null
                        ? e + " [SQLState " + s.getSQLState() + "]" : e.toString();
                boolean unreachable = e instanceof SQLException s && s.getSQLState() != null && s.getSQLState().startsWith("08");
                if (unreachable) state = State.UNREACHABLE;
                else if (e instanceof SQLException s && SqlErrors.transientError(s)) state = State.PAUSED;
                outage(e);
                try {
                    Thread.sleep(backoff);
                } catch (InterruptedException ie) {
                    break;
                }
                backoff = Math.min(MAX_BACKOFF_MILLIS, backoff * 2);
            } finally {
                closeConnections();
                local = null;
                reader = null;
            }
        }
        state = dropped ? State.DROPPED : State.STOPPED;
    }

    /** How long a peer may have no log yet (it has not been started) before a person is told. */
    static final java.time.Duration MISSING_LOG_WARNING_AFTER = java.time.Duration.ofMinutes(1);

    /**
     * Says at WARN once that an outage began, then reminds every few minutes while it goes on. A peer
     * without a log yet is expected while nodes start one after the other: INFO the first time, WARN
     * only when it lasts {@link #MISSING_LOG_WARNING_AFTER}.
     */
    private void outage(Exception e) {
        long now = System.nanoTime();
        if (outageSince == 0) {
            outageSince = now;
            warned = false;
            announced = false;
        }
        if (warned) {
            if (now - lastReminder >= REMINDER_NANOS) {
                lastReminder = now;
                LOG.warn("jdbc:repl: applying from " + peer.name() + " to " + node.name() + " still stopped after "
                        + java.time.Duration.ofNanos(now - outageSince).toSeconds() + " s, retrying with backoff: " + e);
            }
        } else if (!missingTable(e)) {
            LOG.warn("jdbc:repl: applying from " + peer.name() + " to " + node.name() + " stopped, retrying with backoff: " + e);
            warned = true;
            lastReminder = now;
        } else if (now - outageSince >= MISSING_LOG_WARNING_AFTER.toNanos()) {
            LOG.warn("jdbc:repl: " + node.name() + " still finds no log at " + peer.name() + " after "
                    + MISSING_LOG_WARNING_AFTER.toSeconds() + " s (" + logCreator() + "; is repl.peer." + peer.name()
                    + ".url right?), retrying with backoff: " + e);
            warned = true;
            lastReminder = now;
        } else if (!announced) {
            LOG.info("jdbc:repl: " + node.name() + " waits for the log of " + peer.name() + " (" + logCreator() + "): " + e);
            announced = true;
        }
    }

    private String logCreator() {
        return "created by the first jdbc:repl: connection with repl.node at " + peer.name();
    }

    /** A batch went through: an outage, if there was one, has ended (said at WARN when its start was). */
    private void applying() {
        state = State.RUNNING;
        if (outageSince != 0 && warned) {
            LOG.warn("jdbc:repl: applying from " + peer.name() + " to " + node.name() + " again after "
                    + java.time.Duration.ofNanos(System.nanoTime() - outageSince).toMillis() + " ms stopped");
        } else if (!applyingLogged) {
            LOG.info("jdbc:repl: applying from " + peer.name() + " to " + node.name());
        }
        applyingLogged = true;
        if (outageSince != 0) {
            outageSince = 0;
            lastError = null;
        }
    }

    private static boolean missingTable(Exception e) {
        String state = e instanceof SQLException s ? s.getSQLState() : null;
        // a missing table, or (PostgreSQL, H2) a missing schema
        return "42P01".equals(state) || "42S02".equals(state) || "42102".equals(state) || "3F000".equals(state)
                || "90079".equals(state);
    }

    /** One session: connections, the lock, then apply until stopped or an error. */
    private void session() throws Exception {
        Connection l = ReplDriver.openDelegate(node.config());
        local = l;
        l.setAutoCommit(false);
        // InnoDB's REPEATABLE READ would show a conflict's row as of an older snapshot than the UPDATE saw.
        if (node.dialect() == Dialect.MYSQL) l.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
        RowApplier.instantsInUtc(l, node.dialect());
        try (ApplierLock lock = new ApplierLock(node.dialect(), node.changeLog(), node.logSchema(), peer.name())) {
            if (!lock.tryAcquire(l, () -> ReplDriver.openDelegate(node.config()))) {
                state = State.STANDBY;
                Thread.sleep(Math.max(pollMillis * 5, 1000));
                return;
            }
            Peers.Source source = Peers.connect(peer, Math.max(1, batchLcrs), node);
            SourceReader r = source.reader();
            reader = r;
            Dialect sourceDialect = source.dialect();
            Subscribers sourceSubscribers = new Subscribers(sourceDialect,
                    new io.jdbcrepl.log.ChangeLogSchema(sourceDialect, source.logSchema()));
            Position at = progress.load(l, peer.name(), Position.initial(sourceDialect == Dialect.POSTGRESQL));
            if ((at instanceof Position.Snapshot) != (sourceDialect == Dialect.POSTGRESQL)) {
                throw new SQLException("repl_progress holds " + at.encode() + " for " + peer.name()
                        + ", which is not a position of a " + sourceDialect + " source", "55000");
            }
            applied = at;
            TableMap tables = new TableMap(l, node.dialect(), node.config(), source.homeSchema(), node.homeSchema());
            ConflictHandler handlers = new PrebuiltHandlers(node.dialect(), node.config(), node.homeSchema(), node.name(),
                    peer.name(), errorQueue, conflicts);
            ApplyTrust trust = new ApplyTrust(node.config(), node.dialect(), peer.name(), source.homeSchema(),
                    node.homeSchema(), node.logSchema());
            try (RowApplier rows = new RowApplier(l, node.dialect(), tables, handlers,
                    CustomApply.of(node.dialect(), node.config(), node.homeSchema()), trust)) {
                rows.onFirstChange(table -> io.jdbcrepl.mview.AppliedChanges.beforeChange(node.config().delegateUrl(),
                        node.logSchema(), l, table));
                if (outageSince == 0) state = State.RUNNING;
                int lockConflicts = 0;
                while (!stopped) {
                    long seen = signal.generation();
                    boolean more;
                    try {
                        more = applyBatch(l, r, rows);
                        lockConflicts = 0;
                        applying();
                    } catch (SQLException e) {
                        // A deadlock or lock timeout with the application's transactions: the batch is
                        // rolled back (applyBatch did) and runs again after a short random pause, on
                        // the same connections; only a run of them restarts the session with backoff.
                        if (!SqlErrors.lockConflict(e) || ++lockConflicts > MAX_LOCK_CONFLICTS) throw e;
                        failures.incrementAndGet();
                        LOG.debug("jdbc:repl: applying from " + peer.name() + " to " + node.name()
                                + " met a lock conflict, running the batch again: " + e);
                        Thread.sleep(1 + java.util.concurrent.ThreadLocalRandom.current().nextInt(5 * lockConflicts));
                        continue;
                    }
                    subscribe(r, sourceSubscribers, !more);
                    if (!more) awaitNews(r, seen);
                }
            }
        }
    }

    /**
     * Idle: waits for the source's news. A peer in this JVM fires its commit signal; PostgreSQL also
     * notifies across JVMs, the others are polled.
     */
    private void awaitNews(SourceReader r, long seen) throws SQLException, InterruptedException {
        if (signal.generation() != seen) return;
        if (r instanceof EpochSourceReader) {
            signal.await(seen, pollMillis);
        } else {
            r.await(pollMillis);
        }
    }

    private void subscribe(SourceReader r, Subscribers s, boolean idle) {
        long now = System.currentTimeMillis();
        if (!idle && now - lastSubscribed < SUBSCRIBE_EVERY_MILLIS) return;
        if (idle && now - lastSubscribed < Math.min(SUBSCRIBE_EVERY_MILLIS, pollMillis)) return;
        try {
            if (r.subscribe(s, node.name(), applied)) {
                // The source purged what it kept for us: going on could skip changes.
                LOG.error("jdbc:repl: " + node.name() + " was dropped as a subscriber of " + peer.name() + " after"
                        + " repl.retention of silence; applying from " + peer.name() + " stops (the tables must be"
                        + " copied again, then the subscriber row and repl_progress removed)", null);
                dropped = true;
                stopped = true;
            }
            lastSubscribed = now;
        } catch (SQLException e) {
            LOG.debug("jdbc:repl: could not record " + node.name() + " as a subscriber of " + peer.name() + ": " + e);
        }
    }

    /** What one local transaction holds. */
    private static final class Group {
        /** The position before its first transaction (a foreign key retry commits up to a transaction). */
        final Position start;
        /** System.nanoTime() when its first transaction began to be applied. */
        long began;
        final java.util.List<SourceTx> txs = new java.util.ArrayList<>();
        boolean careful;
        int applied;
        int queued;
        long lcrs;
        String lastTx;

        Group(Position start) {
            this.start = start;
        }
    }

    /**
     * Reads and applies one batch; true when it had transactions (so read again at once). A group
     * of source transactions is first applied fast: no savepoints, JDBC batches across
     * transactions. When anything fails the local transaction is rolled back and the group applied
     * again carefully, each source transaction under its own savepoint.
     */
    private boolean applyBatch(Connection l, SourceReader r, RowApplier rows) throws SQLException {
        boolean any = false;
        try (SourceReader.Batch batch = r.batch(applied)) {
            Position last = applied;
            Group group = new Group(last);
            SourceTx tx;
            while (!stopped && (tx = batch.next()) != null) {
                any = true;
                read = tx.after();
                if (group.txs.isEmpty()) group.began = System.nanoTime();
                group.txs.add(tx);
                group.lastTx = tx.txId();
                if (group.careful) {
                    applyTransaction(l, r, rows, tx, group, last);
                } else {
                    try {
                        rows.begin();
                        group.lcrs += Math.max(1, r.lcrs(tx.txId(), rows::apply));
                    } catch (ApplyFailure fast) {
                        careful(l, r, rows, group);
                    }
                }
                last = tx.after();
                if (group.lcrs >= groupLcrs) {
                    finish(l, r, rows, group, last);
                    group = new Group(last);
                }
            }
            if (stopped) {
                if (!group.txs.isEmpty()) finish(l, r, rows, group, last);
                return false;
            }
            Position end = batch.end(last);
            if (!end.equals(applied)) finish(l, r, rows, group, end);
            return any || batch.full();
        } catch (SQLException | RuntimeException e) {
            rows.discard();
            try {
                l.rollback();
            } catch (SQLException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    /** Rolls back what the group applied fast and applies its transactions again, each under a savepoint. */
    private void careful(Connection l, SourceReader r, RowApplier rows, Group group) throws SQLException {
        rows.discard();
        l.rollback();
        group.careful = true;
        group.lcrs = 0;
        Position before = group.start;
        for (SourceTx tx : group.txs) {
            applyTransaction(l, r, rows, tx, group, before);
            before = tx.after();
        }
    }

    private void finish(Connection l, SourceReader r, RowApplier rows, Group group, Position to) throws SQLException {
        if (!group.careful) {
            try {
                rows.flush();
                group.applied = group.txs.size();
            } catch (ApplyFailure fast) {
                careful(l, r, rows, group);
            }
        }
        commit(l, group, to, rows);
    }

    /** As {@link #commit(Connection, Group, Position)}, after refreshing the ON COMMIT views of the tables applied to. */
    private void commit(Connection l, Group group, Position to, RowApplier rows) throws SQLException {
        io.jdbcrepl.mview.AppliedChanges.beforeCommit(node.config().delegateUrl(), node.logSchema(), l,
                rows.takeChanged());
        commit(l, group, to);
    }

    private void applyTransaction(Connection l, SourceReader r, RowApplier rows, SourceTx tx, Group group,
            Position before) throws SQLException {
        Savepoint sp = l.setSavepoint();
        long[] count = {0};
        try {
            rows.begin();
            count[0] = r.lcrs(tx.txId(), rows::apply);
            rows.flush();
            l.releaseSavepoint(sp);
            group.applied++;
        } catch (ApplyFailure fast) {
            rows.discard();
            l.rollback(sp);
            ApplyFailure failure = applyExactly(l, r, rows, tx, count);
            if (failure != null && "FOREIGN_KEY".equals(failure.code) && !fkRetry.isZero()) {
                failure = retryForeignKey(l, r, rows, tx, group, before, count, failure);
            }
            if (failure == null) {
                group.applied++;
            } else {
                long entry = errorQueue.record(l, peer.name(), tx, failure, r);
                conflicts.write(l, ConflictLog.queued(rows.conflictsMet(), entry));
                group.queued++;
                String message = "jdbc:repl: transaction " + tx.txId() + " from " + peer.name() + " moved to the error queue at "
                        + node.name() + ": LCR " + failure.number + ", " + failure.code + ": " + failure.getMessage();
                if (ApplyTrust.REFUSED.equals(failure.code)) LOG.error(message, null); // someone wrote the peer's log
                else LOG.warn(message);
            }
        }
        group.lcrs += Math.max(1, count[0]);
        group.lastTx = tx.txId();
    }

    /** Runs the transaction in exact mode under a savepoint; the failure (rolled back), or null when applied. */
    private ApplyFailure applyExactly(Connection l, SourceReader r, RowApplier rows, SourceTx tx, long[] count)
            throws SQLException {
        Savepoint exact = l.setSavepoint();
        rows.exact(true);
        rows.begin();
        try {
            count[0] = r.lcrs(tx.txId(), rows::apply);
            l.releaseSavepoint(exact);
            return null;
        } catch (ApplyFailure failure) {
            l.rollback(exact);
            return failure;
        } finally {
            rows.exact(false);
        }
    }

    /**
     * SPEC 5.2: a transaction failing on a foreign key is retried for up to repl.fk.retry, since the
     * missing parent usually comes from another peer, whose applier runs in its own thread. What
     * this local transaction holds is committed first, so that its locks do not hold that applier up.
     */
    private ApplyFailure retryForeignKey(Connection l, SourceReader r, RowApplier rows, SourceTx tx, Group group,
            Position before, long[] count, ApplyFailure failure) throws SQLException {
        if (group.applied + group.queued > 0) {
            commit(l, group, before, rows);
            group.applied = 0;
            group.queued = 0;
            group.lcrs = 0;
        }
        long deadline = System.nanoTime() + fkRetry.toNanos();
        long pause = Math.max(10, Math.min(pollMillis, 200));
        LOG.info("jdbc:repl: transaction " + tx.txId() + " from " + peer.name() + " fails on a foreign key at "
                + node.name() + ", retrying for up to " + fkRetry + ": " + failure.getMessage());
        while (System.nanoTime() < deadline) {
            if (stopped) throw new SQLException("Applying from " + peer.name() + " stopped", "57P01");
            try {
                Thread.sleep(pause);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new SQLException("Applying from " + peer.name() + " interrupted", "57P01", e);
            }
            l.commit(); // a fresh snapshot, where the parent may be now
            failure = applyExactly(l, r, rows, tx, count);
            if (failure == null || !"FOREIGN_KEY".equals(failure.code)) return failure;
        }
        return failure;
    }

    private void commit(Connection l, Group group, Position to) throws SQLException {
        progress.advance(l, peer.name(), applied, to, group.lastTx, group.applied, group.queued);
        l.commit();
        applied = to;
        if (group.txs.isEmpty()) return;
        if (System.nanoTime() - group.began > GROUP_HOLD_NANOS) groupLcrs = Math.max(1, groupLcrs / 2);
        else if (group.lcrs >= groupLcrs) groupLcrs = Math.min(batchLcrs, groupLcrs * 2);
    }
}
