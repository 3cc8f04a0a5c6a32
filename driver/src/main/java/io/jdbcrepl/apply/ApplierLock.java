package io.jdbcrepl.apply;

import io.jdbcrepl.dialect.Dialect;
import io.jdbcrepl.log.ChangeLogSchema;

import java.nio.charset.StandardCharsets;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HexFormat;

/**
 * One applier per (source, destination) across JVMs (SPEC 4.3): a lock the database frees when the
 * holder's session dies. PostgreSQL: a session advisory lock; MariaDB/MySQL: {@code GET_LOCK};
 * H2: a row of {@code repl_apply_lock} kept locked by a transaction left open on its own connection.
 */
final class ApplierLock implements AutoCloseable {

    private final Dialect dialect;
    private final String name;
    private final ChangeLogSchema schema;
    private Connection h2Holder;
    /** The connection holding a PostgreSQL or MariaDB session lock, to free it explicitly. */
    private Connection sessionHolder;

    ApplierLock(Dialect dialect, ChangeLogSchema schema, String localSchema, String source) {
        this.dialect = dialect;
        this.schema = schema;
        this.name = "jdbc:repl apply " + localSchema + " " + source;
    }

    /** Takes the lock without waiting; {@code local} is the applier's own connection (autocommit off). */
    boolean tryAcquire(Connection local, ConnectionFactory h2Connections) throws SQLException {
        switch (dialect.kind()) {
            case POSTGRESQL -> {
                try (PreparedStatement ps = local.prepareStatement("SELECT pg_try_advisory_lock(?)")) {
                    ps.setLong(1, ByteBuffer.wrap(digest()).getLong());
                    return held(first(ps, local), local);
                }
            }
            case MYSQL -> {
                try (PreparedStatement ps = local.prepareStatement("SELECT GET_LOCK(?, 0) = 1")) {
                    ps.setString(1, mysqlName());
                    return held(first(ps, local), local);
                }
            }
            default -> {
                Connection c = h2Connections.open();
                try {
                    c.setAutoCommit(true);
                    try (Statement s = c.createStatement()) {
                        s.execute("SET LOCK_TIMEOUT 50");
                    }
                    try (PreparedStatement ps = c.prepareStatement("MERGE INTO " + schema.table("repl_apply_lock")
                            + " (name) KEY (name) VALUES (?)")) {
                        ps.setString(1, name);
                        ps.executeUpdate();
                    }
                    c.setAutoCommit(false);
                    try (PreparedStatement ps = c.prepareStatement("SELECT name FROM " + schema.table("repl_apply_lock")
                            + " WHERE name = ? FOR UPDATE")) {
                        ps.setString(1, name);
                        ps.executeQuery().close();
                    }
                    h2Holder = c;
                    return true;
                } catch (SQLException e) {
                    c.close();
                    if (SqlErrors.transientError(e)) return false; // another applier holds it
                    throw e;
                }
            }
        }
    }

    private static boolean first(PreparedStatement ps, Connection local) throws SQLException {
        boolean taken;
        try (ResultSet rs = ps.executeQuery()) {
            rs.next();
            taken = rs.getBoolean(1);
        }
        local.commit();
        return taken;
    }

    private boolean held(boolean taken, Connection local) {
        if (taken) sessionHolder = local;
        return taken;
    }

    private String mysqlName() {
        return "repl_apply_" + HexFormat.of().formatHex(digest()).substring(0, 40);
    }

    private byte[] digest() {
        try {
            return MessageDigest.getInstance("SHA-256").digest(name.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Frees the lock. PostgreSQL and MariaDB would free theirs with the session too, but only once
     * the server has noticed the connection's end: a new session of this JVM, or another applier,
     * would find it still taken for a while.
     */
    @Override
    public void close() {
        if (sessionHolder != null) {
            String sql = dialect.kind() == Dialect.Kind.POSTGRESQL ? "SELECT pg_advisory_unlock(?)" : "SELECT RELEASE_LOCK(?)";
            try (PreparedStatement ps = sessionHolder.prepareStatement(sql)) {
                sessionHolder.rollback(); // nothing uncommitted survives the session anyway
                if (dialect.kind() == Dialect.Kind.POSTGRESQL) ps.setLong(1, ByteBuffer.wrap(digest()).getLong());
                else ps.setString(1, mysqlName());
                ps.executeQuery().close();
                sessionHolder.commit();
            } catch (SQLException broken) {
                // the connection is gone: so is its session, and the lock with it
            }
            sessionHolder = null;
        }
        if (h2Holder != null) {
            try {
                h2Holder.close();
            } catch (SQLException ignored) {
                // gone already
            }
            h2Holder = null;
        }
    }

    interface ConnectionFactory {
        Connection open() throws SQLException;
    }
}
