package io.jdbcrepl.node;

import io.jdbcrepl.capture.TableInfo;
import io.jdbcrepl.capture.pg.CapturePlan;
import io.jdbcrepl.capture.pg.PostgresCapture;
import io.jdbcrepl.capture.sql.Dml;
import io.jdbcrepl.intercept.Execution;
import io.jdbcrepl.intercept.GeneratedKeys;
import io.jdbcrepl.intercept.PrepareRequest;
import io.jdbcrepl.intercept.StatementInterceptor;
import io.jdbcrepl.intercept.StatementKind;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Savepoint;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.List;

/**
 * One captured statement on PostgreSQL: the real driver runs the plan's single rewritten statement.
 * When the application asks for generated keys, the plan ends in a SELECT of them, run with a
 * scrollable result so that the rows can be counted and then served by {@code getGeneratedKeys()}.
 */
final class PostgresStatementCapture implements StatementInterceptor {

    private final CapturePlan plan;
    private final Dml dml;
    private final TableInfo table;
    private final PostgresCapture planner;
    private final Node node;
    private final CaptureSession session;
    private ResultSet generatedKeys;
    private boolean keysRequested;
    /** The update count of an execute() that ran the keys plan; ASK_THE_STATEMENT otherwise. */
    private long updateCount = ASK_THE_STATEMENT;

    PostgresStatementCapture(CapturePlan plan, Dml dml, TableInfo table, PostgresCapture planner, Node node,
            CaptureSession session) {
        this.plan = plan;
        this.dml = dml;
        this.table = table;
        this.planner = planner;
        this.node = node;
        this.session = session;
    }

    @Override
    public String preparedSql(String applicationSql) {
        return plan.sql();
    }

    @Override
    public PreparedStatement prepare(PrepareRequest request) throws SQLException {
        if (!request.generatedKeys().requested() || request.kind() != StatementKind.PREPARED) {
            return request.prepare(plan.sql());
        }
        keysRequested = true;
        return request.connection().prepareStatement(keysPlan(request.generatedKeys()).sql(),
                ResultSet.TYPE_SCROLL_INSENSITIVE, ResultSet.CONCUR_READ_ONLY);
    }

    @Override
    public Object execute(Execution execution) throws SQLException {
        Object result = runOnce(execution);
        session.captured(execution.connection());
        return result;
    }

    private Object runOnce(Execution execution) throws SQLException {
        if (!plan.retriesOnConcurrentInsert()) return run(execution);
        // An upsert met a row another transaction inserted after its lock: its snapshot missed the
        // row's old values. Running it again (behind a savepoint in a transaction) sees the row.
        Connection connection = execution.connection();
        for (int attempt = 1; ; attempt++) {
            Savepoint savepoint = connection.getAutoCommit() ? null : connection.setSavepoint();
            try {
                Object result = run(execution);
                if (savepoint != null) connection.releaseSavepoint(savepoint);
                return result;
            } catch (SQLException e) {
                if (savepoint != null) connection.rollback(savepoint);
                if (attempt >= MAX_ATTEMPTS || !String.valueOf(e.getMessage()).contains(PostgresCapture.CONCURRENT_INSERT)) {
                    throw e;
                }
            }
        }
    }

    private static final int MAX_ATTEMPTS = 5;

    private Object run(Execution execution) throws SQLException {
        GeneratedKeys keys = execution.generatedKeys();
        if (execution.kind() == StatementKind.PLAIN) {
            if (keys.requested()) return withKeys(execution, prepareKeys(execution, keys));
            Statement s = execution.statement();
            return switch (execution.method()) {
                case EXECUTE -> s.execute(plan.sql());
                case EXECUTE_QUERY -> s.executeQuery(plan.sql());
                case EXECUTE_UPDATE -> s.executeUpdate(plan.sql());
                case EXECUTE_LARGE_UPDATE -> s.executeLargeUpdate(plan.sql());
            };
        }
        if (keys.requested()) return withKeys(execution, (PreparedStatement) execution.statement());
        return execution.proceed();
    }

    private PreparedStatement prepareKeys(Execution execution, GeneratedKeys keys) throws SQLException {
        PreparedStatement ps = execution.connection().prepareStatement(keysPlan(keys).sql(),
                ResultSet.TYPE_SCROLL_INSENSITIVE, ResultSet.CONCUR_READ_ONLY);
        ps.closeOnCompletion(); // closed with the keys' result set
        return ps;
    }

    /** Runs the keys plan, counts its rows and keeps them for getGeneratedKeys(). */
    private Object withKeys(Execution execution, PreparedStatement ps) throws SQLException {
        ResultSet rows = ps.executeQuery();
        int count = rows.last() ? rows.getRow() : 0;
        rows.beforeFirst();
        generatedKeys = rows;
        updateCount = execution.method() == io.jdbcrepl.intercept.ExecuteMethod.EXECUTE ? count : ASK_THE_STATEMENT;
        return switch (execution.method()) {
            case EXECUTE -> Boolean.FALSE;
            case EXECUTE_QUERY -> throw new SQLException("No results were returned by the query.", "02000");
            case EXECUTE_UPDATE -> count;
            case EXECUTE_LARGE_UPDATE -> (long) count;
        };
    }

    @Override
    public long updateCount() {
        return updateCount;
    }

    @Override
    public void moreResults() {
        updateCount = -1; // no more results: JDBC's "-1 and false"
    }

    /** Generated keys of a captured batch would need one result across its entries: refused, not wrong. */
    @Override
    public long[] executeBatch(io.jdbcrepl.intercept.PreparedBatch batch) throws SQLException {
        if (keysRequested) {
            throw new java.sql.SQLFeatureNotSupportedException("Generated keys of a batch on a replicated table are not"
                    + " supported yet (" + table.qualifiedName() + "): execute the entries one by one, or use"
                    + " INSERT ... RETURNING", "0A000");
        }
        long[] counts = batch.proceed();
        session.captured(batch.connection());
        return counts;
    }

    @Override
    public ResultSet generatedKeys(Statement statement) throws SQLException {
        return generatedKeys != null ? generatedKeys : statement.getGeneratedKeys();
    }

    private CapturePlan keysPlan(GeneratedKeys keys) throws SQLException {
        if (keys.columnIndexes() != null) {
            throw new SQLException("Returning autogenerated keys by column index is not supported.", "0A000");
        }
        List<String> columns = keys.columnNames() == null ? List.of() : Arrays.asList(keys.columnNames());
        return planner.planReturning(dml, table, node.settings(table), columns);
    }
}
