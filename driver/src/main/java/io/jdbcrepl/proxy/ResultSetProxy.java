package io.jdbcrepl.proxy;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/** The intercepted part of {@link ResultSet}: it leads back to the statement proxy. */
public abstract class ResultSetProxy implements ResultSet {

    final StatementProxy statement;
    final ResultSet delegate;

    protected ResultSetProxy(StatementProxy statement, ResultSet delegate) {
        this.statement = statement;
        this.delegate = delegate;
    }

    @Override
    public Statement getStatement() throws SQLException {
        // Null where the real driver has none (MariaDB's generated keys, some metadata results).
        return delegate.getStatement() == null ? null : statement;
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
        return other instanceof ResultSetProxy p && p.delegate == delegate;
    }

    @Override
    public final int hashCode() {
        return System.identityHashCode(delegate);
    }

    @Override
    public String toString() {
        return "ReplResultSet wrapping " + delegate.getClass().getName() + ": " + delegate;
    }
}
