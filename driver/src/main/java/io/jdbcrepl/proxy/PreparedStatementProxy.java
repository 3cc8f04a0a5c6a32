package io.jdbcrepl.proxy;

import io.jdbcrepl.intercept.BoundParameter;
import io.jdbcrepl.intercept.ExecuteMethod;
import io.jdbcrepl.intercept.GeneratedKeys;
import io.jdbcrepl.intercept.ParameterLog;
import io.jdbcrepl.intercept.PreparedBatch;
import io.jdbcrepl.intercept.Setter;
import io.jdbcrepl.intercept.StatementInterceptor;
import io.jdbcrepl.intercept.StatementKind;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * The intercepted part of {@link PreparedStatement}; {@link ProxyFactory} generates the rest. The
 * statement was planned once, at prepare time: executions only bind and run.
 */
public abstract class PreparedStatementProxy extends StatementProxy implements PreparedStatement {

    final PreparedStatement psDelegate;
    final String sql;
    /** Null when the statement is left to the real driver. */
    final StatementInterceptor interceptor;
    final GeneratedKeys generatedKeys;
    /** Non-null only when the interceptor needs the bound parameters (the recording subclass). */
    final ParameterLog parameterLog;
    /** Number of addBatch() calls, kept for interceptors that do not need the parameters. */
    private int batchSize;

    protected PreparedStatementProxy(ConnectionProxy connection, PreparedStatement delegate, String sql,
            StatementInterceptor interceptor, GeneratedKeys generatedKeys) {
        super(connection, delegate);
        this.psDelegate = delegate;
        this.sql = sql;
        this.interceptor = interceptor;
        this.generatedKeys = generatedKeys;
        this.parameterLog = interceptor != null && interceptor.needsParameters() ? new ParameterLog() : null;
    }

    /** Called by the generated recording subclass after each successful parameter setter. */
    final void recordParameter(Setter setter, Object[] arguments) {
        parameterLog.record(setter, arguments);
    }

    @Override
    StatementInterceptor generatedKeysInterceptor() {
        return interceptor;
    }

    StatementKind statementKind() {
        return StatementKind.PREPARED;
    }

    @Override
    public ResultSet executeQuery() throws SQLException {
        if (interceptor == null) return wrap(psDelegate.executeQuery());
        return wrap((ResultSet) prepared(ExecuteMethod.EXECUTE_QUERY, psDelegate::executeQuery));
    }

    @Override
    public boolean execute() throws SQLException {
        if (interceptor == null) return psDelegate.execute();
        return (Boolean) prepared(ExecuteMethod.EXECUTE, psDelegate::execute);
    }

    @Override
    public int executeUpdate() throws SQLException {
        if (interceptor == null) return psDelegate.executeUpdate();
        return (Integer) prepared(ExecuteMethod.EXECUTE_UPDATE, psDelegate::executeUpdate);
    }

    @Override
    public long executeLargeUpdate() throws SQLException {
        if (interceptor == null) return psDelegate.executeLargeUpdate();
        return (Long) prepared(ExecuteMethod.EXECUTE_LARGE_UPDATE, psDelegate::executeLargeUpdate);
    }

    private Object prepared(ExecuteMethod method, SqlCall call) throws SQLException {
        List<BoundParameter> parameters = parameterLog == null ? List.of() : parameterLog.current();
        return interceptor.execute(new StatementExecution(sql, statementKind(), method, generatedKeys, psDelegate,
                connection.delegate, connection, parameters, call));
    }

    @Override
    public void clearParameters() throws SQLException {
        psDelegate.clearParameters();
        if (parameterLog != null) parameterLog.clear();
    }

    // ---- batches: parameters snapshotted at addBatch

    @Override
    public void addBatch() throws SQLException {
        psDelegate.addBatch();
        batchSize++;
        if (parameterLog != null) parameterLog.addBatch();
    }

    @Override
    public void clearBatch() throws SQLException {
        psDelegate.clearBatch();
        resetBatch();
    }

    private void resetBatch() {
        batchSize = 0;
        if (parameterLog != null) parameterLog.clearBatch();
    }

    @Override
    public int[] executeBatch() throws SQLException {
        if (interceptor == null) return psDelegate.executeBatch();
        return toIntCounts(runPreparedBatch(false));
    }

    @Override
    public long[] executeLargeBatch() throws SQLException {
        if (interceptor == null) return psDelegate.executeLargeBatch();
        return runPreparedBatch(true);
    }

    private long[] runPreparedBatch(boolean large) throws SQLException {
        List<List<BoundParameter>> sets;
        if (parameterLog != null) {
            sets = parameterLog.batch();
        } else {
            sets = new ArrayList<>(batchSize);
            for (int i = 0; i < batchSize; i++) sets.add(List.of());
        }
        resetBatch(); // JDBC: the batch is emptied whatever the outcome
        return interceptor.executeBatch(new ParameterBatch(sql, sets, large, psDelegate, connection.delegate));
    }

    /** A prepared batch as the interceptor sees it. */
    private record ParameterBatch(String sql, List<List<BoundParameter>> parameterSets, boolean large,
            PreparedStatement statement, Connection connection) implements PreparedBatch {
        @Override
        public long[] proceed() throws SQLException {
            return large ? statement.executeLargeBatch() : toLongCounts(statement.executeBatch());
        }
    }

    @Override
    String kindName() {
        return "PreparedStatement[" + sql + "]";
    }
}
