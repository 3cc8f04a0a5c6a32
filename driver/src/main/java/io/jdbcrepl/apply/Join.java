package io.jdbcrepl.apply;

import io.jdbcrepl.api.JoinProgress;
import io.jdbcrepl.capture.TableInfo;
import io.jdbcrepl.config.PeerConfig;
import io.jdbcrepl.dialect.Dialect;
import io.jdbcrepl.intercept.SqlState;
import io.jdbcrepl.log.ChangeLogSchema;
import io.jdbcrepl.log.Position;
import io.jdbcrepl.log.SourceReaders;
import io.jdbcrepl.log.Subscribers;
import io.jdbcrepl.logging.DriverLog;
import io.jdbcrepl.node.Node;
import io.jdbcrepl.node.VendorDriver;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;

/**
 * A node joins a running mesh from one donor peer (SPEC 8.1, Oracle's instantiation):
 * <ol>
 * <li>every peer keeps its log for the joining node from now (a row in its repl_subscriber that
 * has consumed nothing), so that no LCR it will need is purged while it joins;</li>
 * <li>one consistent snapshot of the donor gives both the rows and the positions: the donor's own
 * log from that snapshot on ({@link SourceReaders#beginSnapshot}), and every other peer's from the
 * position the donor had applied from it in that snapshot ({@code repl_progress}, read there);</li>
 * <li>every replicated table is copied from that snapshot, parents before children, into tables
 * that are missing (created) or empty (or emptied, with {@code replace}); each table is recorded
 * copied with its last rows ({@link JoinState});</li>
 * <li>the appliers' positions and the join's end are written in one transaction.</li>
 * </ol>
 * The appliers' locks are held throughout, so no applier of this node runs meanwhile, in this
 * process or another. A join stopped half way goes on when run again: tables copied stay, a table
 * being copied is emptied and copied again from a new snapshot, and the appliers skip, for the
 * tables copied in a later snapshot, the changes that snapshot already held ({@link CopiedTables}).
 */
public final class Join {

    private static final DriverLog LOG = DriverLog.of(Join.class);
    private static final long PROGRESS_EVERY_NANOS = 1_000_000_000L;
    private static final long PIN_EVERY_NANOS = 60_000_000_000L;

    private final Node node;
    private final PeerConfig donor;
    private final boolean replace;
    private final Consumer<JoinProgress> progress;
    private final JoinState state;

    public Join(Node node, String donor, boolean replace, Consumer<JoinProgress> progress) throws SQLException {
        this.node = node;
        if (donor == null || node.config().peers().stream().noneMatch(donor::equalsIgnoreCase)) {
            throw SqlState.UNDEFINED_OBJECT.exception("Cannot join from " + donor + ": it is not a peer of " + node.name()
                    + " (repl.peers=" + String.join(",", node.config().peers()) + ")");
        }
        this.donor = node.config().peer(donor);
        this.replace = replace;
        this.progress = progress == null ? p -> { } : progress;
        this.state = new JoinState(node.changeLog());
    }

    /**
     * Whether applying must wait for a join: one is under way here, or {@code repl.join} asks for one
     * on a node that has not applied anything yet (a node that has is not new: repl.join is moot there).
     */
    static boolean pending(Node node, Connection local) throws SQLException {
        return pending(node, new JoinState(node.changeLog()).join(local), local);
    }

    /** {@link #pending(Node, Connection)} with this node's join already read ({@code join}, null for none). */
    static boolean pending(Node node, JoinState.Join join, Connection local) throws SQLException {
        if (join != null) return !join.joined();
        return node.config().join().isPresent() && new ProgressStore(node.changeLog()).sources(local).isEmpty();
    }

    /** Runs the join; returns once every table is copied and the appliers' positions are set. */
    public void run() throws SQLException {
        java.util.Properties bulk = new java.util.Properties();
        node.dialect().part(ApplySql.class).bulkInserts(bulk);
        try (Connection local = VendorDriver.open(node.config(), bulk); Connection lockHolder = VendorDriver.open(node.config())) {
            local.setAutoCommit(false);
            lockHolder.setAutoCommit(false);
            ApplySql sql = node.dialect().part(ApplySql.class);
            sql.instantsInUtc(local);
            JoinState.Join before = state.join(local);
            local.commit();
            if (before != null && before.joined() && !replace) {
                LOG.info("jdbc:repl: " + node.name() + " joined from " + before.donor() + " already: nothing to do");
                return;
            }
            if (before != null && !before.joined() && !before.donor().equalsIgnoreCase(donor.name()) && !replace) {
                throw SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE.exception("A join of " + node.name() + " from "
                        + before.donor() + " is under way: finish it (join --from " + before.donor() + ") or start over"
                        + " with --replace");
            }
            boolean resuming = before != null && !before.joined() && !replace;
            List<ApplierLock> locks = lockAppliers(lockHolder);
            try {
                if (!resuming) checkNewNode(local);
                run(local, resuming ? before : null);
            } finally {
                locks.forEach(ApplierLock::close);
            }
        }
    }

    /** Every peer's applier lock: no applier of this node runs while it joins, in any process. */
    private List<ApplierLock> lockAppliers(Connection holder) throws SQLException {
        List<ApplierLock> held = new ArrayList<>();
        try {
            for (String peer : node.config().peers()) {
                ApplierLock lock = new ApplierLock(node.dialect(), node.changeLog(), node.logSchema(), peer);
                if (!lock.tryAcquire(holder, () -> VendorDriver.open(node.config()))) {
                    throw SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE.exception("Cannot join " + node.name() + ": an applier"
                            + " from " + peer + " runs at " + node.name() + " (in this or another process); a node joins"
                            + " before it applies anything: stop it (repl.apply=false, or stop the apply command)");
                }
                held.add(lock);
            }
            return held;
        } catch (SQLException e) {
            held.forEach(ApplierLock::close);
            throw e;
        }
    }

    /** A node that has applied from a peer already is not new: joining it would apply twice. */
    private void checkNewNode(Connection local) throws SQLException {
        ProgressStore store = new ProgressStore(node.changeLog());
        List<String> applied = store.sources(local);
        local.commit();
        if (applied.isEmpty()) return;
        if (!replace) {
            throw SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE.exception("Cannot join " + node.name() + " from "
                    + donor.name() + ": it has applied from " + String.join(", ", applied) + " already (repl_progress);"
                    + " a join is for a new node. To copy everything again and start over, join with --replace");
        }
    }

    private void run(Connection local, JoinState.Join resumed) throws SQLException {
        Dialect donorDialect = Peers.dialect(donor);
        try (Connection reader = Peers.open(donor, node.config().peerTimeout());
                Connection donorOther = Peers.open(donor, node.config().peerTimeout())) {
            String donorLog = Peers.logSchema(donor, reader, donorDialect, node);
            String donorHome = Peers.homeSchema(reader, donorDialect);
            ChangeLogSchema donorLogSchema = new ChangeLogSchema(donorDialect, donorLog);
            donorDialect.part(ApplySql.class).instantsInUtc(reader);
            TableMap localTables = new TableMap(local, node.dialect(), node.config(), donorHome, node.homeSchema());
            ApplyTrust trust = new ApplyTrust(node.config(), node.dialect(), donor.name(), donorHome, node.homeSchema(),
                    node.logSchema());
            JoinTables joinTables = new JoinTables(node, donor.name(), replace, state);
            List<TableInfo> tables = joinTables.replicated(reader, donorDialect, donorHome, donorLog, trust);
            Map<String, String> done = resumed == null ? Map.of() : state.tables(local);
            local.commit();
            List<TableMap.LocalTable> existing = joinTables.check(local, tables, localTables, done);
            if (resumed == null) {
                state.begin(local, donor.name());
                local.commit();
            } else {
                checkStillKept();
            }
            List<TableMap.LocalTable> targets = joinTables.prepare(local, reader, donorDialect, donorHome, tables, existing,
                    localTables);
            pinPeers(); // before the snapshot: nothing it needs may go after it
            Position donorAt = donorDialect.part(SourceReaders.class).beginSnapshot(reader, donorOther, donorLogSchema);
            Map<String, Position> positions = positions(reader, donorLogSchema, donorAt);
            Map<String, Position> start = resumed == null || resumed.start().isEmpty() ? null : resumed.start();
            if (start == null) { // the first snapshot: applying starts from it
                state.start(local, donor.name(), positions);
                local.commit();
                start = positions;
                LOG.info("jdbc:repl: " + node.name() + " joins from " + donor.name() + ": " + tables.size() + " tables,"
                        + " applying from " + positions);
            } else {
                LOG.info("jdbc:repl: " + node.name() + " goes on joining from " + donor.name() + " ("
                        + done.values().stream().filter(JoinState.COPIED::equals).count() + " of " + tables.size()
                        + " tables copied before)");
            }
            long pinned = System.nanoTime();
            for (int i = 0; i < tables.size(); i++) {
                TableMap.LocalTable target = targets.get(i);
                String key = JoinState.key(target.info().schema(), target.info().name());
                if (JoinState.COPIED.equals(done.get(key))) continue;
                copy(local, reader, donorDialect, tables.get(i), target, key, positions);
                if (System.nanoTime() - pinned > PIN_EVERY_NANOS) {
                    refreshPins();
                    pinned = System.nanoTime();
                }
            }
            reader.commit();
            for (JoinState.Constraint c : state.constraints(local)) { // the created tables' foreign keys, every row there
                try (Statement s = local.createStatement()) {
                    s.execute(c.sql());
                }
                state.added(local, c);
                local.commit();
            }
            for (String refused : io.jdbcrepl.keys.KeyArrangement.afterCopy(node, local)) {
                LOG.warn("jdbc:repl: " + node.name() + " could not move a generator past the rows the join copied: "
                        + refused + "; its next inserts may take keys the copy holds");
            }
            local.commit();
            finish(local, start);
            warnAboutDonorErrors(reader, donorLogSchema);
        }
    }

    /** Every peer keeps its whole log for this node from now until its appliers record their own positions. */
    private void pinPeers() throws SQLException {
        for (String name : node.config().peers()) {
            PeerConfig peer = node.config().peer(name);
            Dialect dialect = Peers.dialect(peer);
            try (Connection c = Peers.open(peer, node.config().peerTimeout())) {
                ChangeLogSchema log = new ChangeLogSchema(dialect, Peers.logSchema(peer, c, dialect, node));
                new Subscribers(dialect, log).pin(c, node.name(), dialect.part(SourceReaders.class).initial());
            }
        }
    }

    /**
     * A join going on needs what every peer kept for it since it began: a peer that dropped it after
     * {@code repl.retention} of silence (the join stopped for that long) may have purged some.
     */
    private void checkStillKept() throws SQLException {
        for (String name : node.config().peers()) {
            PeerConfig peer = node.config().peer(name);
            Dialect dialect = Peers.dialect(peer);
            try (Connection c = Peers.open(peer, node.config().peerTimeout())) {
                ChangeLogSchema log = new ChangeLogSchema(dialect, Peers.logSchema(peer, c, dialect, node));
                boolean kept = new Subscribers(dialect, log).list(c).stream()
                        .anyMatch(s -> s.name().equalsIgnoreCase(node.name()) && s.droppedAt() == null);
                if (!kept) {
                    throw SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE.exception("The join of " + node.name() + " cannot go on: "
                            + name + " no longer keeps its log for " + node.name() + " (its row in " + name
                            + "'s repl_subscriber is missing or was dropped after repl.retention), so changes the copy"
                            + " needs may be gone: start over with join --replace");
                }
            }
        }
    }

    /** A long copy: the pins say the node is alive, so that no peer drops it after repl.retention. */
    private void refreshPins() {
        try {
            pinPeers();
        } catch (SQLException e) {
            LOG.warn("jdbc:repl: " + node.name() + " could not refresh its rows in its peers' repl_subscriber while"
                    + " joining: " + e.getMessage());
        }
    }

    /**
     * Where applying from each peer starts: the donor from its snapshot, every other peer from what
     * the donor had applied from it in that snapshot (nothing yet: its whole log).
     */
    private Map<String, Position> positions(Connection reader, ChangeLogSchema donorLog, Position donorAt) throws SQLException {
        Map<String, Position> donorApplied = new LinkedHashMap<>();
        try (PreparedStatement ps = reader.prepareStatement("SELECT source_node, position FROM " + donorLog.table("repl_progress"));
                ResultSet rs = ps.executeQuery()) {
            while (rs.next()) donorApplied.put(rs.getString(1).toLowerCase(Locale.ROOT), Position.decode(rs.getString(2)));
        }
        Map<String, Position> out = new LinkedHashMap<>();
        for (String name : node.config().peers()) {
            if (name.equalsIgnoreCase(donor.name())) {
                out.put(name, donorAt);
                continue;
            }
            Position initial = Peers.dialect(node.config().peer(name)).part(SourceReaders.class).initial();
            Position at = donorApplied.get(name.toLowerCase(Locale.ROOT));
            out.put(name, at == null ? initial : ProgressStore.ofKind(at, initial, donor.name(), name));
        }
        return out;
    }

    private void copy(Connection local, Connection reader, Dialect donorDialect, TableInfo table, TableMap.LocalTable target,
            String key, Map<String, Position> positions) throws SQLException {
        state.copying(local, key, donor.name());
        JoinTables.delete(local, target); // rows an interrupted copy left
        local.commit();
        TableCopy copy = new TableCopy(reader, donorDialect, table, local, node.dialect(), target);
        long total = copy.count();
        long began = System.nanoTime();
        long[] told = {began};
        String name = target.sql();
        long rows = copy.run(n -> {
            long now = System.nanoTime();
            if (now - told[0] < PROGRESS_EVERY_NANOS) return;
            told[0] = now;
            progress.accept(new JoinProgress(name, n, total, rate(n, now - began), false));
        }, n -> state.copied(local, key, donor.name(), n, positions));
        progress.accept(new JoinProgress(name, rows, total, rate(rows, System.nanoTime() - began), true));
        LOG.info("jdbc:repl: " + node.name() + " copied " + rows + " rows of " + name + " from " + donor.name());
    }

    private static double rate(long rows, long nanos) {
        return nanos <= 0 ? 0 : rows * 1e9 / nanos;
    }

    /** The appliers' positions and the join's end, in one transaction. */
    private void finish(Connection local, Map<String, Position> start) throws SQLException {
        ProgressStore store = new ProgressStore(node.changeLog());
        for (Map.Entry<String, Position> e : start.entrySet()) store.start(local, e.getKey(), e.getValue());
        state.finish(local);
        local.commit();
        LOG.info("jdbc:repl: " + node.name() + " joined from " + donor.name() + "; applying from " + start.keySet());
    }

    /** The donor's error queue holds transactions its copy lacks: said, since this node will lack them too. */
    private void warnAboutDonorErrors(Connection reader, ChangeLogSchema donorLog) {
        try (PreparedStatement ps = reader.prepareStatement("SELECT count(*) FROM " + donorLog.table("repl_error"));
                ResultSet rs = ps.executeQuery()) {
            if (rs.next() && rs.getLong(1) > 0) {
                LOG.warn("jdbc:repl: " + donor.name() + " has " + rs.getLong(1) + " entries in its error queue: their"
                        + " transactions are not in the copy " + node.name() + " joined with, and an 'errors retry' at "
                        + donor.name() + " later does not reach " + node.name());
            }
        } catch (SQLException e) {
            LOG.debug("jdbc:repl: could not read " + donor.name() + "'s error queue: " + e);
        }
    }
}
