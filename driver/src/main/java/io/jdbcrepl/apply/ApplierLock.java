package io.jdbcrepl.apply;

import io.jdbcrepl.dialect.Dialect;
import io.jdbcrepl.log.ChangeLogSchema;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * One applier per (source, destination) across JVMs (SPEC 4.3): a lock the database frees when the
 * holder's session dies, held the database's way ({@link ApplierLocks}).
 */
public final class ApplierLock implements AutoCloseable {

    private final ApplierLocks locks;
    private final String name;
    private final ChangeLogSchema schema;
    private ApplierLocks.Held held;

    ApplierLock(Dialect dialect, ChangeLogSchema schema, String localSchema, String source) {
        this.locks = dialect.part(ApplierLocks.class);
        this.schema = schema;
        this.name = name(localSchema, source);
    }

    private static String name(String localSchema, String source) {
        return "jdbc:repl apply " + localSchema + " " + source;
    }

    /**
     * Whether an applier from {@code source}, in this process or any other, holds the lock now: what
     * {@code status} and {@code wait} read, whichever process runs the applier.
     */
    static boolean held(Dialect dialect, ChangeLogSchema schema, String localSchema, String source, Connection local)
            throws SQLException {
        return dialect.part(ApplierLocks.class).held(name(localSchema, source), local, schema);
    }

    /** Takes the lock without waiting; {@code local} is the applier's own connection (autocommit off). */
    boolean tryAcquire(Connection local, ConnectionFactory connections) throws SQLException {
        held = locks.tryAcquire(name, local, connections, schema);
        return held != null;
    }

    /**
     * A lock of {@code local}'s session: {@code tryLock} (a query whose one row says whether it was
     * taken) takes it, {@code unlock} frees it, each with the one parameter {@code key} binds. Freed
     * explicitly on close: the database would free it with the session too, but only once the server
     * has noticed the connection's end, and a new session of this JVM, or another applier, would find
     * it still taken for a while.
     */
    public static ApplierLocks.Held sessionLock(Connection local, String tryLock, String unlock, Binder key)
            throws SQLException {
        boolean taken;
        try (PreparedStatement ps = local.prepareStatement(tryLock)) {
            key.bind(ps);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                taken = rs.getBoolean(1);
            }
        }
        local.commit();
        if (!taken) return null;
        return () -> {
            try (PreparedStatement ps = local.prepareStatement(unlock)) {
                local.rollback(); // nothing uncommitted survives the session anyway
                key.bind(ps);
                ps.executeQuery().close();
                local.commit();
            } catch (SQLException broken) {
                // the connection is gone: so is its session, and the lock with it
            }
        };
    }

    /** Binds a lock's key. */
    public interface Binder {
        void bind(PreparedStatement ps) throws SQLException;
    }

    /** The SHA-256 of a lock's name: a key of the size the database takes, the same in every JVM. */
    public static byte[] digest(String name) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(name.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Frees the lock. */
    @Override
    public void close() {
        if (held != null) {
            held.release();
            held = null;
        }
    }

    /** Opens a connection to this node's database. */
    public interface ConnectionFactory {
        Connection open() throws SQLException;
    }
}
