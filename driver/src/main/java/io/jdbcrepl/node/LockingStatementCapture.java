package io.jdbcrepl.node;

import io.jdbcrepl.capture.ColumnInfo;
import io.jdbcrepl.capture.TableInfo;
import io.jdbcrepl.capture.locking.LockingPlan;
import io.jdbcrepl.capture.locking.PlannedSql;
import io.jdbcrepl.capture.locking.ReturningPlan;
import io.jdbcrepl.capture.locking.UpdatePlan;
import io.jdbcrepl.capture.sql.Dialect;
import io.jdbcrepl.intercept.BoundParameter;
import io.jdbcrepl.intercept.Execution;
import io.jdbcrepl.intercept.GeneratedKeys;
import io.jdbcrepl.intercept.PreparedBatch;
import io.jdbcrepl.intercept.StatementInterceptor;
import io.jdbcrepl.lcr.CommandType;
import io.jdbcrepl.lcr.RowImage;
import io.jdbcrepl.lcr.TypedValue;

import java.sql.BatchUpdateException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One captured statement on MariaDB/MySQL or H2: the application's statement never runs; the
 * driver's own statements of the {@link LockingPlan} do, on the real connection, with the
 * application's recorded parameters rebound. In auto-commit mode each execution is one transaction
 * of its own (changes, LCRs and stamp), so the application still sees one atomic statement.
 */
final class LockingStatementCapture implements StatementInterceptor {

    private final LockingPlan plan;
    private final Node node;
    private final LockingTransaction transaction;
    private final String logTable;
    private ResultSet generatedKeys;
    /** The generated keys the prepare asked for (a batch's entries have no request of their own). */
    private GeneratedKeys preparedKeys = GeneratedKeys.NONE;
    /** The key rows the executions since the last reset read back: one execution's, or a whole batch's. */
    private final List<List<TypedValue>> keyRows = new ArrayList<>();
    /** Where each execution's rows start in {@link #keyRows}. */
    private final List<Integer> executionStarts = new ArrayList<>();
    private int autoIncrement = -1;

    LockingStatementCapture(LockingPlan plan, Node node, LockingTransaction transaction) {
        this.plan = plan;
        this.node = node;
        this.transaction = transaction;
        this.logTable = node.changeLog().table("repl_log");
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
        long count = run(execution.connection(), execution.parameters(), execution.generatedKeys());
        if (execution.generatedKeys().requested()) generatedKeys = keys(execution.connection(), execution.generatedKeys());
        return switch (execution.method()) {
            case EXECUTE -> Boolean.FALSE;
            case EXECUTE_QUERY -> throw new SQLException("The statement returned no result set: " + execution.sql(), "02000");
            case EXECUTE_UPDATE -> (int) Math.min(count, Integer.MAX_VALUE);
            case EXECUTE_LARGE_UPDATE -> count;
        };
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
            } catch (SQLException e) {
                // H2 keeps the keys of the entries that ran; MariaDB Connector/J has none after a failure
                if (preparedKeys.requested()) {
                    if (dialect() == Dialect.MYSQL) forgetKeys();
                    generatedKeys = keys(batch.connection(), preparedKeys);
                }
                throw batchFailure(counts, i, e);
            }
        }
        if (preparedKeys.requested()) generatedKeys = keys(batch.connection(), preparedKeys);
        return counts;
    }

    private void forgetKeys() {
        generatedKeys = null;
        keyRows.clear();
        executionStarts.clear();
    }

    /** The generated keys of the executions since the last reset, shaped as the real driver shapes them. */
    private ResultSet keys(Connection connection, GeneratedKeys request) throws SQLException {
        if (!(plan instanceof ReturningPlan returning) || returning.command() != CommandType.INSERT || keyRows.isEmpty()) {
            return GeneratedKeysResult.empty(connection, node.dialect(), plan.table());
        }
        return GeneratedKeysResult.of(connection, node.dialect(), plan.table(), returning.columns(), keyRows,
                executionStarts, autoIncrement, request);
    }

    static BatchUpdateException batchFailure(long[] counts, int failed, SQLException cause) {
        long[] done = java.util.Arrays.copyOf(counts, failed);
        return new BatchUpdateException("Batch entry " + (failed + 1) + " failed: " + cause.getMessage(),
                cause.getSQLState(), cause.getErrorCode(), done, cause);
    }

    @Override
    public ResultSet generatedKeys(Statement statement) throws SQLException {
        return generatedKeys != null ? generatedKeys : statement.getGeneratedKeys();
    }

    /** Runs one execution and returns its update count. */
    long run(Connection connection, List<BoundParameter> parameters, GeneratedKeys keys) throws SQLException {
        boolean ownTransaction = connection.getAutoCommit();
        if (!ownTransaction) return capture(connection, parameters, keys, false);
        connection.setAutoCommit(false);
        try {
            long count = capture(connection, parameters, keys, true);
            transaction.beforeCommit(connection);
            connection.commit();
            node.committed();
            return count;
        } catch (SQLException | RuntimeException e) {
            try {
                connection.rollback();
            } catch (SQLException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        } finally {
            transaction.forget();
            connection.setAutoCommit(true);
        }
    }

    private long capture(Connection connection, List<BoundParameter> parameters, GeneratedKeys keys,
            boolean ownTransaction) throws SQLException {
        Run run = new Run(connection, new PlannedSqlBinder(parameters), ownTransaction);
        return plan instanceof UpdatePlan update ? run.update(update) : run.returning((ReturningPlan) plan, keys);
    }

    /** One execution's steps. */
    private final class Run {
        private final Connection connection;
        private final PlannedSqlBinder binder;
        private final boolean ownTransaction;
        private final ChangeLogWriter log;
        /** Rows were changed: a failure from now on must not leave them without their LCRs. */
        private boolean changed;

        Run(Connection connection, PlannedSqlBinder binder, boolean ownTransaction) {
            this.connection = connection;
            this.binder = binder;
            this.ownTransaction = ownTransaction;
            this.log = new ChangeLogWriter(connection, logTable, transaction.txId(), node.name(), plan.shape());
        }

        long returning(ReturningPlan returning, GeneratedKeys keys) throws SQLException {
            TableInfo table = returning.table();
            List<List<TypedValue>> rows = new ArrayList<>();
            int autoIncrementColumn = -1;
            long count = 0;
            try (PreparedStatement ps = binder.prepare(connection, returning.sql(), List.of());
                    ResultSet rs = resultOf(ps)) {
                changed = true;
                for (int i = 1; i <= returning.columns().size(); i++) {
                    if (autoIncrementColumn < 0 && rs.getMetaData().isAutoIncrement(i)) autoIncrementColumn = i;
                }
                while (rs.next()) {
                    RowImage row = read(rs, 1, table, returning.columns());
                    count++;
                    if (returning.command() == CommandType.INSERT) log.add(null, image(row, returning.logged().newColumns()).valuesJson());
                    else log.add(image(row, returning.logged().oldColumns()).valuesJson(), null);
                    if (keys.requested()) rows.add(new ArrayList<>(row.asMap().values()));
                }
                log.flush();
            } catch (SQLException | RuntimeException e) {
                if (changed && !ownTransaction) transaction.poison(e.getMessage());
                throw e;
            }
            if (keys.requested() && returning.command() == CommandType.INSERT) {
                executionStarts.add(keyRows.size());
                keyRows.addAll(rows);
                autoIncrement = autoIncrementColumn;
            }
            return count;
        }

        long update(UpdatePlan update) throws SQLException {
            Savepoint savepoint = null;
            List<TypedValue> lastKey = null;
            long count = 0;
            try {
                while (true) {
                    List<Locked> rows = lockingRead(update, lastKey);
                    if (rows.isEmpty()) break;
                    boolean morePages = update.paged() && rows.size() == update.pageSize();
                    if (savepoint == null && !ownTransaction && lastKey == null && (morePages || update.keyAssigned())) {
                        // Several steps change rows: a failure must undo them all, as the statement's would.
                        savepoint = connection.setSavepoint();
                    }
                    count += changeAndLog(update, rows);
                    if (!morePages) break;
                    lastKey = rows.get(rows.size() - 1).key();
                }
                log.flush();
                return count;
            } catch (SQLException | RuntimeException e) {
                if (savepoint != null) {
                    try {
                        connection.rollback(savepoint);
                    } catch (SQLException suppressed) {
                        e.addSuppressed(suppressed);
                        transaction.poison(e.getMessage());
                    }
                } else if (changed && !ownTransaction) {
                    transaction.poison(e.getMessage());
                }
                throw e;
            }
        }

        private List<Locked> lockingRead(UpdatePlan update, List<TypedValue> lastKey) throws SQLException {
            TableInfo table = update.table();
            List<String> key = table.key();
            PlannedSql sql = update.lockingRead(lastKey == null);
            List<TypedValue> pageValues = lastKey == null ? List.of() : update.pageValues(lastKey);
            List<Locked> rows = new ArrayList<>();
            try (PreparedStatement ps = binder.prepare(connection, sql, pageValues); ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    RowImage keyImage = read(rs, 1, table, key);
                    RowImage old = read(rs, 1 + key.size(), table, update.otherOldColumns());
                    keyImage.asMap().forEach(old::put);
                    List<TypedValue> oldKey = new ArrayList<>(keyImage.asMap().values());
                    List<TypedValue> newKey = oldKey;
                    if (update.keyAssigned()) {
                        newKey = new ArrayList<>(read(rs, 1 + key.size() + update.otherOldColumns().size(), table, key)
                                .asMap().values());
                    }
                    rows.add(new Locked(oldKey, newKey, image(old, update.logged().oldColumns())));
                }
            }
            return rows;
        }

        /** The restricted UPDATE and the LCRs of some locked rows, a page at a time. */
        private long changeAndLog(UpdatePlan update, List<Locked> rows) throws SQLException {
            long count = 0;
            for (int from = 0; from < rows.size(); from += update.pageSize()) {
                List<Locked> chunk = rows.subList(from, Math.min(rows.size(), from + update.pageSize()));
                List<TypedValue> oldKeys = new ArrayList<>();
                List<TypedValue> newKeys = new ArrayList<>();
                for (Locked row : chunk) {
                    oldKeys.addAll(row.key());
                    newKeys.addAll(row.newKey());
                }
                try (PreparedStatement ps = binder.prepare(connection, update.update(chunk.size()), oldKeys)) {
                    count += ps.executeLargeUpdate();
                }
                changed = true;
                Map<List<TypedValue>, RowImage> after = readNew(update, chunk.size(), newKeys);
                for (Locked row : chunk) {
                    RowImage newImage = after.get(row.newKey());
                    if (newImage == null || after.size() != chunk.size()) {
                        throw new SQLException("Capture could not read back the row of " + update.table().qualifiedName()
                                + " with key " + row.newKey() + " after updating it: the new key of a key update must"
                                + " be computable before the update (no RAND(), UUID() or subqueries on the same table)",
                                "0A000");
                    }
                    log.add(row.old().valuesJson(), newImage.valuesJson());
                }
            }
            return count;
        }

        private Map<List<TypedValue>, RowImage> readNew(UpdatePlan update, int rows, List<TypedValue> newKeys)
                throws SQLException {
            TableInfo table = update.table();
            Map<List<TypedValue>, RowImage> out = new HashMap<>();
            try (PreparedStatement ps = binder.prepare(connection, update.readNew(rows), newKeys);
                    ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    List<TypedValue> key = new ArrayList<>(read(rs, 1, table, table.key()).asMap().values());
                    out.put(key, read(rs, 1 + table.key().size(), table, update.logged().newColumns()));
                }
            }
            return out;
        }
    }

    /**
     * The rows of a {@code DELETE/INSERT ... RETURNING}: through {@code execute()}, since MySQL
     * Connector/J refuses {@code executeQuery()} for a statement that does not start with SELECT.
     */
    private static ResultSet resultOf(PreparedStatement ps) throws SQLException {
        if (!ps.execute()) throw new SQLException("The capture statement returned no rows: RETURNING needs MariaDB 10.5+", "0A000");
        return ps.getResultSet();
    }

    /** A locked row: its key, its key after the update, and its old image. */
    private record Locked(List<TypedValue> key, List<TypedValue> newKey, RowImage old) {
    }

    /** Columns {@code names} of the current row, from result column {@code first} on. */
    static RowImage read(ResultSet rs, int first, TableInfo table, List<String> names) throws SQLException {
        RowImage image = new RowImage();
        for (int i = 0; i < names.size(); i++) {
            ColumnInfo c = table.column(names.get(i)).orElseThrow();
            image.put(c.name(), c.type(), c.type().read(rs, first + i));
        }
        return image;
    }

    /** The image restricted to {@code columns}, in their order (table order). */
    private static RowImage image(RowImage row, List<String> columns) {
        RowImage out = new RowImage();
        for (String c : columns) out.put(c, row.get(c));
        return out;
    }

    Dialect dialect() {
        return node.dialect();
    }
}
