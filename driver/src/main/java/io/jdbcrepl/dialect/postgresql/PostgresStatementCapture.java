package io.jdbcrepl.dialect.postgresql;

import io.jdbcrepl.capture.ConcatenatedResultSet;
import io.jdbcrepl.capture.TableInfo;
import io.jdbcrepl.capture.session.CaptureSession;
import io.jdbcrepl.sql.Dml;
import io.jdbcrepl.intercept.BoundParameter;
import io.jdbcrepl.intercept.Execution;
import io.jdbcrepl.intercept.GeneratedKeys;
import io.jdbcrepl.intercept.PrepareRequest;
import io.jdbcrepl.intercept.PreparedBatch;
import io.jdbcrepl.intercept.SqlState;
import io.jdbcrepl.intercept.StatementInterceptor;
import io.jdbcrepl.intercept.StatementKind;
import io.jdbcrepl.node.Node;

import java.sql.BatchUpdateException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Savepoint;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One captured statement on PostgreSQL: the real driver runs the plan's single rewritten statement.
 * When the application asks for generated keys, the plan ends in a SELECT of them, run with a
 * scrollable result so that the rows can be counted and then served by {@code getGeneratedKeys()};
 * a batch of such a statement runs entry by entry, as pgjdbc runs it, and serves every entry's keys
 * in order.
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
    /** The generated keys the prepare asked for. */
    private GeneratedKeys preparedKeys = GeneratedKeys.NONE;
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
        preparedKeys = request.generatedKeys();
        return request.connection().prepareStatement(keysPlan(request.generatedKeys()).sql(),
                ResultSet.TYPE_SCROLL_INSENSITIVE, ResultSet.CONCUR_READ_ONLY);
    }

    @Override
    public boolean needsParameters() {
        return keysRequested; // a batch with keys rebinds each entry's parameters
    }

    @Override
    public Object execute(Execution execution) throws SQLException {
        Object result;
        try {
            result = retrying(execution.connection(), () -> run(execution));
        } catch (SQLException e) {
            throw largeObjectNotVisible(e);
        }
        session.captured(execution.connection());
        return result;
    }

    /**
     * An upsert met a row another transaction inserted after its lock: its snapshot missed the
     * row's old values. Running it again (behind a savepoint in a transaction) sees the row.
     */
    private <T> T retrying(Connection connection, Attempt<T> attempt) throws SQLException {
        if (!plan.retriesOnConcurrentInsert()) return attempt.run();
        for (int n = 1; ; n++) {
            Savepoint savepoint = connection.getAutoCommit() ? null : connection.setSavepoint();
            try {
                T result = attempt.run();
                if (savepoint != null) connection.releaseSavepoint(savepoint);
                return result;
            } catch (SQLException e) {
                if (savepoint != null) connection.rollback(savepoint);
                if (!String.valueOf(e.getMessage()).contains(PostgresCapture.CONCURRENT_INSERT)) throw e;
                if (n >= MAX_ATTEMPTS) {
                    // a serialization failure, as PostgreSQL says it: the application runs its transaction again
                    throw SqlState.SERIALIZATION_FAILURE.exception(
                            "INSERT … ON CONFLICT on " + table.qualifiedName() + ": concurrent inserts of"
                            + " the same key got in first " + n + " times while it was captured; run the transaction"
                            + " again", e);
                }
            }
        }
    }

    /**
     * A large object that the statement itself created (an INSERT of {@code lo_from_bytea(…)}) is not
     * in the statement's snapshot, where capture reads its content: PostgreSQL says it does not exist.
     * Said as what it is, with the table's large object columns and the way out.
     */
    private SQLException largeObjectNotVisible(SQLException e) {
        List<String> columns = table.columns().stream().filter(io.jdbcrepl.capture.ColumnInfo::isLargeObject)
                .map(io.jdbcrepl.capture.ColumnInfo::name).toList();
        if (columns.isEmpty() || !SqlState.UNDEFINED_OBJECT.is(e.getSQLState())
                || !String.valueOf(e.getMessage()).contains("large object")) {
            return e;
        }
        SQLException refused = new io.jdbcrepl.capture.CaptureException("Table " + table.qualifiedName()
                + ", large object column " + String.join(", ", columns) + ": the statement names an object it creates"
                + " itself, or one that does not exist (" + e.getMessage() + "); capture reads an object's content in the"
                + " statement's snapshot, which does not hold objects the statement creates: create the object in an"
                + " earlier statement (SELECT lo_from_bytea(0, ?), lo_create, pgjdbc's setBlob) and store its number");
        refused.initCause(e);
        return refused;
    }

    @FunctionalInterface
    private interface Attempt<T> {
        T run() throws SQLException;
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
            case EXECUTE_QUERY -> throw SqlState.NO_DATA.exception("No results were returned by the query.");
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

    @Override
    public long[] executeBatch(PreparedBatch batch) throws SQLException {
        if (keysRequested) return batchWithKeys(batch);
        long[] counts = batch.proceed();
        session.captured(batch.connection());
        return counts;
    }

    /**
     * As pgjdbc runs a batch that returns generated keys: entry by entry, each its own transaction
     * in auto-commit mode, so the entries before a failing one stay done and keep their keys; in a
     * transaction a failure marks every entry failed. The keys are every entry's rows, in order.
     */
    private long[] batchWithKeys(PreparedBatch batch) throws SQLException {
        batch.statement().clearBatch(); // the real statement's copy of the batch never runs
        generatedKeys = null;
        Connection connection = batch.connection();
        String sql = keysPlan(preparedKeys).sql();
        List<List<BoundParameter>> sets = batch.parameterSets();
        List<ResultSet> results = new ArrayList<>();
        long[] counts = new long[sets.size()];
        for (int i = 0; i < sets.size(); i++) {
            PreparedStatement ps = connection.prepareStatement(sql, ResultSet.TYPE_SCROLL_INSENSITIVE,
                    ResultSet.CONCUR_READ_ONLY);
            try {
                for (BoundParameter p : sets.get(i)) p.bindTo(ps, p.index());
                ResultSet rows = retrying(connection, ps::executeQuery);
                ps.closeOnCompletion(); // closed with its part of the keys
                counts[i] = rows.last() ? rows.getRow() : 0;
                rows.beforeFirst();
                results.add(rows);
            } catch (SQLException e) {
                ps.close();
                throw batchFailure(batch, connection, counts, i, results, e);
            }
        }
        if (!results.isEmpty()) generatedKeys = ConcatenatedResultSet.of(results);
        session.captured(connection);
        return counts;
    }

    private BatchUpdateException batchFailure(PreparedBatch batch, Connection connection, long[] counts, int failed,
            List<ResultSet> results, SQLException cause) throws SQLException {
        long[] reported = new long[counts.length];
        Arrays.fill(reported, Statement.EXECUTE_FAILED);
        if (connection.getAutoCommit()) {
            System.arraycopy(counts, 0, reported, 0, failed);
            if (!results.isEmpty()) generatedKeys = ConcatenatedResultSet.of(results);
            if (failed > 0) session.captured(connection); // the entries before it committed
        } else if (!results.isEmpty()) {
            // pgjdbc: no keys, but the keys' columns
            for (ResultSet r : results.subList(1, results.size())) r.close();
            results.get(0).afterLast();
            generatedKeys = results.get(0);
        }
        BatchUpdateException e = new BatchUpdateException("Batch entry " + failed + " " + batch.sql() + " was aborted: "
                + cause.getMessage() + "  Call getNextException to see other errors in the batch.", cause.getSQLState(),
                cause.getErrorCode(), reported, cause);
        e.setNextException(cause);
        return e;
    }

    @Override
    public ResultSet generatedKeys(Statement statement) throws SQLException {
        return generatedKeys != null ? generatedKeys : statement.getGeneratedKeys();
    }

    private CapturePlan keysPlan(GeneratedKeys keys) throws SQLException {
        if (dml == null) {
            throw SqlState.REFUSED.exception("Generated keys of a statement with data-modifying WITH queries are not"
                    + " captured on replicated table " + table.qualifiedName() + ": write RETURNING in the statement");
        }
        if (keys.columnIndexes() != null) {
            throw SqlState.REFUSED.exception("Returning autogenerated keys by column index is not supported.");
        }
        List<String> columns = keys.columnNames() == null ? List.of() : Arrays.asList(keys.columnNames());
        return planner.planReturning(dml, table, node.settings(table), columns);
    }
}
