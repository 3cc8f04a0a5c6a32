package io.jdbcrepl.capture.session;

import io.jdbcrepl.intercept.Execution;
import io.jdbcrepl.intercept.PrepareRequest;
import io.jdbcrepl.intercept.PreparedBatch;
import io.jdbcrepl.intercept.StatementInterceptor;
import io.jdbcrepl.metrics.NodeMetrics;
import io.jdbcrepl.metrics.ReplMetrics;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * A captured statement, counted in the node's metrics (SPEC 8.5): its executions, the rows they
 * report changed (one LCR each; a statement that returns rows, such as one with RETURNING, counts
 * as a statement only) and the time they take, the statement itself included.
 */
final class MeasuredCapture implements StatementInterceptor {

    private final StatementInterceptor capture;
    private final NodeMetrics metrics;

    MeasuredCapture(StatementInterceptor capture, NodeMetrics metrics) {
        this.capture = capture;
        this.metrics = metrics;
    }

    @Override
    public Object execute(Execution execution) throws SQLException {
        if (!ReplMetrics.counting()) return capture.execute(execution);
        long start = System.nanoTime();
        Object result = capture.execute(execution);
        long nanos = System.nanoTime() - start;
        long rows = result instanceof Number n ? n.longValue()
                : Boolean.FALSE.equals(result) ? updateCount(execution.statement()) : 0;
        metrics.captured(1, Math.max(0, rows), nanos);
        return result;
    }

    private long updateCount(Statement statement) throws SQLException {
        long own = capture.updateCount();
        return own != ASK_THE_STATEMENT ? own : statement.getLargeUpdateCount();
    }

    @Override
    public long[] executeBatch(PreparedBatch batch) throws SQLException {
        if (!ReplMetrics.counting()) return capture.executeBatch(batch);
        long start = System.nanoTime();
        long[] counts = capture.executeBatch(batch);
        metrics.captured(counts.length, rows(counts), System.nanoTime() - start);
        return counts;
    }

    /** The rows a batch reports changed; an entry that does not say ({@link Statement#SUCCESS_NO_INFO}) counts none. */
    static long rows(long[] counts) {
        long sum = 0;
        for (long c : counts) sum += Math.max(0, c);
        return sum;
    }

    @Override
    public String preparedSql(String applicationSql) {
        return capture.preparedSql(applicationSql);
    }

    @Override
    public PreparedStatement prepare(PrepareRequest request) throws SQLException {
        return capture.prepare(request);
    }

    @Override
    public ResultSet resultSet(Statement statement) throws SQLException {
        return capture.resultSet(statement);
    }

    @Override
    public ResultSet generatedKeys(Statement statement) throws SQLException {
        return capture.generatedKeys(statement);
    }

    @Override
    public long updateCount() {
        return capture.updateCount();
    }

    @Override
    public void moreResults() {
        capture.moreResults();
    }

    @Override
    public boolean needsParameters() {
        return capture.needsParameters();
    }
}
