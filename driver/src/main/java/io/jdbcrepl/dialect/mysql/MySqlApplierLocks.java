package io.jdbcrepl.dialect.mysql;

import io.jdbcrepl.apply.ApplierLock;
import io.jdbcrepl.apply.ApplierLocks;
import io.jdbcrepl.log.ChangeLogSchema;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HexFormat;

/** MySQL family: {@code GET_LOCK}, named by the name's digest (lock names are limited to 64 characters). */
final class MySqlApplierLocks implements ApplierLocks {

    @Override
    public Held tryAcquire(String name, Connection local, ApplierLock.ConnectionFactory connections, ChangeLogSchema log)
            throws SQLException {
        return ApplierLock.sessionLock(local, "SELECT GET_LOCK(?, 0) = 1", "SELECT RELEASE_LOCK(?)", ps -> ps.setString(1, key(name)));
    }

    @Override
    public boolean held(String name, Connection local, ChangeLogSchema log) throws SQLException {
        try (PreparedStatement ps = local.prepareStatement("SELECT IS_USED_LOCK(?) IS NOT NULL")) {
            ps.setString(1, key(name));
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getBoolean(1);
            }
        }
    }

    private static String key(String name) {
        return "repl_apply_" + HexFormat.of().formatHex(ApplierLock.digest(name)).substring(0, 40);
    }
}
