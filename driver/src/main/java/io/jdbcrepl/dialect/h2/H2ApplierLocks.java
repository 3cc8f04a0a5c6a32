package io.jdbcrepl.dialect.h2;

import io.jdbcrepl.apply.ApplierLock;
import io.jdbcrepl.apply.ApplierLocks;
import io.jdbcrepl.apply.SqlErrors;
import io.jdbcrepl.log.ChangeLogSchema;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * H2 has no session lock: a row of {@code repl_apply_lock} kept locked by a transaction left open
 * on a connection of its own, which closing frees.
 */
final class H2ApplierLocks implements ApplierLocks {

    @Override
    public Held tryAcquire(String name, Connection local, ApplierLock.ConnectionFactory connections, ChangeLogSchema log)
            throws SQLException {
        Connection c = connections.open();
        try {
            c.setAutoCommit(true);
            try (Statement s = c.createStatement()) {
                s.execute("SET LOCK_TIMEOUT 50");
            }
            try (PreparedStatement ps = c.prepareStatement("MERGE INTO " + log.table("repl_apply_lock") + " (name) KEY (name) VALUES (?)")) {
                ps.setString(1, name);
                ps.executeUpdate();
            }
            c.setAutoCommit(false);
            try (PreparedStatement ps = c.prepareStatement("SELECT name FROM " + log.table("repl_apply_lock")
                    + " WHERE name = ? FOR UPDATE")) {
                ps.setString(1, name);
                ps.executeQuery().close();
            }
            return () -> {
                try {
                    c.close();
                } catch (SQLException ignored) {
                    // gone already
                }
            };
        } catch (SQLException e) {
            c.close();
            if (SqlErrors.transientError(e)) return null; // another applier holds it
            throw e;
        }
    }

    /** The lock's row exists and SKIP LOCKED passes over it; a free row is locked for an instant and let go. */
    @Override
    public boolean held(String name, Connection local, ChangeLogSchema log) throws SQLException {
        boolean autoCommit = local.getAutoCommit();
        local.setAutoCommit(false);
        try (PreparedStatement exists = local.prepareStatement("SELECT count(*) FROM " + log.table("repl_apply_lock")
                    + " WHERE name = ?");
                PreparedStatement free = local.prepareStatement("SELECT name FROM " + log.table("repl_apply_lock")
                    + " WHERE name = ? FOR UPDATE SKIP LOCKED")) {
            exists.setString(1, name);
            try (ResultSet rs = exists.executeQuery()) {
                rs.next();
                if (rs.getLong(1) == 0) return false;
            }
            free.setString(1, name);
            try (ResultSet rs = free.executeQuery()) {
                return !rs.next();
            }
        } finally {
            local.rollback();
            local.setAutoCommit(autoCommit);
        }
    }
}
