package io.jdbcrepl.proxy;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.Statement;
import java.sql.SQLException;

/** The intercepted part of {@link DatabaseMetaData}: it leads back to the connection proxy. */
public abstract class DatabaseMetaDataProxy implements DatabaseMetaData {

    final ConnectionProxy connection;
    final DatabaseMetaData delegate;

    protected DatabaseMetaDataProxy(ConnectionProxy connection, DatabaseMetaData delegate) {
        this.connection = connection;
        this.delegate = delegate;
    }

    @Override
    public Connection getConnection() throws SQLException {
        return delegate.getConnection() == null ? null : connection;
    }

    /**
     * Wraps a metadata result set (the generated class calls this for every method returning one),
     * so that {@code getStatement().getConnection()} leads back to the connection proxy.
     */
    final ResultSet wrapResult(ResultSet raw) throws SQLException {
        if (raw == null) return null;
        Statement statement = raw.getStatement();
        StatementProxy owner = statement == null ? null : (StatementProxy) ProxyFactory.statement(connection, statement);
        return ProxyFactory.resultSet(owner, raw);
    }

    @Override
    public <T> T unwrap(Class<T> iface) throws SQLException {
        if (iface.isInstance(this)) return iface.cast(this);
        if (iface.isInstance(delegate)) return iface.cast(delegate);
        return delegate.unwrap(iface);
    }

    @Override
    public boolean isWrapperFor(Class<?> iface) throws SQLException {
        return iface.isInstance(this) || iface.isInstance(delegate) || delegate.isWrapperFor(iface);
    }

    @Override
    public final boolean equals(Object other) {
        return other instanceof DatabaseMetaDataProxy p && p.delegate == delegate;
    }

    @Override
    public final int hashCode() {
        return System.identityHashCode(delegate);
    }

    @Override
    public String toString() {
        return "ReplDatabaseMetaData wrapping " + delegate.getClass().getName() + ": " + delegate;
    }
}
