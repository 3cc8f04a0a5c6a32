package io.jdbcrepl.proxy;

import io.jdbcrepl.intercept.BoundParameter;
import io.jdbcrepl.intercept.ExecuteMethod;
import io.jdbcrepl.intercept.Execution;
import io.jdbcrepl.intercept.GeneratedKeys;
import io.jdbcrepl.intercept.StatementKind;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/** One intercepted execution, handed to a {@link io.jdbcrepl.intercept.StatementInterceptor}. */
record StatementExecution(String sql, StatementKind kind, ExecuteMethod method, GeneratedKeys generatedKeys,
        Statement statement, Connection connection, Connection applicationConnection, List<BoundParameter> parameters,
        SqlCall realCall)
        implements Execution {

    @Override
    public Object proceed() throws SQLException {
        return realCall.call();
    }
}
