package io.jdbcrepl.dialect.postgresql;

import io.jdbcrepl.apply.ApplierLock;
import io.jdbcrepl.apply.ApplierLocks;
import io.jdbcrepl.log.ChangeLogSchema;

import java.nio.ByteBuffer;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/** PostgreSQL: a session advisory lock, keyed by the first 8 bytes of the name's digest. */
final class PostgresApplierLocks implements ApplierLocks {

    @Override
    public Held tryAcquire(String name, Connection local, ApplierLock.ConnectionFactory connections, ChangeLogSchema log)
            throws SQLException {
        long key = ByteBuffer.wrap(ApplierLock.digest(name)).getLong();
        return ApplierLock.sessionLock(local, "SELECT pg_try_advisory_lock(?)", "SELECT pg_advisory_unlock(?)",
                ps -> ps.setLong(1, key));
    }

    /** pg_locks shows a bigint advisory lock as classid (high half), objid (low half), objsubid 1. */
    @Override
    public boolean held(String name, Connection local, ChangeLogSchema log) throws SQLException {
        long key = ByteBuffer.wrap(ApplierLock.digest(name)).getLong();
        try (PreparedStatement ps = local.prepareStatement("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory'"
                + " AND granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())"
                + " AND classid::bigint = ? AND objid::bigint = ? AND objsubid = 1")) {
            ps.setLong(1, key >>> 32);
            ps.setLong(2, key & 0xFFFFFFFFL);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1) > 0;
            }
        }
    }
}
