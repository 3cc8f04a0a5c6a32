package io.jdbcrepl.apply;

import io.jdbcrepl.capture.sql.Dialect;
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

    ApplierLock(Dialect dialect, ChangeLogSchema schema, String localSchema, String source) {
        this.dialect = dialect;
        this.schema = schema;
        this.name = "jdbc:repl apply " + localSchema + " " + source;
    }

    /** Takes the lock without waiting; {@code local} is the applier's own connection (autocommit off). */
    boolean tryAcquire(Connection local, ConnectionFactory h2Connections) throws SQLException {
        switch (dialect) {
            case POSTGRESQL -> {
                try (PreparedStatement ps = local.prepareStatement("SELECT pg_try_advisory_lock(?)")) {
                    ps.setLong(1, ByteBuffer.wrap(digest()).getLong());
                    return first(ps, local);
                }
            }
            case MYSQL -> {
                try (PreparedStatement ps = local.prepareStatement("SELECT GET_LOCK(?, 0) = 1")) {
                    ps.setString(1, "repl_apply_" + HexFormat.of().formatHex(digest()).substring(0, 40));
                    return first(ps, local);
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

    private byte[] digest() {
        try {
            return MessageDigest.getInstance("SHA-256").digest(name.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Frees an H2 lock; the session locks of PostgreSQL and MariaDB go with the applier's connection. */
    @Override
    public void close() {
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
