package io.jdbcrepl.proxy;

import io.jdbcrepl.intercept.GeneratedKeys;
import io.jdbcrepl.intercept.StatementInterceptor;
import io.jdbcrepl.intercept.StatementKind;

import java.sql.CallableStatement;

/** The intercepted part of {@link CallableStatement}: all of it is inherited or generated. */
public abstract class CallableStatementProxy extends PreparedStatementProxy implements CallableStatement {

    final CallableStatement csDelegate;

    protected CallableStatementProxy(ConnectionProxy connection, CallableStatement delegate, String sql,
            StatementInterceptor interceptor) {
        super(connection, delegate, sql, interceptor, GeneratedKeys.NONE);
        this.csDelegate = delegate;
    }

    @Override
    StatementKind statementKind() {
        return StatementKind.CALLABLE;
    }

    @Override
    String kindName() {
        return "CallableStatement[" + sql + "]";
    }
}
