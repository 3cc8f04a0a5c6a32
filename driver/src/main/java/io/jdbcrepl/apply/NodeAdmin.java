package io.jdbcrepl.apply;

import io.jdbcrepl.api.ErrorEntry;
import io.jdbcrepl.api.NodeStatus;
import io.jdbcrepl.api.PeerStatus;
import io.jdbcrepl.api.ReplAdmin;
import io.jdbcrepl.config.DurationText;
import io.jdbcrepl.config.InstallMode;
import io.jdbcrepl.config.PeerConfig;
import io.jdbcrepl.keys.KeyArrangement;
import io.jdbcrepl.intercept.SqlState;
import io.jdbcrepl.log.Grants;
import io.jdbcrepl.log.Position;
import io.jdbcrepl.log.SchemaInstaller;
import io.jdbcrepl.log.SourceReader;
import io.jdbcrepl.log.SourceReaders;
import io.jdbcrepl.log.Subscribers;
import io.jdbcrepl.node.Node;
import io.jdbcrepl.node.VendorDriver;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** {@link ReplAdmin} of one node: what {@code connection.unwrap(ReplAdmin.class)} returns. */
public final class NodeAdmin implements ReplAdmin {

    private static final long WAIT_POLL_MILLIS = 10;
    private static final long FOREVER_SECONDS = 100L * 365 * 86_400;

    private final Node node;

    public NodeAdmin(Node node) {
        this.node = node;
        // the metrics' gauges read the status this admin reads, of the peers it is configured with now
        node.metrics().status().readFrom(this);
        for (String peer : node.config().peers()) node.metrics().peer(peer);
    }

    private Connection local() throws SQLException {
        return VendorDriver.open(node.config());
    }

    @Override
    public void install() throws SQLException {
        try (Connection c = local()) {
            new SchemaInstaller(node.dialect(), node.changeLog()).install(c, InstallMode.AUTO);
        }
    }

    /** What a join under way here has done ("joining from n1: 2 of 3 tables copied"), or null when none is. */
    private String joining(Connection local) throws SQLException {
        JoinState state = new JoinState(node.changeLog());
        JoinState.Join join = state.join(local);
        if (join == null && Join.pending(node, null, local)) {
            return "joining from " + node.config().join().get() + " (repl.join): the copy has not begun yet";
        }
        if (join == null || join.joined()) return null;
        java.util.Map<String, String> tables = state.tables(local);
        long copied = tables.values().stream().filter(JoinState.COPIED::equals).count();
        return "joining from " + join.donor() + ": " + copied + " tables copied"
                + (tables.size() > copied ? ", one being copied" : "") + "; applying starts when the join ends";
    }

    @Override
    public void join(String donor, boolean replace, java.util.function.Consumer<io.jdbcrepl.api.JoinProgress> progress)
            throws SQLException {
        new Join(node, donor, replace, progress).run();
    }

    /** Waits its whole timeout, applier or not: see {@link ReplAdmin#waitForPeers(Duration)}. */
    @Override
    public void waitForPeers(Duration timeout) throws SQLException {
        waitForPeers(timeout, DurationText.of(timeout), null);
    }

    /**
     * {@link #waitForPeers(Duration)} for the command line: messages name the timeout as
     * {@code timeoutText} (as the user wrote it), and with {@code noApplierGrace} it fails (55000)
     * once no applier, in any process, has held the peer's apply lock or moved its progress for that
     * long while changes are still to apply: waiting longer would be in vain.
     */
    public void waitForPeers(Duration timeout, String timeoutText, Duration noApplierGrace) throws SQLException {
        // a timeout beyond a century is as good as none, and toNanos() would overflow
        long deadline = System.nanoTime() + Math.min(timeout.toSeconds(), FOREVER_SECONDS) * 1_000_000_000L
                + timeout.toNanosPart();
        ProgressStore progress = new ProgressStore(node.changeLog());
        // a use of the node: its apply side does not stop (the connection's linger) while it is awaited
        try (Node.Lease waiting = node.lease(); Connection local = local()) {
            for (String name : node.config().peers()) {
                PeerConfig peer = node.config().peer(name);
                try (Peers.Source source = Peers.connect(peer, 1, node)) {
                    SourceReader reader = source.reader();
                    Position initial = source.dialect().part(SourceReaders.class).initial();
                    String mark = reader.mark();
                    // each peer's applier gets the grace from when its wait starts
                    ApplierWatch watch = new ApplierWatch(peer.name(), System.nanoTime(), noApplierGrace);
                    while (true) {
                        Optional<Position> at = progress.read(local, peer.name());
                        String rewound = at.isPresent() ? progress.rewound(local, peer.name()) : null;
                        if (!local.getAutoCommit()) local.commit();
                        if (rewound != null) {
                            throw SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE.exception(
                                    "Applying from peer " + peer.name() + " at " + node.name()
                                    + " has stopped: " + rewound);
                        }
                        if (at.isPresent() && reader.consumed(mark,
                                ProgressStore.ofKind(at.get(), initial, node.name(), peer.name()))) break;
                        watch.check(local, at.orElse(null));
                        if (System.nanoTime() - deadline > 0) {
                            throw new SQLTimeoutException("Waited " + timeoutText + " for the changes of peer " + peer.name()
                                    + " to be applied at " + node.name() + "; applied so far: "
                                    + at.map(Position::encode).orElse("nothing") + (watch.alive(local) ? ""
                                    : "; no applier from " + peer.name() + " holds its apply lock and none applied"
                                    + " anything meanwhile: is one running (an application with repl.apply=true, or the apply command)?"),
                                    SqlState.TIMEOUT_EXPIRED.code());
                        }
                        try {
                            Thread.sleep(WAIT_POLL_MILLIS);
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                            throw SqlState.OPERATION_CANCELED.exception("Interrupted while waiting for peer " + peer.name(), e);
                        }
                    }
                }
            }
        }
    }

    /**
     * Whether an applier from one peer shows a sign of life: it holds the apply lock, or the progress
     * moves. With a grace, a wait gives up once there has been none for that long; without one it
     * never reads the lock while it waits (on H2 reading it locks its row for a moment, which an
     * applier starting then would take for another applier's).
     */
    private final class ApplierWatch {
        private static final long CHECK_NANOS = 200_000_000L;
        private final String peer;
        private final Duration grace; // null: never give up early
        private long lastSign;
        private long lastCheck;
        private Position lastAt;
        private boolean first = true;
        private boolean seen;

        ApplierWatch(String peer, long start, Duration grace) {
            this.peer = peer;
            this.grace = grace;
            this.lastSign = start;
            this.lastCheck = start - CHECK_NANOS;
        }

        void check(Connection local, Position at) throws SQLException {
            long now = System.nanoTime();
            if (!first && !java.util.Objects.equals(at, lastAt)) sign(now);
            first = false;
            lastAt = at;
            if (grace == null || now - lastCheck < CHECK_NANOS) return;
            lastCheck = now;
            if (holdsOrUnknown(local)) {
                sign(now);
            } else if (now - lastSign > grace.toNanos()) {
                throw SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE.exception("No applier from peer " + peer + " runs at "
                        + node.name() + ": none holds its apply lock and nothing was applied from " + peer
                        + (at == null ? " yet" : " lately (applied so far: " + at.encode() + ")")
                        + "; start one (the apply command, or an application with repl.apply=true) and wait again");
            }
        }

        private void sign(long now) {
            lastSign = now;
            seen = true;
        }

        /** Whether an applier applied anything while watched, or holds the lock now. */
        boolean alive(Connection local) {
            return seen || holdsOrUnknown(local);
        }

        /** A lock this user may not read says nothing: only a lock known free makes wait give up. */
        private boolean holdsOrUnknown(Connection local) {
            try {
                return applierHolds(local, peer);
            } catch (SQLException unknown) {
                return true;
            }
        }
    }

    /** Whether an applier from {@code peer}, in this process or another, holds the apply lock now. */
    private boolean applierHolds(Connection local, String peer) throws SQLException {
        return ApplierLock.held(node.dialect(), node.changeLog(), node.logSchema(), peer, local);
    }

    private SourceReader reader(PeerConfig peer) throws SQLException {
        return Peers.connect(peer, 1, node).reader();
    }

    @Override
    public NodeStatus status() throws SQLException {
        InboundServer server = InboundServer.of(node);
        ProgressStore progress = new ProgressStore(node.changeLog());
        List<PeerStatus> peers = new ArrayList<>();
        List<String> dropped = new ArrayList<>();
        List<String> keyless;
        List<String> keyWarnings = new ArrayList<>();
        String purgeBlocked = null;
        try (Connection local = local()) {
            String joining = joining(local);
            for (String name : node.config().peers()) {
                PeerConfig peer = node.config().peer(name);
                Optional<Position> at = progress.read(local, peer.name());
                long queue;
                try (PreparedStatement ps = local.prepareStatement("SELECT count(*) FROM " + node.changeLog().table("repl_error")
                        + " WHERE source_database = ?")) {
                    ps.setString(1, peer.name());
                    try (ResultSet rs = ps.executeQuery()) {
                        rs.next();
                        queue = rs.getLong(1);
                    }
                }
                long[] lag = {-1, -1};
                String error = null;
                String denied = null;
                try (Peers.Source source = Peers.connect(peer, 1, node)) {
                    SourceReader reader = source.reader();
                    String clash = KeyCheck.clash(node, peer.name(), source.keys());
                    if (clash != null) keyWarnings.add(clash);
                    Position initial = source.dialect().part(SourceReaders.class).initial();
                    lag = reader.lag(at.isPresent() ? ProgressStore.ofKind(at.get(), initial, node.name(), peer.name()) : initial);
                    try {
                        reader.checkSubscribe(new Subscribers(source.dialect(),
                                new io.jdbcrepl.log.ChangeLogSchema(source.dialect(), source.logSchema())));
                    } catch (SQLException e) {
                        if (!Grants.denied(e)) throw e;
                        denied = "user " + reader.user() + " at " + peer.name() + " may not record " + node.name()
                                + "'s position in " + peer.name() + "'s repl_subscriber, so " + peer.name()
                                + " cannot purge its log: " + e.getMessage();
                    }
                } catch (SQLException e) {
                    error = e.getMessage();
                }
                Applier a = server == null ? null : server.applier(peer.name());
                String applied = at.map(Position::encode).orElse(null);
                String read = a != null && a.read() != null ? a.read().encode() : applied;
                String rewound = at.isPresent() ? progress.rewound(local, peer.name()) : null;
                // no applier in this process: the database says whether one runs in another
                String state = joining != null ? Applier.State.JOINING.name() : rewound != null ? "REWOUND"
                        : a != null ? a.state().name() : heldElsewhere(local, peer.name()) ? "RUNNING" : "NOT_RUNNING";
                String lastError = joining != null ? joining : rewound != null ? rewound
                        : a != null && a.lastError() != null ? a.lastError() : error;
                if (denied == null && a != null) denied = a.subscribeDenied();
                peers.add(new PeerStatus(peer.name(), read, applied, lag[0], lag[1], queue, a == null ? 0 : a.failures(),
                        state, lastError, denied, progress.secondsSinceApplied(local, peer.name())));
            }
            java.util.Set<String> subscribed = new java.util.TreeSet<>(String.CASE_INSENSITIVE_ORDER);
            for (Subscribers.Subscriber s : new Subscribers(node.dialect(), node.changeLog()).list(local)) {
                subscribed.add(s.name());
                if (s.droppedAt() != null) dropped.add(s.name());
            }
            List<String> waitingFor = node.config().peers().stream().filter(p -> !subscribed.contains(p)).toList();
            if (!waitingFor.isEmpty()) {
                purgeBlocked = "this node's log is kept whole: " + String.join(", ", waitingFor) + " never recorded"
                        + " its position in " + node.changeLog().table("repl_subscriber") + " (not started yet, or the"
                        + " user it reads this node with lacks SELECT, INSERT, UPDATE on that table: see install --grants)";
            }
            InboundServer running = InboundServer.of(node);
            if (purgeBlocked == null && running != null && running.purgeDenied() != null) purgeBlocked = running.purgeDenied();
            keyless = node.keylessTables(local);
            try {
                keyWarnings.addAll(KeyArrangement.warnings(node, local));
            } catch (SQLException e) {
                keyWarnings.add("this node's generated keys could not be read: " + e.getMessage());
            }
        }
        return new NodeStatus(node.name(), peers, dropped, keyless, purgeBlocked, keyWarnings);
    }

    private boolean heldElsewhere(Connection local, String peer) {
        try {
            return applierHolds(local, peer);
        } catch (SQLException unknown) {
            return false; // status shows what it can: the lock is only a hint of another process's applier
        }
    }

    @Override
    public Duration healthLag() {
        return node.config().healthLag();
    }

    @Override
    public long purge() throws SQLException {
        try (Connection c = local()) {
            return InboundServer.purge(node, c);
        }
    }

    @Override
    public void startApply() throws SQLException {
        if (node.config().peers().isEmpty()) {
            throw SqlState.INVALID_PARAMETER_VALUE.exception("Node " + node.name() + " has no repl.peers: nothing to apply from");
        }
        InboundServer.ensureStarted(node);
    }

    @Override
    public void stopApply() {
        InboundServer server = InboundServer.of(node);
        if (server != null) server.stop();
    }

    @Override
    public List<ErrorEntry> errors() throws SQLException {
        try (Connection c = local()) {
            return new ErrorQueueOperations(node).list(c);
        }
    }

    @Override
    public ErrorEntry error(long id) throws SQLException {
        try (Connection c = local()) {
            return new ErrorQueueOperations(node).show(c, id);
        }
    }

    @Override
    public void retryError(long id) throws SQLException {
        try (Connection c = local()) {
            new ErrorQueueOperations(node).execute(c, id);
        }
    }

    @Override
    public int retryAllErrors() throws SQLException {
        try (Connection c = local()) {
            return new ErrorQueueOperations(node).executeAll(c);
        }
    }

    @Override
    public void deleteError(long id) throws SQLException {
        try (Connection c = local()) {
            if (!new ErrorQueueOperations(node).delete(c, id)) {
                throw SqlState.NO_DATA.exception("No error queue entry " + id + " at " + node.name());
            }
        }
    }

    @Override
    public String toString() {
        return "ReplAdmin[" + node + "]";
    }
}
