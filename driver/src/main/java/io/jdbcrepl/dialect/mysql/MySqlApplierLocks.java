package io.jdbcrepl.dialect.mysql;

import io.jdbcrepl.apply.ApplierLock;
import io.jdbcrepl.apply.ApplierLocks;
import io.jdbcrepl.log.ChangeLogSchema;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.HexFormat;

/** MySQL family: {@code GET_LOCK}, named by the name's digest (lock names are limited to 64 characters). */
final class MySqlApplierLocks implements ApplierLocks {

    @Override
    public Held tryAcquire(String name, Connection local, ApplierLock.ConnectionFactory connections, ChangeLogSchema log)
            throws SQLException {
        String key = "repl_apply_" + HexFormat.of().formatHex(ApplierLock.digest(name)).substring(0, 40);
        return ApplierLock.sessionLock(local, "SELECT GET_LOCK(?, 0) = 1", "SELECT RELEASE_LOCK(?)", ps -> ps.setString(1, key));
    }
}
