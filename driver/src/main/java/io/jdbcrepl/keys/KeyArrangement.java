package io.jdbcrepl.keys;

import io.jdbcrepl.config.KeyScheme;
import io.jdbcrepl.dialect.Dialect;
import io.jdbcrepl.log.NodeKeys;
import io.jdbcrepl.logging.DriverLog;
import io.jdbcrepl.node.Node;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * SPEC 8.2 where keys come from sequences (PostgreSQL, H2, MariaDB's sequences): every sequence
 * that feeds a replicated table's column, and every sequence alone in a schema of replicated tables
 * (Hibernate's {@code SEQUENCE} ids), is made to hand out only this node's keys: {@code INCREMENT BY
 * step RESTART WITH} the first value {@code ≡ offset (mod step)} above both the column's maximum and
 * the sequence's next value. Run when the node is first connected in a JVM, after DDL through the
 * driver, and by the join after it copied the tables. Idempotent: a sequence already stepping by
 * {@code step} from one of this node's keys is left alone.
 *
 * <p>A sequence stepping by another increment than 1 hands out allocation blocks (Hibernate's pooled
 * optimizer, {@code allocationSize} 50): it is left alone and reported. Spreading its blocks over
 * the nodes would need {@code INCREMENT BY allocationSize * step}, which Hibernate 6 refuses at boot
 * ({@code hibernate.id.sequence.increment_size_mismatch_strategy=EXCEPTION}, its default) and, with
 * {@code FIX}, turns into overlapping blocks; {@code allocationSize = 1} is what works.
 */
public final class KeyArrangement {

    private static final DriverLog LOG = DriverLog.of(KeyArrangement.class);

    private KeyArrangement() {
    }

    /** Why the node's last arrangement left each source alone, by {@link KeySource#describe()}: what status adds. */
    private static final class Refusals {
        final java.util.Map<String, String> why = new java.util.concurrent.ConcurrentHashMap<>();
    }

    /** Whether a node has recorded and arranged its keys in this JVM; one per node. */
    private static final class FirstConnect {
        boolean done;
    }

    /**
     * The first connection of a node in a JVM (where the driver's tables are installed): records the
     * node's key scheme for its peers ({@code repl_keys}) and arranges its sequences. Connections that
     * come meanwhile wait, so that none hands out a key before the sequences are arranged. A failure
     * is said at WARN and does not fail the connection.
     */
    public static void atFirstConnect(Node node, Connection raw) {
        FirstConnect once = node.attachment(FirstConnect.class, FirstConnect::new);
        synchronized (once) {
            if (once.done) return;
            once.done = true;
            try {
                new NodeKeys(node.changeLog()).write(raw, node.name(), node.config().keyScheme());
            } catch (SQLException e) {
                LOG.warn("jdbc:repl: " + node.name() + " could not record its key scheme in " + node.changeLog().table("repl_keys")
                        + " (peers cannot compare theirs with it): " + e.getMessage());
            }
            try {
                arrange(node, raw);
            } catch (SQLException e) {
                LOG.warn("jdbc:repl: " + node.name() + " could not arrange its sequences (" + node.config().keyScheme()
                        .map(KeyScheme::toString).orElse("") + "): " + e.getMessage());
            }
        }
    }

    /**
     * After DDL through one of the node's connections (CREATE TABLE or SEQUENCE, ALTER, ...): arranges
     * what it may have added. The DDL has run: a failure here is said at WARN (once per message) and
     * leaves the application's transaction as it was, not failing the statement that succeeded.
     */
    public static void afterDdl(Node node, Connection connection) {
        if (node.config().keyScheme().isEmpty()) return;
        Savepoint savepoint = null;
        try {
            savepoint = connection.getAutoCommit() ? null : connection.setSavepoint();
            arrange(node, connection);
            if (savepoint != null) connection.releaseSavepoint(savepoint);
        } catch (SQLException e) {
            try {
                if (savepoint != null) connection.rollback(savepoint);
            } catch (SQLException suppressed) {
                e.addSuppressed(suppressed);
            }
            if (node.firstTime("keys after DDL " + e.getMessage())) {
                LOG.warn("jdbc:repl: " + node.name() + " could not arrange its sequences after DDL: " + e.getMessage());
            }
        }
    }

    /**
     * Why two nodes' key schemes would hand out the same keys, or null when they cannot: both have
     * one, and their steps differ or their offsets are the same. A node without a scheme clashes with
     * nobody here ({@code status} warns about its generated keys instead).
     */
    public static String clash(String node, Optional<KeyScheme> mine, String peer, Optional<KeyScheme> theirs) {
        if (mine.isEmpty() || theirs.isEmpty()) return null;
        if (mine.get().step() != theirs.get().step()) {
            return "nodes " + node + " and " + peer + " have different repl.keys.step (" + mine.get().step() + " and "
                    + theirs.get().step() + "): their generated keys collide; every node needs the same step";
        }
        if (mine.get().offset() == theirs.get().offset()) {
            return "nodes " + node + " and " + peer + " both have repl.keys.offset=" + mine.get().offset() + " (step "
                    + mine.get().step() + "): they hand out the same generated keys; give each node an offset of its own";
        }
        return null;
    }

    /**
     * Arranges the node's sequences; returns those it could not, each as {@code <sequence>: <why>}
     * (also said at WARN once per node). Nothing is done for a node without a key scheme. In an open
     * transaction each sequence is arranged under a savepoint, so that a refusal (not the owner)
     * leaves the transaction usable.
     */
    public static List<String> arrange(Node node, Connection local) throws SQLException {
        Optional<KeyScheme> scheme = node.config().keyScheme();
        if (scheme.isEmpty()) return List.of();
        KeySql sql = node.dialect().part(KeySql.class);
        List<String> refused = new ArrayList<>();
        Refusals refusals = node.attachment(Refusals.class, Refusals::new);
        for (KeySource source : replicated(node, local, sql)) {
            String why = arrange(node.dialect(), sql, scheme.get(), local, source);
            if (why == null) {
                refusals.why.remove(source.describe());
                continue;
            }
            refusals.why.put(source.describe(), why);
            String line = source.describe() + ": " + why;
            refused.add(line);
            if (node.firstTime("keys " + line)) {
                LOG.warn("jdbc:repl: " + node.name() + " could not arrange " + line + "; two nodes may hand out the same key"
                        + " (SPEC 8.2, docs/keys.md)");
            }
        }
        return refused;
    }

    /**
     * After a join copied rows with their keys (SPEC 8.1): with a key scheme, {@link #arrange}; without
     * one, every generator of a replicated table whose next value is not above its column's largest
     * hands out values above it from now, its increment kept (a created identity starts at 1, and
     * PostgreSQL's and H2's do not move when rows arrive with their keys). Returns what could not be moved.
     */
    public static List<String> afterCopy(Node node, Connection local) throws SQLException {
        if (node.config().keyScheme().isPresent()) return arrange(node, local);
        KeySql sql = node.dialect().part(KeySql.class);
        List<String> refused = new ArrayList<>();
        for (KeySource source : replicated(node, local, sql)) {
            if (!source.feedsColumn()) continue;
            Optional<SequenceState> state = sql.state(local, source);
            if (state.isEmpty() || state.get().increment() < 1) continue;
            long max = maximum(node.dialect(), local, source);
            if (state.get().next() > max) continue;
            String why = guarded(local, () -> {
                execute(local, sql.restart(source, state.get().increment(), max + 1));
                return null;
            });
            if (why != null) refused.add(source.describe() + ": " + why);
        }
        return refused;
    }

    /**
     * What {@code status} says about the node's generated keys: without a key scheme, every replicated
     * table with generated keys; with one, every sequence that does not hand out only this node's keys.
     * Reads only.
     */
    public static List<String> warnings(Node node, Connection local) throws SQLException {
        KeySql sql = node.dialect().part(KeySql.class);
        List<KeySource> sources = replicated(node, local, sql);
        List<String> out = new ArrayList<>();
        Optional<KeyScheme> scheme = node.config().keyScheme();
        if (scheme.isEmpty()) {
            for (KeySource s : sources) {
                if (s.feedsColumn()) {
                    out.add(s.describe() + " generates keys and this node has no key scheme (repl.keys.step and"
                            + " repl.keys.offset): nodes inserting at once hand out the same keys");
                }
            }
            return out;
        }
        Refusals refusals = node.attachment(Refusals.class, Refusals::new);
        for (KeySource s : sources) {
            try {
                Optional<SequenceState> state = sql.state(local, s);
                if (state.isEmpty() || arranged(scheme.get(), state.get())) continue;
                String why = refusals.why.get(s.describe());
                out.add(s.describe() + " is not arranged: increment " + state.get().increment() + ", next value "
                        + state.get().next() + ", where " + scheme.get() + " wants increment " + scheme.get().step()
                        + " and values \u2261 " + scheme.get().offset() % scheme.get().step() + " (mod "
                        + scheme.get().step() + ")" + (why != null ? ": " + why
                                : blocks(scheme.get(), state.get()) ? " (" + BLOCKS + ")" : ""));
            } catch (SQLException e) {
                out.add(s.describe() + " could not be read: " + e.getMessage());
            }
        }
        return out;
    }

    private static final String BLOCKS = "an allocation block such as Hibernate's allocationSize: use allocationSize=1";

    /** Whether the generator hands out only this node's keys. */
    static boolean arranged(KeyScheme scheme, SequenceState state) {
        return state.increment() == scheme.step() && scheme.owns(state.next());
    }

    private static boolean blocks(KeyScheme scheme, SequenceState state) {
        return state.increment() > 1 && state.increment() != scheme.step();
    }

    /** Arranges one source; returns why it could not, or null. */
    private static String arrange(Dialect dialect, KeySql sql, KeyScheme scheme, Connection local, KeySource source)
            throws SQLException {
        return guarded(local, () -> {
            Optional<SequenceState> state = sql.state(local, source);
            if (state.isEmpty() || arranged(scheme, state.get())) return null;
            if (blocks(scheme, state.get())) {
                return "increment " + state.get().increment() + " is " + BLOCKS + " (its values are left as they are)";
            }
            if (state.get().increment() < 1) {
                return "increment " + state.get().increment() + ": a descending sequence is left as it is";
            }
            long floor = Math.max(0, Math.max(state.get().next(), maximum(dialect, local, source)));
            execute(local, sql.restart(source, scheme.step(), scheme.firstAbove(floor)));
            return null;
        });
    }

    /** One source's work that says why it left the source as it was, or null. */
    private interface Step {
        String run() throws SQLException;
    }

    /**
     * Runs {@code step}, in an open transaction under a savepoint, so that a refusal (not the owner)
     * leaves the transaction usable: its answer, or why the database refused.
     */
    private static String guarded(Connection local, Step step) throws SQLException {
        Savepoint savepoint = local.getAutoCommit() ? null : local.setSavepoint();
        try {
            String why = step.run();
            if (savepoint != null) local.releaseSavepoint(savepoint);
            return why;
        } catch (SQLException e) {
            if (savepoint != null) local.rollback(savepoint);
            return e.getMessage() + (e.getSQLState() != null ? " [SQLState " + e.getSQLState() + "]" : "")
                    + " (ALTER SEQUENCE needs its owner, or the table's owner for an identity column)";
        }
    }

    private static void execute(Connection local, String sql) throws SQLException {
        try (Statement s = local.createStatement()) {
            s.execute(sql);
        }
    }

    /** The column's largest value (0 for a sequence alone or an empty table). */
    private static long maximum(Dialect dialect, Connection local, KeySource source) throws SQLException {
        if (!source.feedsColumn()) return 0;
        String table = dialect.quote(source.schema()) + "." + dialect.quote(source.table());
        try (Statement s = local.createStatement();
                ResultSet rs = s.executeQuery("SELECT max(" + dialect.quote(source.column()) + ") FROM " + table)) {
            return rs.next() ? rs.getLong(1) : 0;
        }
    }

    /**
     * The sources of replicated tables, and the sequences alone in the schemas of those tables or in
     * the node's home schema (a sequence alone feeds no column the driver can see).
     */
    private static List<KeySource> replicated(Node node, Connection local, KeySql sql) throws SQLException {
        // repl.schema may put the driver's tables beside the application's: then they are told by name
        boolean beside = node.logSchema().equals(node.homeSchema());
        List<KeySource> all = sql.sources(local, beside ? "" : node.logSchema());
        Set<String> schemas = new HashSet<>();
        schemas.add(node.homeSchema().toLowerCase(Locale.ROOT));
        List<KeySource> out = new ArrayList<>();
        for (KeySource s : all) {
            if (s.feedsColumn() && node.isReplicated(s.schema(), s.table(), node.homeSchema())) {
                out.add(s);
                schemas.add(s.schema().toLowerCase(Locale.ROOT));
            }
        }
        for (KeySource s : all) {
            if (!s.feedsColumn() && schemas.contains(s.schema().toLowerCase(Locale.ROOT))
                    && !s.sequence().toLowerCase(Locale.ROOT).startsWith("repl_")) {
                out.add(s);
            }
        }
        return out;
    }
}
