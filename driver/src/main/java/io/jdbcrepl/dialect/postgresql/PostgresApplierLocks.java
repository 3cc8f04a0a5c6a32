package io.jdbcrepl.dialect.postgresql;

import io.jdbcrepl.apply.ApplierLock;
import io.jdbcrepl.apply.ApplierLocks;
import io.jdbcrepl.log.ChangeLogSchema;

import java.nio.ByteBuffer;
import java.sql.Connection;
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
}
