package io.jdbcrepl.apply;

import io.jdbcrepl.api.ConflictType;
import io.jdbcrepl.dialect.Dialect;
import io.jdbcrepl.config.PeerConfig;
import io.jdbcrepl.conflict.Resolution.ConflictHistory;
import io.jdbcrepl.intercept.SqlState;
import io.jdbcrepl.log.CommitSignal;
import io.jdbcrepl.log.EpochSourceReader;
import io.jdbcrepl.log.Grants;
import io.jdbcrepl.log.Position;
import io.jdbcrepl.log.RefusedLcr;
import io.jdbcrepl.log.Rewind;
import io.jdbcrepl.log.SourceReader;
import io.jdbcrepl.log.SourceReaders;
import io.jdbcrepl.log.SourceTx;
import io.jdbcrepl.log.Subscribers;
import io.jdbcrepl.logging.DriverLog;
import io.jdbcrepl.metrics.ConflictKey;
import io.jdbcrepl.metrics.PeerMetrics;
import io.jdbcrepl.node.Node;
import io.jdbcrepl.node.VendorDriver;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.util.List;
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
    private static final long SUBSCRIBE_EVERY_MILLIS = 1_000;
    /** How often a subscription the source's user may not write is said again at WARN. */
    private static final long SUBSCRIBE_REMINDER_MILLIS = java.util.concurrent.TimeUnit.HOURS.toMillis(1);
    /** How often a subscription the source's user may not write is tried again (a grant may have come). */
    private static final long SUBSCRIBE_DENIED_RETRY_MILLIS = 60_000;

    /**
     * How long a local transaction of the applier should hold its row locks, from its first LCR to
     * its commit: longer ones, mostly waiting for the application's locks on hot rows, hold up every
     * application transaction on the rows they already changed (issue 17), so the next groups are
     * made smaller, down to one source transaction, and grow back while they commit in time.
     */
    static final long GROUP_HOLD_NANOS = java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(20);

    /**
     * The smallest group while application sessions wait for the applier's row locks: small enough
     * that they get the rows most of the time, large enough that the backlog still drains at a
     * useful rate (with 8 writers on 20 hot rows: 1 LCR per group drained 400 source transactions/s,
     * 20 drained 1,200 and kept the application at its CPU-bound rate, 100 drained 4,700 but let it
     * fall to half; docs/benchmarks.md).
     */
    static final int CONTENDED_GROUP_LCRS = 20;

    /**
     * PAUSED: a passing failure here (a full disk, a read-only database, ...), retried with backoff.
     * DROPPED: the source dropped this node as a subscriber; REWOUND: the source went back in time.
     * Both stop applying from that source until a person has repaired it.
     */
    enum State { STARTING, JOINING, STANDBY, RUNNING, PAUSED, UNREACHABLE, STOPPED, DROPPED, REWOUND }

    private final Node node;
    private final PeerConfig peer;
    private final int batchLcrs;
    /** LCRs per local transaction now: batchLcrs, less while groups hold their locks too long; applier thread only. */
    private int groupLcrs;
    private LockWaits lockWaits; // per session, applier thread only
    private final long pollMillis;
    private final java.time.Duration fkRetry;
    private final ProgressStore progress;
    private final JoinState joinState;
    /** Tables a resumed join copied later than this source's start (applier thread only). */
    private CopiedTables copied;
    private final ErrorQueue errorQueue;
    private final ConflictLog conflicts;
    private final CommitSignal signal;
    private final PeerMetrics metrics;
    /** Epoch millis of the newest LCR captured at the source in the transaction being applied; applier thread only. */
    private long txCaptured;

    private volatile boolean stopped;
    private volatile boolean dropped;
    private volatile boolean rewound;
    private volatile State state = State.STARTING;
    private volatile Position applied;
    private volatile Position read;
    private volatile String lastError;
    private final AtomicLong failures = new AtomicLong();
    private volatile Connection local;
    private volatile SourceReader reader;
    private long lastSubscribed;
    private final Outage outage; // applier thread only
    private volatile String subscribeDenied;
    private long subscribeWarned;
    private boolean announced; // a peer without a log yet was logged at INFO
    /** Whether "applying" was logged since the applier started. */
    private boolean applyingLogged;

    Applier(Node node, PeerConfig peer) {
        this.node = node;
        this.peer = peer;
        this.outage = new Outage(LOG, "applying from " + peer.name() + " to " + node.name());
        this.batchLcrs = node.config().applyBatch();
        this.groupLcrs = batchLcrs;
        this.pollMillis = node.config().applyPoll().toMillis();
        this.fkRetry = node.config().fkRetry();
        this.progress = new ProgressStore(node.changeLog());
        this.joinState = new JoinState(node.changeLog());
        this.errorQueue = new ErrorQueue(node.dialect(), node.changeLog(), node.config().logSignature());
        this.conflicts = new ConflictLog(node.dialect(), node.changeLog());
        this.signal = CommitSignal.of(peer.name());
        this.metrics = node.metrics().peer(peer.name());
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
        long backoff = Outage.FIRST_BACKOFF_MILLIS;
        while (!stopped) {
            try {
                session();
            } catch (InterruptedException e) {
                break;
            } catch (Exception e) {
                if (stopped) break;
                if (!outage.going()) backoff = Outage.FIRST_BACKOFF_MILLIS; // a new outage, not the last one going on
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
                backoff = Math.min(Outage.MAX_BACKOFF_MILLIS, backoff * 2);
            } finally {
                closeConnections();
                local = null;
                reader = null;
            }
        }
        state = dropped ? State.DROPPED : rewound ? State.REWOUND : State.STOPPED;
    }

    /** How long a peer may have no log yet (it has not been started) before a person is told. */
    static final java.time.Duration MISSING_LOG_WARNING_AFTER = java.time.Duration.ofMinutes(1);

    /**
     * Says at WARN once that an outage began, then reminds every few minutes while it goes on. A peer
     * without a log yet is expected while nodes start one after the other: INFO the first time, WARN
     * only when it lasts {@link #MISSING_LOG_WARNING_AFTER}.
     */
    private void outage(Exception e) {
        if (outage.failed()) announced = false;
        if (outage.warned() || !missingTable(e)) {
            outage.warn(e);
        } else if (outage.nanos() >= MISSING_LOG_WARNING_AFTER.toNanos()) {
            LOG.warn("jdbc:repl: " + node.name() + " still finds no log at " + peer.name() + " after "
                    + MISSING_LOG_WARNING_AFTER.toSeconds() + " s (" + logCreator() + "; is repl.peer." + peer.name()
                    + ".url right?), retrying with backoff: " + e);
            outage.warnedNow();
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
        boolean warned = outage.warned();
        if (outage.ended()) {
            lastError = null;
        } else {
            warned = false;
        }
        if (!warned && !applyingLogged) {
            LOG.info("jdbc:repl: applying from " + peer.name() + " to " + node.name());
        }
        applyingLogged = true;
    }

    static boolean missingTable(Exception e) {
        String state = e instanceof SQLException s ? s.getSQLState() : null;
        // a missing table, or (PostgreSQL, H2) a missing schema
        return SqlState.UNDEFINED_TABLE.is(state) || SqlState.BASE_TABLE_NOT_FOUND.is(state)
                || SqlState.TABLE_OR_VIEW_NOT_FOUND.is(state) || SqlState.INVALID_SCHEMA_NAME.is(state)
                || SqlState.SCHEMA_NOT_FOUND.is(state);
    }

    /** One session: connections, the lock, then apply until stopped or an error. */
    private void session() throws Exception {
        Connection l = VendorDriver.open(node.config());
        local = l;
        l.setAutoCommit(false);
        // READ COMMITTED where the default would show a conflict's row older than the UPDATE saw
        ApplySql sql = node.dialect().part(ApplySql.class);
        if (sql.applyReadCommitted()) l.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
        sql.instantsInUtc(l);
        boolean joining = Join.pending(node, l);
        l.commit();
        if (joining) { // the join (repl.join, or the join command) sets where applying starts
            state = State.JOINING;
            Thread.sleep(Math.max(pollMillis, 200)); // a local read: the applier starts soon after the join ends
            return;
        }
        try (ApplierLock lock = new ApplierLock(node.dialect(), node.changeLog(), node.logSchema(), peer.name())) {
            if (!lock.tryAcquire(l, () -> VendorDriver.open(node.config()))) {
                state = State.STANDBY;
                Thread.sleep(Math.max(pollMillis * 5, 1000));
                return;
            }
            lockWaits = LockWaits.probe(l, node.dialect(), "applying from " + peer.name() + " to " + node.name());
            Peers.Source source = Peers.connect(peer, Math.max(1, batchLcrs), node);
            SourceReader r = source.reader();
            reader = r;
            // a peer that records no scheme yet may be starting (its row comes just after its tables): soon again
            keysChecked = System.currentTimeMillis() - (source.keys().isEmpty() ? KEY_CHECK_EVERY_MILLIS - 2_000 : 0);
            if (keysClash(KeyCheck.clash(node, peer.name(), source.keys()))) return;
            Dialect sourceDialect = source.dialect();
            Subscribers sourceSubscribers = new Subscribers(sourceDialect,
                    new io.jdbcrepl.log.ChangeLogSchema(sourceDialect, source.logSchema()));
            Position initial = sourceDialect.part(SourceReaders.class).initial();
            Position at = ProgressStore.ofKind(progress.load(l, peer.name(), initial), initial, node.name(), peer.name());
            applied = at;
            if (sourceRewound(l, r, sourceSubscribers, at)) return;
            copied = CopiedTables.load(l, joinState, peer.name(), at, source.homeSchema(), node.homeSchema());
            l.commit();
            TableMap tables = new TableMap(l, node.dialect(), node.config(), source.homeSchema(), node.homeSchema());
            ConflictHandler handlers = new PrebuiltHandlers(node.dialect(), node.config(), node.homeSchema(), node.name(),
                    peer.name(), errorQueue, conflicts);
            ApplyTrust trust = new ApplyTrust(node.config(), node.dialect(), peer.name(), source.homeSchema(),
                    node.homeSchema(), node.logSchema());
            try (RowApplier rows = new RowApplier(l, node.dialect(), tables, handlers,
                    CustomApply.of(node.dialect(), node.config(), node.homeSchema()), trust)) {
                rows.onFirstChange(table -> io.jdbcrepl.mview.AppliedChanges.beforeChange(node.config().delegateUrl(),
                        node.logSchema(), l, table));
                if (!outage.going()) state = State.RUNNING;
                int lockConflicts = 0;
                while (!stopped) {
                    long seen = signal.generation();
                    boolean more;
                    try {
                        more = applyBatch(l, r, rows);
                        lockConflicts = 0;
                        applying();
                    } catch (Rewind.Detected e) {
                        rewound(l, e.evidence);
                        return;
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
                    subscribe(l, r, sourceSubscribers, !more);
                    if (!more && System.currentTimeMillis() - keysChecked >= KEY_CHECK_EVERY_MILLIS) {
                        keysChecked = System.currentTimeMillis();
                        if (keysClash(KeyCheck.clash(node, peer))) return;
                    }
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

    /**
     * Before anything is applied in a session: whether applying from the source stopped for good
     * earlier (the stored reason), or the source went back in time since this node last read it —
     * its row in repl_subscriber older than what this node wrote there, or its next transaction id
     * or epoch below what this node has seen. Detected, applying stops.
     */
    private boolean sourceRewound(Connection l, SourceReader r, Subscribers s, Position at) throws SQLException {
        String stored = progress.rewound(l, peer.name());
        Position written = progress.subscribed(l, peer.name());
        l.commit();
        if (stored != null) {
            LOG.error("jdbc:repl: applying from " + peer.name() + " to " + node.name() + " stays stopped: " + stored, null);
            lastError = stored;
            rewound = true;
            stopped = true;
            state = State.REWOUND;
            return true;
        }
        String evidence = written == null ? null : Rewind.checkSubscriber(written, subscription(r, s));
        if (evidence == null) evidence = Rewind.check(at, r.mark());
        if (evidence == null) return false;
        rewound(l, evidence);
        return true;
    }

    /**
     * This node's row in the source's repl_subscriber; null when it has none. A reader that may not
     * read it (least privileges, said by subscribe) has written nothing there since, so nothing to compare.
     */
    private Position subscription(SourceReader r, Subscribers s) throws SQLException {
        try {
            return r.subscription(s, node.name());
        } catch (SQLException e) {
            if (!Grants.denied(e)) throw e;
            return null;
        }
    }

    /** How often an idle applier compares its node's key scheme with the peer's again (a peer restarted with another). */
    private static final long KEY_CHECK_EVERY_MILLIS = 60_000;
    private long keysChecked;

    /**
     * SPEC 8.2: whether the peer's key scheme collides with this node's ({@code clash}: why, or null); then
     * nothing more is applied from it in this JVM, and status says why (SQLState 55000).
     */
    private boolean keysClash(String clash) {
        if (clash == null) return false;
        LOG.error("jdbc:repl: applying from " + peer.name() + " to " + node.name() + " stops: " + clash
                + " [SQLState " + SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE.code() + "]; fix repl.keys.* and restart", null);
        lastError = clash + " [SQLState " + SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE.code() + "]";
        stopped = true;
        state = State.STOPPED;
        return true;
    }

    /** The source went back in time: nothing more is applied from it, and status says why. */
    private void rewound(Connection l, String evidence) throws SQLException {
        String reason = Rewind.reason(peer.name(), evidence);
        progress.set(l, peer.name(), "rewound", reason);
        LOG.error("jdbc:repl: applying from " + peer.name() + " to " + node.name() + " stops: " + reason
                + "; nothing more is applied from " + peer.name() + " until its repl_progress row at " + node.name()
                + " is reset (the tables verified or copied again first)", null);
        lastError = reason;
        rewound = true;
        stopped = true;
        state = State.REWOUND;
    }

    private void subscribe(Connection l, SourceReader r, Subscribers s, boolean idle) {
        long now = System.currentTimeMillis();
        // denied: tried again now and then, not at every poll (each refusal is an ERROR in the source's server log)
        if (subscribeDenied != null && now - lastSubscribed < SUBSCRIBE_DENIED_RETRY_MILLIS) return;
        if (!idle && now - lastSubscribed < SUBSCRIBE_EVERY_MILLIS) return;
        if (idle && now - lastSubscribed < Math.min(SUBSCRIBE_EVERY_MILLIS, pollMillis)) return;
        Position at = applied;
        try {
            if (r.subscribe(s, node.name(), at)) {
                // The source purged what it kept for us: going on could skip changes.
                LOG.error("jdbc:repl: " + node.name() + " was dropped as a subscriber of " + peer.name() + " after"
                        + " repl.retention of silence; applying from " + peer.name() + " stops (the tables must be"
                        + " copied again, then the subscriber row and repl_progress removed)", null);
                dropped = true;
                stopped = true;
            } else {
                // What this node wrote there: a source restored from an older backup shows an older row.
                progress.set(l, peer.name(), "subscribed", at.encode());
            }
            lastSubscribed = now;
            if (subscribeDenied != null) {
                LOG.info("jdbc:repl: " + node.name() + " records its position in " + peer.name() + "'s repl_subscriber"
                        + " again: " + peer.name() + " can purge its log");
                subscribeDenied = null;
            }
        } catch (SQLException e) {
            try {
                l.rollback();
            } catch (SQLException suppressed) {
                e.addSuppressed(suppressed);
            }
            if (!Grants.denied(e)) {
                LOG.debug("jdbc:repl: could not record " + node.name() + " as a subscriber of " + peer.name() + ": " + e);
                return;
            }
            // Not a passing failure: the source keeps every LCR for us until a person grants it. Said
            // once, and again only after a long while, not at every poll.
            String denied = "user " + r.user() + " at " + peer.name() + " may not record " + node.name()
                    + "'s position in " + peer.name() + "'s repl_subscriber (GRANT SELECT, INSERT, UPDATE on it: see"
                    + " install --grants), so " + peer.name() + " cannot purge its log: " + e.getMessage();
            if (subscribeDenied == null || now - subscribeWarned >= SUBSCRIBE_REMINDER_MILLIS) {
                LOG.warn("jdbc:repl: " + denied);
                subscribeWarned = now;
            }
            subscribeDenied = denied;
            lastSubscribed = now; // tried: not again before the next interval
        }
    }

    /** Why this node cannot record its position at the source (a missing privilege), or null. */
    String subscribeDenied() {
        return subscribeDenied;
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
        /** Transactions with a known capture time, and the sum of those times (epoch millis), for the delay metric. */
        int delayed;
        long capturedMillisSum;
        /** The conflicts of its transactions, counted in the metrics once it commits. */
        final List<ConflictHistory> conflicts = new java.util.ArrayList<>();

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
                try {
                    if (group.careful) {
                        applyTransaction(l, r, rows, tx, group, last);
                    } else {
                        try {
                            rows.begin();
                            group.lcrs += Math.max(1, lcrs(r, tx, rows));
                            done(group, rows.conflictsMet());
                        } catch (ApplyFailure fast) {
                            careful(l, r, rows, group);
                        }
                    }
                } catch (RowApplier.DdlAhead ddl) {
                    // DDL commits here: what the group did before this transaction commits, then it applies on its own
                    rows.discard();
                    l.rollback();
                    group.txs.remove(group.txs.size() - 1);
                    if (!group.txs.isEmpty()) {
                        careful(l, r, rows, group);
                        commit(l, r, group, last, rows);
                    }
                    applyOnItsOwn(l, r, rows, tx);
                    last = tx.after();
                    group = new Group(last);
                    continue;
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

    /**
     * A transaction with DDL where DDL commits around itself (SPEC 8.3): applied in parts, each DDL
     * committing what came before it, with {@link DdlResume} saying how far it got; its progress is
     * committed with its last part. Whatever fails sends it to the error queue, the parts already
     * committed recorded for {@code errors retry}.
     */
    private void applyOnItsOwn(Connection l, SourceReader r, RowApplier rows, SourceTx tx) throws SQLException {
        Group group = new Group(applied);
        group.began = System.nanoTime();
        group.txs.add(tx);
        group.lastTx = tx.txId();
        DdlResume resume = DdlResume.load(l, node.dialect(), node.changeLog(), peer.name(), tx.txId(),
                rows.sourceHomeSchema(), node.homeSchema());
        rows.exact(true);
        rows.ddlMayCommit(true);
        rows.begin();
        try {
            group.lcrs = Math.max(1, r.lcrs(tx.txId(), (lcr, number) -> {
                if (!copied.holds(lcr, tx)) resume.apply(l, rows, lcr, number);
            }));
            rows.flush();
            resume.delete(l);
            group.applied = 1;
            done(group, rows.conflictsMet());
        } catch (RefusedLcr | ApplyFailure e) {
            ApplyFailure failure = e instanceof ApplyFailure f ? f
                    : new ApplyFailure(((RefusedLcr) e).number(), ApplyTrust.REFUSED, e.getMessage(), e.getCause());
            rows.discard();
            l.rollback();
            if (rows.ranDdl()) rows.forgetTables();
            long entry = errorQueue.record(l, peer.name(), tx, failure, r);
            resume.queued(l, failure.number);
            group.queued = 1;
            group.lcrs = 1;
            LOG.warn("jdbc:repl: transaction " + tx.txId() + " from " + peer.name() + " (with DDL) moved to the error queue at "
                    + node.name() + " as entry " + entry + ": LCR " + failure.number + ", " + failure.code
                    + (failure.summary == null ? "" : ": " + failure.summary));
            LOG.debug("jdbc:repl: error queue entry " + entry + " at " + node.name() + ": " + failure.getMessage());
        } finally {
            rows.ddlMayCommit(false);
            rows.exact(false);
        }
        commit(l, r, group, tx.after(), rows);
    }

    /** Rolls back what the group applied fast and applies its transactions again, each under a savepoint. */
    private void careful(Connection l, SourceReader r, RowApplier rows, Group group) throws SQLException {
        rows.discard();
        l.rollback();
        if (rows.ranDdl()) rows.forgetTables(); // the DDL is rolled back too
        group.careful = true;
        group.lcrs = 0;
        group.delayed = 0;
        group.capturedMillisSum = 0;
        group.conflicts.clear();
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
        commit(l, r, group, to, rows);
    }

    /** As {@link #commit(Connection, SourceReader, Group, Position)}, after refreshing the ON COMMIT views of the tables applied to. */
    private void commit(Connection l, SourceReader r, Group group, Position to, RowApplier rows) throws SQLException {
        io.jdbcrepl.mview.AppliedChanges.beforeCommit(node.config().delegateUrl(), node.logSchema(), l,
                rows.takeChanged());
        commit(l, r, group, to);
        if (rows.ranDdl()) schemaChanged(l, rows);
    }

    /** A peer's DDL committed here: what the node's capture and this applier know of tables is stale. */
    private void schemaChanged(Connection l, RowApplier rows) {
        rows.ddlDone();
        io.jdbcrepl.capture.session.CaptureSession.schemaChanged(node);
        if (node.config().keyScheme().isPresent()) io.jdbcrepl.keys.KeyArrangement.afterDdl(node, l);
    }

    private void applyTransaction(Connection l, SourceReader r, RowApplier rows, SourceTx tx, Group group,
            Position before) throws SQLException {
        Savepoint sp = l.setSavepoint();
        long[] count = {0};
        try {
            rows.begin();
            count[0] = lcrs(r, tx, rows);
            rows.flush();
            l.releaseSavepoint(sp);
            group.applied++;
            done(group, rows.conflictsMet());
        } catch (ApplyFailure fast) {
            rows.discard();
            l.rollback(sp);
            ApplyFailure failure = applyExactly(l, r, rows, tx, count);
            if (failure != null && failure.conflict == ConflictType.FOREIGN_KEY && !fkRetry.isZero()) {
                failure = retryForeignKey(l, r, rows, tx, group, before, count, failure);
            }
            if (failure == null) {
                group.applied++;
                done(group, rows.conflictsMet());
            } else {
                long entry = errorQueue.record(l, peer.name(), tx, failure, r);
                List<ConflictHistory> queued = ConflictLog.queued(rows.conflictsMet(), entry);
                conflicts.write(l, queued);
                group.queued++;
                done(group, queued);
                // SPEC 8.8: row values (in vendors' messages too) only at DEBUG; repl_error keeps the whole message
                String message = "jdbc:repl: transaction " + tx.txId() + " from " + peer.name() + " moved to the error queue at "
                        + node.name() + " as entry " + entry + ": LCR " + failure.number + where(rows, failure.number) + ", "
                        + failure.code + (failure.summary == null ? "" : ": " + failure.summary);
                if (ApplyTrust.REFUSED.equals(failure.code)) LOG.error(message, null); // someone wrote the peer's log
                else LOG.warn(message);
                LOG.debug("jdbc:repl: error queue entry " + entry + " at " + node.name() + ": " + failure.getMessage());
            }
        }
        group.lcrs += Math.max(1, count[0]);
        group.lastTx = tx.txId();
    }

    /**
     * Applies a transaction's LCRs as the reader streams them; an LCR the reader refuses (its
     * signature, or undecodable) fails the transaction like an LCR that cannot be applied.
     */
    private long lcrs(SourceReader r, SourceTx tx, RowApplier rows) throws SQLException, ApplyFailure {
        txCaptured = Long.MIN_VALUE;
        try {
            return r.lcrs(tx.txId(), (lcr, number) -> {
                if (copied.holds(lcr, tx)) return; // a table a resumed join copied with this change in it
                java.time.Instant captured = lcr.commitTime();
                if (captured != null) txCaptured = Math.max(txCaptured, captured.toEpochMilli());
                rows.apply(lcr, number);
            });
        } catch (RefusedLcr refused) {
            throw new ApplyFailure(refused.number(), ApplyTrust.REFUSED, refused.getMessage(), refused.getCause());
        }
    }

    /** A transaction of the group applied or queued: what the metrics count of it once the group commits. */
    private void done(Group group, List<ConflictHistory> met) {
        if (txCaptured != Long.MIN_VALUE) {
            group.delayed++;
            group.capturedMillisSum += txCaptured;
        }
        group.conflicts.addAll(met);
    }

    /** " on <table> (key <columns>)" of the failing LCR when the row applier knows it, for the log. */
    private static String where(RowApplier rows, long number) {
        String table = rows.tableOf(number);
        return table == null ? "" : " on " + table;
    }

    /** Runs the transaction in exact mode under a savepoint; the failure (rolled back), or null when applied. */
    private ApplyFailure applyExactly(Connection l, SourceReader r, RowApplier rows, SourceTx tx, long[] count)
            throws SQLException {
        Savepoint exact = l.setSavepoint();
        rows.exact(true);
        rows.begin();
        try {
            count[0] = lcrs(r, tx, rows);
            l.releaseSavepoint(exact);
            return null;
        } catch (ApplyFailure failure) {
            l.rollback(exact);
            return failure;
        } finally {
            rows.exact(false);
        }
    }

    /** What a committed group did, in the metrics; its counts start again (a foreign key retry commits a group twice). */
    private void count(Group group) {
        metrics.committed(group.applied, group.queued, group.lcrs, System.nanoTime() - group.began, group.delayed,
                group.capturedMillisSum);
        for (ConflictHistory h : group.conflicts) {
            metrics.conflict(new ConflictKey(h.schema() + "." + h.table(), h.kind().name(), h.handlerName(),
                    h.outcome().name()));
        }
        group.delayed = 0;
        group.capturedMillisSum = 0;
        group.conflicts.clear();
    }

    /**
     * SPEC 5.2: a transaction failing on a foreign key is retried for up to repl.fk.retry, since the
     * missing parent usually comes from another peer, whose applier runs in its own thread. What
     * this local transaction holds is committed first, so that its locks do not hold that applier up.
     */
    private ApplyFailure retryForeignKey(Connection l, SourceReader r, RowApplier rows, SourceTx tx, Group group,
            Position before, long[] count, ApplyFailure failure) throws SQLException {
        if (group.applied + group.queued > 0) {
            commit(l, r, group, before, rows);
            group.applied = 0;
            group.queued = 0;
            group.lcrs = 0;
        }
        long deadline = System.nanoTime() + fkRetry.toNanos();
        long pause = Math.max(10, Math.min(pollMillis, 200));
        LOG.info("jdbc:repl: transaction " + tx.txId() + " from " + peer.name() + " fails on a foreign key at "
                + node.name() + ": LCR " + failure.number + where(rows, failure.number) + ", retrying for up to " + fkRetry);
        LOG.debug("jdbc:repl: transaction " + tx.txId() + " from " + peer.name() + ": " + failure.getMessage());
        while (System.nanoTime() < deadline) {
            if (stopped) throw SqlState.ADMIN_SHUTDOWN.exception("Applying from " + peer.name() + " stopped");
            try {
                Thread.sleep(pause);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw SqlState.ADMIN_SHUTDOWN.exception("Applying from " + peer.name() + " interrupted", e);
            }
            l.commit(); // a fresh snapshot, where the parent may be now
            failure = applyExactly(l, r, rows, tx, count);
            if (failure == null || failure.conflict != ConflictType.FOREIGN_KEY) return failure;
        }
        return failure;
    }

    private void commit(Connection l, SourceReader r, Group group, Position to) throws SQLException {
        r.awaitDurable();
        progress.advance(l, peer.name(), applied, to, group.lastTx, group.applied, group.queued);
        boolean othersWait = !group.txs.isEmpty() && lockWaits.othersWait(l);
        l.commit();
        applied = to;
        if (group.txs.isEmpty()) return;
        count(group);
        if (othersWait) groupLcrs = Math.min(batchLcrs, Math.max(CONTENDED_GROUP_LCRS, groupLcrs / 2));
        else if (System.nanoTime() - group.began > GROUP_HOLD_NANOS) groupLcrs = Math.max(1, groupLcrs / 2);
        else if (group.lcrs >= groupLcrs) groupLcrs = Math.min(batchLcrs, groupLcrs * 2);
    }
}
