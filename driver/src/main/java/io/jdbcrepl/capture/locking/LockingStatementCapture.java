package io.jdbcrepl.capture.locking;

import io.jdbcrepl.dialect.Dialect;
import io.jdbcrepl.intercept.BoundParameter;
import io.jdbcrepl.intercept.Execution;
import io.jdbcrepl.intercept.GeneratedKeys;
import io.jdbcrepl.intercept.PreparedBatch;
import io.jdbcrepl.intercept.SqlState;
import io.jdbcrepl.intercept.StatementInterceptor;
import io.jdbcrepl.lcr.CommandType;
import io.jdbcrepl.node.Node;

import java.sql.BatchUpdateException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * One captured statement on MariaDB/MySQL or H2: the application's statement never runs; the
 * driver's own statements of the {@link LockingPlan} do, on the real connection, with the
 * application's recorded parameters rebound. In auto-commit mode each execution is one transaction
 * of its own (changes, LCRs and stamp), so the application still sees one atomic statement.
 */
public final class LockingStatementCapture implements StatementInterceptor {

    private final LockingPlan plan;
    private final Node node;
    private final LockingTransaction transaction;
    private final String logTable;
    private final LockingCapabilities capabilities;
    private ResultSet generatedKeys;
    /** The rows of the application's own RETURNING, of the last execution (null when it has none). */
    private ResultSet result;
    /** What getUpdateCount() answers after the last execution: its count, or -1 once a result was moved past. */
    private long updateCount = ASK_THE_STATEMENT;
    /** The generated keys the prepare asked for (a batch's entries have no request of their own). */
    private GeneratedKeys preparedKeys = GeneratedKeys.NONE;
    private final GeneratedKeyRows keyRows = new GeneratedKeyRows();

    public LockingStatementCapture(LockingPlan plan, Node node, LockingTransaction transaction) {
        this.plan = plan;
        this.node = node;
        this.transaction = transaction;
        this.logTable = node.changeLog().table("repl_log");
        this.capabilities = node.dialect().part(LockingSql.class).capabilities();
    }

    @Override
    public boolean needsParameters() {
        return true;
    }

    @Override
    public java.sql.PreparedStatement prepare(io.jdbcrepl.intercept.PrepareRequest request) throws SQLException {
        preparedKeys = request.generatedKeys();
        return request.prepare(request.sql());
    }

    @Override
    public Object execute(Execution execution) throws SQLException {
        forgetKeys();
        if (execution.method() == io.jdbcrepl.intercept.ExecuteMethod.EXECUTE_QUERY && capabilities.strictResultKinds()) {
            // MySQL Connector/J refuses before running, whatever the statement returns
            throw SqlState.ILLEGAL_ARGUMENT.exception(
                    "Statement.executeQuery() cannot issue statements that do not produce result sets.");
        }
        long count = run(execution.connection(), execution.parameters(), execution.generatedKeys());
        if (execution.generatedKeys().requested()) generatedKeys = keys(execution.connection(), execution.generatedKeys());
        if (result != null) {
            // A RETURNING of the application's: a result set, as MariaDB's own
            updateCount = -1;
            return switch (execution.method()) {
                case EXECUTE -> Boolean.TRUE;
                case EXECUTE_QUERY -> result;
                case EXECUTE_UPDATE, EXECUTE_LARGE_UPDATE -> unexpectedResult(execution.method(), count);
            };
        }
        updateCount = count;
        return switch (execution.method()) {
            case EXECUTE -> Boolean.FALSE;
            case EXECUTE_QUERY -> throw SqlState.NO_DATA.exception("The statement returned no result set: " + execution.sql());
            case EXECUTE_UPDATE -> (int) Math.min(count, Integer.MAX_VALUE);
            case EXECUTE_LARGE_UPDATE -> count;
        };
    }

    /**
     * executeUpdate of a statement with rows to return, which has run: as the connectors answer
     * (MariaDB's fails; MySQL Connector/J 9.6 answers the row count, -1 for one row).
     */
    private Object unexpectedResult(io.jdbcrepl.intercept.ExecuteMethod method, long rows) throws SQLException {
        closeResult();
        updateCount = ASK_THE_STATEMENT;
        if (!capabilities.strictResultKinds()) {
            throw new SQLException("the given SQL statement produces an unexpected ResultSet object", SqlState.GENERAL_ERROR.code(), -1);
        }
        long count = rows == 1 ? -1 : rows;
        return method == io.jdbcrepl.intercept.ExecuteMethod.EXECUTE_UPDATE ? (Object) (int) count : (Object) count;
    }

    @Override
    public ResultSet resultSet(Statement statement) throws SQLException {
        return updateCount == ASK_THE_STATEMENT ? statement.getResultSet() : result;
    }

    @Override
    public long updateCount() {
        return updateCount;
    }

    @Override
    public void moreResults() {
        closeResult();
        updateCount = -1;
    }

    private void closeResult() {
        if (result == null) return;
        try {
            result.close();
        } catch (SQLException ignored) {
            // closing the driver's own copy of rows already read: nothing to tell the application
        }
        result = null;
    }

    /**
     * Each entry captured in turn. As with MariaDB Connector/J and H2 in auto-commit mode, the
     * entries before a failing one stay committed (each is its own transaction); the failing one
     * leaves nothing, and the batch stops there.
     */
    @Override
    public long[] executeBatch(PreparedBatch batch) throws SQLException {
        batch.statement().clearBatch(); // the real statement's copy of the batch never runs
        forgetKeys();
        List<List<BoundParameter>> sets = batch.parameterSets();
        long[] counts = new long[sets.size()];
        for (int i = 0; i < sets.size(); i++) {
            try {
                counts[i] = run(batch.connection(), sets.get(i), preparedKeys);
                closeResult(); // a batch entry's RETURNING rows go nowhere
            } catch (SQLException e) {
                // H2 keeps the keys of the entries that ran; MariaDB Connector/J has none after a failure
                if (preparedKeys.requested()) {
                    if (!capabilities.failedBatchKeepsKeys()) forgetKeys();
                    generatedKeys = keys(batch.connection(), preparedKeys);
                }
                throw batchFailure(counts, i, e);
            }
        }
        if (preparedKeys.requested()) generatedKeys = keys(batch.connection(), preparedKeys);
        return counts;
    }

    private void forgetKeys() {
        closeResult();
        updateCount = ASK_THE_STATEMENT;
        generatedKeys = null;
        keyRows.clear();
    }

    /** The generated keys of the executions since the last reset, shaped as the real driver shapes them. */
    private ResultSet keys(Connection connection, GeneratedKeys request) throws SQLException {
        List<String> columns = plan instanceof UpsertPlan upsert ? upsert.columns()
                : plan instanceof ReturningPlan returning && returning.command() == CommandType.INSERT ? returning.columns()
                : null;
        return keyRows.result(connection, node.dialect(), plan.table(), columns, request);
    }

    public static BatchUpdateException batchFailure(long[] counts, int failed, SQLException cause) {
        long[] done = java.util.Arrays.copyOf(counts, failed);
        return new BatchUpdateException("Batch entry " + (failed + 1) + " failed: " + cause.getMessage(),
                cause.getSQLState(), cause.getErrorCode(), done, cause);
    }

    @Override
    public ResultSet generatedKeys(Statement statement) throws SQLException {
        return generatedKeys != null ? generatedKeys : statement.getGeneratedKeys();
    }

    /**
     * Runs one execution and returns its update count. In auto-commit mode it is a transaction of
     * its own; where transactions are text (MariaDB/MySQL, {@link LockingCapabilities#textTransactions})
     * that transaction is begun with START TRANSACTION, or inside the plan's compound statement, and
     * ended with the last LCRs, the stamp and COMMIT in one compound statement: three round trips
     * fewer, and the connection's auto-commit mode never changes (both connectors read it from the
     * server's status flags or keep it themselves, and START TRANSACTION leaves it on).
     */
    public long run(Connection connection, List<BoundParameter> parameters, GeneratedKeys keys) throws SQLException {
        if (!connection.getAutoCommit()) return execute(newRun(connection, parameters, false), keys);
        boolean text = capabilities.textTransactions();
        if (!text) connection.setAutoCommit(false);
        else if (!planBeginsTransaction()) execute(connection, "START TRANSACTION");
        try {
            LockingRun run = newRun(connection, parameters, true);
            long count = execute(run, keys);
            if (text) {
                transaction.commitOwn(connection, run.log());
            } else {
                run.log().flush();
                transaction.beforeCommit(connection);
                connection.commit();
            }
            node.committed();
            return count;
        } catch (SQLException | RuntimeException e) {
            try {
                if (text) execute(connection, "ROLLBACK");
                else connection.rollback();
            } catch (SQLException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        } finally {
            transaction.forget();
            if (!text) connection.setAutoCommit(true);
        }
    }

    /** MariaDB: the one-row UPDATE and the upsert begin a transaction of their own in their compound statement. */
    private boolean planBeginsTransaction() {
        return plan instanceof UpdatePlan u && u.oneRow() != null || plan instanceof UpsertPlan;
    }

    private LockingRun newRun(Connection connection, List<BoundParameter> parameters, boolean ownTransaction)
            throws SQLException {
        ChangeLogWriter log = new ChangeLogWriter(connection, logTable, transaction.txId(), node.name(), plan.shape());
        return new LockingRun(connection, new PlannedSqlBinder(parameters, capabilities), ownTransaction, log, transaction,
                dialect(), plan.tables());
    }

    /** The changes and their LCRs, by the executor of the plan's kind; in a transaction of its own the last LCRs stay pending. */
    private long execute(LockingRun run, GeneratedKeys keys) throws SQLException {
        if (plan instanceof UpdatePlan update) {
            return update.oneRow() != null ? new OneRowUpdateExecutor(run, update).run() : new UpdateExecutor(run, update).run();
        }
        if (plan instanceof UpsertPlan upsert) return new UpsertExecutor(run, upsert, node).run(keys, keyRows);
        if (plan instanceof MultiTablePlan multi) return new MultiTableExecutor(run, multi).run();
        ReturningPlan returning = (ReturningPlan) plan;
        if (returning.keyed() != null) return new KeyedDeleteExecutor(run, returning).run();
        ReturningExecutor executor = new ReturningExecutor(run, returning, node);
        long count = executor.run(keys, keyRows);
        result = executor.applicationRows();
        return count;
    }

    static void execute(Connection connection, String sql) throws SQLException {
        try (Statement s = connection.createStatement()) {
            s.execute(sql);
        }
    }

    Dialect dialect() {
        return node.dialect();
    }
}
