package io.jdbcrepl.node;

import io.jdbcrepl.capture.ColumnInfo;
import io.jdbcrepl.capture.TableInfo;
import io.jdbcrepl.capture.locking.LockingDialect;
import io.jdbcrepl.capture.locking.LockingPlan;
import io.jdbcrepl.capture.locking.PlannedSql;
import io.jdbcrepl.capture.locking.ReturningPlan;
import io.jdbcrepl.capture.locking.UpdatePlan;
import io.jdbcrepl.capture.locking.UpsertPlan;
import io.jdbcrepl.capture.sql.Dialect;
import io.jdbcrepl.intercept.BoundParameter;
import io.jdbcrepl.intercept.Execution;
import io.jdbcrepl.intercept.GeneratedKeys;
import io.jdbcrepl.intercept.PreparedBatch;
import io.jdbcrepl.intercept.SqlStates;
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
    /** MariaDB: "Column … is ambiguous". */
    private static final int ER_NON_UNIQ_ERROR = 1052;
    /** The rows of the application's own RETURNING, of the last execution (null when it has none). */
    private ResultSet result;
    /** What getUpdateCount() answers after the last execution: its count, or -1 once a result was moved past. */
    private long updateCount = ASK_THE_STATEMENT;
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
        if (execution.method() == io.jdbcrepl.intercept.ExecuteMethod.EXECUTE_QUERY && node.mysqlConnector()) {
            // MySQL Connector/J refuses before running, whatever the statement returns
            throw new SQLException("Statement.executeQuery() cannot issue statements that do not produce result sets.",
                    "S1009");
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
            case EXECUTE_QUERY -> throw new SQLException("The statement returned no result set: " + execution.sql(), "02000");
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
        if (!node.mysqlConnector()) {
            throw new SQLException("the given SQL statement produces an unexpected ResultSet object", "HY000", -1);
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
        closeResult();
        updateCount = ASK_THE_STATEMENT;
        generatedKeys = null;
        keyRows.clear();
        executionStarts.clear();
    }

    /** The generated keys of the executions since the last reset, shaped as the real driver shapes them. */
    private ResultSet keys(Connection connection, GeneratedKeys request) throws SQLException {
        List<String> columns = plan instanceof UpsertPlan upsert ? upsert.columns()
                : plan instanceof ReturningPlan returning && returning.command() == CommandType.INSERT ? returning.columns()
                : null;
        if (columns == null || keyRows.isEmpty()) return GeneratedKeysResult.empty(connection, node.dialect(), plan.table());
        return GeneratedKeysResult.of(connection, node.dialect(), plan.table(), columns, keyRows, executionStarts,
                autoIncrement, request);
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

    /**
     * Runs one execution and returns its update count. In auto-commit mode it is a transaction of
     * its own; on MariaDB/MySQL that transaction is begun and ended with SQL text (START
     * TRANSACTION, or inside the one-row compound statement; the last LCRs, the stamp and COMMIT
     * in one compound statement), not with setAutoCommit: three round trips fewer, and the
     * connection's auto-commit mode never changes (both connectors read it from the server's
     * status flags or keep it themselves, and START TRANSACTION leaves it on).
     */
    long run(Connection connection, List<BoundParameter> parameters, GeneratedKeys keys) throws SQLException {
        boolean ownTransaction = connection.getAutoCommit();
        if (!ownTransaction) return capture(connection, parameters, keys, false);
        boolean text = node.dialect() == Dialect.MYSQL;
        boolean begunByPlan = text && (plan instanceof UpdatePlan u && u.oneRow() != null || plan instanceof UpsertPlan);
        if (!text) connection.setAutoCommit(false);
        else if (!begunByPlan) execute(connection, "START TRANSACTION");
        try {
            Run run = new Run(connection, new PlannedSqlBinder(parameters, dialect()), true);
            long count = run.run(keys);
            if (text) {
                transaction.commitOwn(connection, run.log);
            } else {
                run.log.flush();
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

    private static void execute(Connection connection, String sql) throws SQLException {
        try (Statement s = connection.createStatement()) {
            s.execute(sql);
        }
    }

    private long capture(Connection connection, List<BoundParameter> parameters, GeneratedKeys keys,
            boolean ownTransaction) throws SQLException {
        Run run = new Run(connection, new PlannedSqlBinder(parameters, dialect()), ownTransaction);
        return run.run(keys);
    }

    /** One execution's steps. */
    private final class Run {
        private final Connection connection;
        private final PlannedSqlBinder binder;
        private final boolean ownTransaction;
        private final ChangeLogWriter log;
        /** Rows were changed: a failure from now on must not leave them without their LCRs. */
        private boolean changed;

        /** MariaDB: the session's time zone, read before any result is open, when the table has a TIMESTAMP column; else null. */
        private final java.time.ZoneId sessionZone;

        Run(Connection connection, PlannedSqlBinder binder, boolean ownTransaction) throws SQLException {
            this.connection = connection;
            this.binder = binder;
            this.ownTransaction = ownTransaction;
            this.log = new ChangeLogWriter(connection, logTable, transaction.txId(), node.name(), plan.shape());
            boolean instants = dialect() == Dialect.MYSQL && plan.table().columns().stream()
                    .anyMatch(c -> LockingDialect.isInstant(LockingDialect.MARIADB, c));
            this.sessionZone = instants ? MariaDbSessionZone.of(connection) : null;
        }

        /**
         * A row image as the change log's JSON: a MariaDB TIMESTAMP, read as the wall time of the
         * session's zone, as the instant it holds (in UTC).
         */
        private String json(RowImage row) throws SQLException {
            if (sessionZone == null) return row.valuesJson();
            RowImage out = new RowImage();
            for (var e : row.asMap().entrySet()) {
                TypedValue v = e.getValue();
                ColumnInfo c = plan.table().column(e.getKey()).orElseThrow();
                if (LockingDialect.isInstant(LockingDialect.MARIADB, c) && v.value() instanceof java.time.LocalDateTime wall) {
                    out.put(e.getKey(), io.jdbcrepl.lcr.ValueType.TIMESTAMPTZ, MariaDbSessionZone.instant(wall, sessionZone));
                } else {
                    out.put(e.getKey(), v);
                }
            }
            return out.valuesJson();
        }

        /** The changes and their LCRs; in a transaction of its own the last LCRs are left pending in {@link #log}. */
        long run(GeneratedKeys keys) throws SQLException {
            long count;
            if (plan instanceof UpdatePlan update) {
                count = update.oneRow() != null ? oneRow(update) : update(update);
            } else if (plan instanceof UpsertPlan upsert) {
                count = upsert(upsert, keys);
            } else if (((ReturningPlan) plan).keyed() != null) {
                count = keyedDelete((ReturningPlan) plan);
            } else {
                count = returning((ReturningPlan) plan, keys);
            }
            return count;
        }

        /** MariaDB: an UPDATE of at most one row by key, as one compound statement (UpdatePlan.OneRow). */
        long oneRow(UpdatePlan update) throws SQLException {
            TableInfo table = update.table();
            List<String> key = table.key();
            PlannedSql sql = ownTransaction ? update.oneRow().beginning() : update.oneRow().inTransaction();
            boolean several = false;
            try (PreparedStatement ps = binder.prepare(connection, sql, List.of())) {
                boolean results = ps.execute();
                RowImage old = null;
                try (ResultSet rs = results ? ps.getResultSet() : null) {
                    if (rs == null) throw new SQLException("The locking read of " + table.qualifiedName() + " returned nothing", "XX000");
                    if (rs.next()) {
                        old = read(rs, 1, table, key);
                        read(rs, 1 + key.size(), table, update.otherOldColumns()).asMap().forEach(old::put);
                        several = rs.next();
                    }
                }
                if (several) {
                    while (ps.getMoreResults() || ps.getUpdateCount() != -1) { } // the block's end; it changed nothing
                } else if (old == null) {
                    return 0;
                } else {
                    return changeOne(ps, update, old);
                }
            } catch (SQLException | RuntimeException e) {
                // The compound statement undid its UPDATE when a later step failed; only a failure here,
                // after it returned, leaves a change without its LCR.
                if (changed && !ownTransaction) transaction.poison(e.getMessage());
                throw e;
            }
            // A substitute key that is not unique: the rows are locked, the general steps change them.
            return update(update);
        }

        /** The one-row statement's second result (it changed the row): its update count and the new values. */
        private long changeOne(PreparedStatement ps, UpdatePlan update, RowImage old) throws SQLException {
            TableInfo table = update.table();
            changed = true;
            if (!ps.getMoreResults()) {
                throw new SQLException("Capture could not read back the row of " + table.qualifiedName()
                        + " after updating it", "XX000");
            }
            try (ResultSet rs = ps.getResultSet()) {
                if (!rs.next()) {
                    throw new SQLException("Capture could not read back the row of " + table.qualifiedName()
                            + " after updating it", "XX000");
                }
                long count = rs.getLong(1);
                RowImage after = read(rs, 2 + table.key().size(), table, update.logged().newColumns());
                if (!unchangedByIgnore(update, old, after)) {
                    log.add(json(image(old, update.logged().oldColumns())), json(after));
                }
                if (!ownTransaction) log.flush();
                return count;
            }
        }

        /**
         * H2: a DELETE as its locking read, then by key a page of the rows read at a time
         * ({@link ReturningPlan.Keyed}). Within the application's transaction, a failing page rolls
         * back to the savepoint taken before the read, so the statement stays all or nothing.
         */
        long keyedDelete(ReturningPlan delete) throws SQLException {
            ReturningPlan.Keyed keyed = delete.keyed();
            Savepoint savepoint = ownTransaction ? null : connection.setSavepoint();
            long count = 0;
            try (PreparedStatement ps = binder.prepare(connection, keyed.lockingRead(), List.of());
                    ResultSet rs = ps.executeQuery()) {
                List<RowImage> page = new ArrayList<>();
                boolean more = true;
                while (more) {
                    more = rs.next();
                    if (more) page.add(read(rs, 1, delete.table(), delete.columns()));
                    if (page.size() == keyed.size() || !more && !page.isEmpty()) {
                        count += deleteByKey(delete, page);
                        page.clear();
                    }
                }
                if (!ownTransaction) log.flush();
                return count;
            } catch (SQLException | RuntimeException e) {
                if (savepoint != null) rollBackTo(savepoint, e);
                throw e;
            }
        }

        /** Deletes the locked rows by key and logs them; a count other than theirs fails the statement. */
        private long deleteByKey(ReturningPlan delete, List<RowImage> rows) throws SQLException {
            if (delete.table().keyless()) return deleteSomeByKey(delete, rows);
            List<TypedValue> keys = new ArrayList<>();
            for (RowImage row : rows) {
                for (String k : delete.table().key()) keys.add(row.get(k));
            }
            try (PreparedStatement ps = binder.prepare(connection, delete.keyed().delete(rows.size()), keys)) {
                changed = true;
                long n = ps.executeLargeUpdate();
                if (n != rows.size()) {
                    throw new SQLException("DELETE on " + delete.table().qualifiedName() + " locked " + rows.size()
                            + " rows and deleted " + n + " of them by key: the statement is undone", "XX000");
                }
            }
            for (RowImage row : rows) log.add(json(image(row, delete.logged().oldColumns())), null);
            return rows.size();
        }

        /**
         * A table without key: the locked rows a key at a time (identical rows share one), each key's
         * DELETE limited to as many rows as were locked with it; a count other than theirs fails the statement.
         */
        private long deleteSomeByKey(ReturningPlan delete, List<RowImage> rows) throws SQLException {
            TableInfo table = delete.table();
            Map<List<TypedValue>, Integer> byKey = new java.util.LinkedHashMap<>();
            for (RowImage row : rows) {
                List<TypedValue> key = new ArrayList<>();
                for (String k : table.key()) key.add(row.get(k));
                byKey.merge(key, 1, Integer::sum);
            }
            for (Map.Entry<List<TypedValue>, Integer> e : byKey.entrySet()) {
                try (PreparedStatement ps = binder.prepare(connection, delete.keyed().deleteSome(e.getValue()), e.getKey())) {
                    changed = true;
                    long n = ps.executeLargeUpdate();
                    if (n != e.getValue()) {
                        throw new SQLException("DELETE on " + table.qualifiedName() + " locked " + e.getValue()
                                + " identical rows and deleted " + n + " of them: the statement is undone", "XX000");
                    }
                }
            }
            for (RowImage row : rows) log.add(json(image(row, delete.logged().oldColumns())), null);
            return rows.size();
        }

        /** Undoes a failed statement's changes back to its savepoint; when that fails too, the transaction cannot commit. */
        private void rollBackTo(Savepoint savepoint, Exception e) {
            try {
                connection.rollback(savepoint);
            } catch (SQLException suppressed) {
                e.addSuppressed(suppressed);
                transaction.poison(e.getMessage());
            }
        }

        /** Ends the use of a spill's temporary table, however the statement ended. */
        private void clearSpill(String clear) {
            try {
                execute(connection, clear);
            } catch (SQLException e) {
                // The connection failed too: the session's table goes with it
            }
        }

        private static TypedValue position(long p) {
            return new TypedValue(io.jdbcrepl.lcr.ValueType.INTEGER, p);
        }

        /**
         * MariaDB (see streamsResults): the statement's result read as the server sends it, its
         * LCRs held back until {@link ChangeLogWriter#endReading}.
         */
        private void stream(PreparedStatement ps) throws SQLException {
            ps.setFetchSize(ChangeLogWriter.ROWS_PER_INSERT);
            log.beginReading();
        }

        long returning(ReturningPlan returning, GeneratedKeys keys) throws SQLException {
            TableInfo table = returning.table();
            List<List<TypedValue>> rows = new ArrayList<>();
            int autoIncrementColumn = -1;
            long count = 0;
            int own = returning.applicationColumns();
            Savepoint savepoint = ownTransaction || !keepsFailedChanges() ? null : connection.setSavepoint();
            PreparedStatement ps = binder.prepare(connection, returning.sql(), List.of(), own > 0);
            // The application's rows are read twice: held; else streamed (an INSERT … SELECT may return millions)
            boolean streamed = own == 0 && streamsResults();
            ResultSet rs = null;
            try {
                if (streamed) stream(ps);
                rs = resultOf(ps);
                // Streamed, a failure can still come with a later row; the server has then undone the statement
                if (!streamed) changed = true;
                for (int i = 1; i <= returning.columns().size(); i++) {
                    if (autoIncrementColumn < 0 && rs.getMetaData().isAutoIncrement(own + i)) autoIncrementColumn = i;
                }
                while (rs.next()) {
                    RowImage row = read(rs, own + 1, table, returning.columns());
                    count++;
                    if (returning.command() == CommandType.INSERT) log.add(null, json(image(row, returning.logged().newColumns())));
                    else log.add(json(image(row, returning.logged().oldColumns())), null);
                    if (keys.requested()) rows.add(new ArrayList<>(row.asMap().values()));
                }
                if (streamed) {
                    rs.close();
                    changed = true;
                    log.endReading();
                }
                long whole = dialect() == Dialect.H2 ? node.h2DeltaTableRows(connection) : Long.MAX_VALUE;
                if (count > whole) {
                    throw new SQLException(returning.command() + " on " + table.qualifiedName() + " changed " + count
                            + " rows or more through H2's data change delta table, more than its MAX_MEMORY_ROWS ("
                            + whole + "): H2 2.4 loses rows of such a result, so the statement is undone; change"
                            + " fewer rows per statement or raise MAX_MEMORY_ROWS", SqlStates.REFUSED);
                }
                if (!ownTransaction) log.flush();
                if (own > 0) {
                    // The application's rows: read again from the start, its columns only
                    rs.beforeFirst();
                    ps.closeOnCompletion();
                    result = LeadingColumnsResultSet.of(rs, own);
                }
            } catch (SQLException | RuntimeException e) {
                ps.close();
                if (savepoint != null) rollBackTo(savepoint, e);
                else if (changed && !ownTransaction) transaction.poison(e.getMessage());
                throw e;
            } finally {
                log.close();
            }
            if (own == 0) ps.close();
            if (keys.requested() && returning.command() == CommandType.INSERT) {
                executionStarts.add(keyRows.size());
                keyRows.addAll(rows);
                autoIncrement = autoIncrementColumn;
            }
            return count;
        }

        /**
         * MariaDB {@code INSERT … ON DUPLICATE KEY UPDATE} ({@link UpsertPlan}): an INSERT LCR per row
         * inserted, an UPDATE LCR per row updated that changed, none for one the update left as it was;
         * the count and the key as MariaDB reports them: 1 per row inserted, 2 per row changed, per row
         * left as it was 1 (found rows, the connectors' default) or 0 ({@code useAffectedRows=true}).
         */
        long upsert(UpsertPlan upsert, GeneratedKeys keys) throws SQLException {
            TableInfo table = upsert.table();
            List<String> columns = upsert.columns();
            List<String> assigned = upsert.updateLogged().changeVector();
            List<List<TypedValue>> inserted = new ArrayList<>();
            List<TypedValue> last = null;
            boolean anyInserted = false;
            boolean anyChanged = false;
            int autoIncrementColumn = -1;
            long count = 0;
            PlannedSql sql = ownTransaction ? upsert.beginning() : upsert.inTransaction();
            boolean streamed = streamsResults();
            try (PreparedStatement ps = binder.prepare(connection, sql, List.of()); log) {
                if (streamed) stream(ps);
                try (ResultSet rs = resultOf(ps)) {
                    if (!streamed) changed = true; // as in returning
                    for (int i = 1; i <= columns.size(); i++) {
                        if (autoIncrementColumn < 0 && rs.getMetaData().isAutoIncrement(i)) autoIncrementColumn = i;
                    }
                    long updates = 0;
                    while (rs.next()) {
                        RowImage row = read(rs, 1, table, columns);
                        last = new ArrayList<>(row.asMap().values());
                        long n = rs.getLong(columns.size() + 1);
                        if (n == updates) {
                            count++;
                            log.add(upsert.shape(), null, json(image(row, upsert.logged().newColumns())));
                            anyInserted = true;
                            if (keys.requested()) inserted.add(last);
                            continue;
                        }
                        updates = n;
                        RowImage old = withColumnScales(rs, columns, read(rs, columns.size() + 2, table, upsert.oldColumns()));
                        if (image(old, assigned).equals(image(row, assigned))) {
                            if (node.reportsFoundRows()) count++;
                            continue;
                        }
                        anyChanged = true;
                        count += 2;
                        log.add(upsert.updateShape(), json(old), json(image(row, upsert.updateLogged().newColumns())));
                    }
                }
                while (ps.getMoreResults() || ps.getUpdateCount() != -1) { } // the compound statement's end
                changed = true;
                log.endReading();
                if (!ownTransaction) log.flush();
            } catch (SQLException e) {
                if (changed && !ownTransaction) transaction.poison(e.getMessage());
                if (!changed && e.getErrorCode() == ER_NON_UNIQ_ERROR) {
                    // The copy of the old values names the table's columns, as the SELECT's own table does
                    throw new SQLException("INSERT … SELECT … ON DUPLICATE KEY UPDATE on " + table.qualifiedName()
                            + " cannot be captured when its SELECT reads the same table without an alias: give that"
                            + " table an alias, or set repl.unsupported=passthrough to run it uncaptured (" + e.getMessage()
                            + ")", SqlStates.REFUSED, e);
                }
                throw e;
            } catch (RuntimeException e) {
                if (changed && !ownTransaction) transaction.poison(e.getMessage());
                throw e;
            }
            if (keys.requested()) {
                // MariaDB's insert id: the first row inserted, else the last row when one changed, else none
                executionStarts.add(keyRows.size());
                if (anyInserted) keyRows.addAll(inserted);
                else if (anyChanged) keyRows.add(last);
                autoIncrement = autoIncrementColumn;
            }
            return count;
        }

        long update(UpdatePlan update) throws SQLException {
            Savepoint savepoint = null;
            List<TypedValue> lastKey = null;
            List<TypedValue> end = null;
            long count = 0;
            try {
                while (true) {
                    // A statement that may spill reads one row more than a page: if it is there, the rows go to the server
                    int maxRows = update.spill() == null ? 0 : update.pageSize() + 1;
                    List<Locked> rows = lockingRead(update, lastKey, end, maxRows);
                    if (maxRows > 0 && rows.size() == maxRows) {
                        if (!ownTransaction) savepoint = connection.setSavepoint();
                        count = spilled(update);
                        break;
                    }
                    if (rows.isEmpty()) break;
                    boolean morePages = update.paged() && rows.size() == update.pageSize();
                    if (savepoint == null && !ownTransaction && lastKey == null && (morePages || update.keyAssigned()
                            || update.table().keyless())) {
                        // Several steps change rows: a failure must undo them all, as the statement's would.
                        savepoint = connection.setSavepoint();
                    }
                    if (morePages && end == null) {
                        end = lastRow(update.lastRowRead(), update.table());
                        morePages = end != null;
                    }
                    count += changeAndLog(update, rows);
                    if (!morePages) break;
                    lastKey = rows.get(rows.size() - 1).key();
                }
                if (!ownTransaction) log.flush();
                return count;
            } catch (SQLException | RuntimeException e) {
                if (savepoint != null) rollBackTo(savepoint, e);
                else if (changed && !ownTransaction) transaction.poison(e.getMessage());
                throw e;
            }
        }

        /**
         * The rows held in a temporary table on the server ({@link UpdatePlan.Spill}): filled by the
         * locking read, changed and read back a page at a time; the table is cleared however it ends.
         */
        private long spilled(UpdatePlan update) throws SQLException {
            UpdatePlan.Spill spill = update.spill();
            long count = 0;
            try {
                for (PlannedSql fill : spill.fill()) {
                    try (PreparedStatement ps = binder.prepare(connection, fill, List.of())) {
                        ps.executeLargeUpdate();
                    }
                }
                if (spill.wholeUpdate() != null) {
                    try (PreparedStatement ps = binder.prepare(connection, spill.wholeUpdate(), List.of())) {
                        changed = true;
                        count = ps.executeLargeUpdate();
                    }
                }
                TypedValue position = position(0);
                while (true) {
                    List<Locked> rows = new ArrayList<>();
                    try (PreparedStatement ps = binder.prepare(connection, spill.page(), List.of(position));
                            ResultSet rs = ps.executeQuery()) {
                        int last = rs.getMetaData().getColumnCount();
                        while (rs.next()) {
                            rows.add(locked(rs, update));
                            position = position(rs.getLong(last));
                        }
                    }
                    if (rows.isEmpty()) break;
                    if (spill.wholeUpdate() != null) readBackAndLog(update, rows);
                    else count += changeAndLog(update, rows);
                    if (rows.size() < update.pageSize()) break;
                }
                return count;
            } finally {
                clearSpill(spill.clear());
            }
        }

        /** The key of the last row a paged statement goes to, locked; null when no row is left. */
        private List<TypedValue> lastRow(PlannedSql lastRowRead, TableInfo table) throws SQLException {
            try (PreparedStatement ps = binder.prepare(connection, lastRowRead, List.of()); ResultSet rs = ps.executeQuery()) {
                return rs.next() ? new ArrayList<>(read(rs, 1, table, table.key()).asMap().values()) : null;
            }
        }

        /** @param maxRows at most this many rows, 0 for all */
        private List<Locked> lockingRead(UpdatePlan update, List<TypedValue> lastKey, List<TypedValue> end, int maxRows)
                throws SQLException {
            PlannedSql sql = update.lockingRead(lastKey == null);
            List<TypedValue> pageValues = lastKey == null ? List.of() : UpdatePlan.pageValues(lastKey, end);
            List<Locked> rows = new ArrayList<>();
            try (PreparedStatement ps = binder.prepare(connection, sql, pageValues)) {
                ps.setMaxRows(maxRows);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) rows.add(locked(rs, update));
                }
            }
            return rows;
        }

        /** A row of the locking read (or of a spill table's page): key, other old columns, new key. */
        private Locked locked(ResultSet rs, UpdatePlan update) throws SQLException {
            TableInfo table = update.table();
            List<String> key = table.key();
            RowImage keyImage = read(rs, 1, table, key);
            RowImage old = read(rs, 1 + key.size(), table, update.otherOldColumns());
            keyImage.asMap().forEach(old::put);
            List<TypedValue> oldKey = new ArrayList<>(keyImage.asMap().values());
            List<TypedValue> newKey = oldKey;
            if (update.keyAssigned()) {
                newKey = new ArrayList<>(read(rs, 1 + key.size() + update.otherOldColumns().size(), table, key)
                        .asMap().values());
            }
            return new Locked(oldKey, newKey, image(old, update.logged().oldColumns()));
        }

        /** The restricted UPDATE and the LCRs of some locked rows, a page at a time. */
        private long changeAndLog(UpdatePlan update, List<Locked> rows) throws SQLException {
            if (update.table().keyless()) return changeAndLogByKey(update, rows);
            long count = 0;
            for (int from = 0; from < rows.size(); from += update.pageSize()) {
                List<Locked> chunk = rows.subList(from, Math.min(rows.size(), from + update.pageSize()));
                List<TypedValue> oldKeys = new ArrayList<>();
                for (Locked row : chunk) oldKeys.addAll(row.key());
                try (PreparedStatement ps = binder.prepare(connection, update.update(chunk.size()), oldKeys)) {
                    count += ps.executeLargeUpdate();
                }
                changed = true;
                readBackAndLog(update, chunk);
            }
            return count;
        }

        /**
         * A table without key: the locked rows a key at a time (identical rows share one), each key's
         * UPDATE limited to as many rows as were locked with it, then read back and logged.
         */
        private long changeAndLogByKey(UpdatePlan update, List<Locked> rows) throws SQLException {
            Map<List<TypedValue>, List<Locked>> byKey = new java.util.LinkedHashMap<>();
            for (Locked row : rows) byKey.computeIfAbsent(row.key(), k -> new ArrayList<>()).add(row);
            long count = 0;
            for (List<Locked> same : byKey.values()) {
                try (PreparedStatement ps = binder.prepare(connection, update.updateSome(same.size()), same.get(0).key())) {
                    count += ps.executeLargeUpdate();
                }
                changed = true;
                for (int from = 0; from < same.size(); from += update.pageSize()) {
                    readBackAndLog(update, same.subList(from, Math.min(same.size(), from + update.pageSize())));
                }
            }
            return count;
        }

        /** The new values of some changed rows (at most a page), read by their new keys, and their LCRs. */
        private void readBackAndLog(UpdatePlan update, List<Locked> chunk) throws SQLException {
            List<TypedValue> newKeys = new ArrayList<>();
            for (Locked row : chunk) newKeys.addAll(row.newKey());
            Map<List<TypedValue>, RowImage> after = readNew(update, chunk.size(), newKeys);
            // Rows of a table without key may be identical: one image for all of them (readNew checks they agree)
            TableInfo table = update.table();
            long distinct = !table.keyless() ? chunk.size()
                    : chunk.stream().map(row -> matchable(table, row.newKey())).distinct().count();
            for (Locked row : chunk) {
                RowImage newImage = after.get(matchable(table, row.newKey()));
                if (newImage == null || after.size() != distinct) {
                    throw new SQLException("Capture could not read back the row of " + update.table().qualifiedName()
                            + " with key " + row.newKey() + " after updating it: the new key of a key update must"
                            + " be computable before the update (no RAND(), UUID() or subqueries on the same table)",
                            SqlStates.REFUSED);
                }
                if (!unchangedByIgnore(update, row.old(), newImage)) log.add(json(row.old()), json(newImage));
            }
        }

        private Map<List<TypedValue>, RowImage> readNew(UpdatePlan update, int rows, List<TypedValue> newKeys)
                throws SQLException {
            TableInfo table = update.table();
            Map<List<TypedValue>, RowImage> out = new HashMap<>();
            try (PreparedStatement ps = binder.prepare(connection, update.readNew(rows), newKeys);
                    ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    List<TypedValue> key = new ArrayList<>(read(rs, 1, table, table.key()).asMap().values());
                    RowImage image = read(rs, 1 + table.key().size(), table, update.logged().newColumns());
                    RowImage other = out.put(matchable(table, key), image);
                    if (other != null && table.keyless() && !other.equals(image)) {
                        // Rows equal in every compared column got different new values (SET doc = doc || 'x'):
                        // which LCR gets which cannot be told, so the statement is refused (and undone)
                        throw new io.jdbcrepl.capture.CaptureException("UPDATE of " + table.qualifiedName()
                                + ", a table without key, gave rows that are equal in every comparable column "
                                + table.key() + " different new values of " + update.logged().newColumns()
                                + ": the rows cannot be told apart; give the table a key or name one with repl.key."
                                + table.name());
                    }
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
        if (!ps.execute()) throw new SQLException("The capture statement returned no rows: RETURNING needs MariaDB 10.5+", SqlStates.REFUSED);
        return ps.getResultSet();
    }

    /** UPDATE IGNORE: the row was skipped (or set to the values it had); either way nothing changed. */
    private static boolean unchangedByIgnore(UpdatePlan update, RowImage old, RowImage after) {
        return update.ignore() && image(old, update.logged().newColumns()).equals(after);
    }

    /**
     * A key as the read back matches it: of a table without key, whose every assignment is a key
     * update, decimals without their scale (SET amount = 11 reads back as 11.00).
     */
    private static List<TypedValue> matchable(TableInfo table, List<TypedValue> key) {
        if (!table.keyless()) return key;
        List<TypedValue> out = new ArrayList<>(key.size());
        for (TypedValue v : key) {
            out.add(v.value() instanceof java.math.BigDecimal d ? new TypedValue(v.type(), d.stripTrailingZeros()) : v);
        }
        return out;
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

    /**
     * Decimals copied through a variable as text, given the scale of their column: MySQL Connector/J
     * reads "1.50" in a text column as 1.5.
     */
    private static RowImage withColumnScales(ResultSet rs, List<String> columns, RowImage image) throws SQLException {
        for (var e : image.asMap().entrySet()) {
            if (e.getValue().value() instanceof java.math.BigDecimal d) {
                int scale = rs.getMetaData().getScale(columns.indexOf(e.getKey()) + 1);
                image.put(e.getKey(), e.getValue().type(), d.setScale(scale, java.math.RoundingMode.UNNECESSARY));
            }
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

    /**
     * MariaDB/MySQL: a result read with a fetch size comes as the server sends it rather than whole,
     * and the connection runs nothing else until it has ended; H2's embedded results can be read
     * while the LCRs are written (and spill to disk in H2 itself).
     */
    private boolean streamsResults() {
        return node.dialect() == Dialect.MYSQL;
    }

    /**
     * H2 (2.4): a query over a data change delta table ({@code SELECT … FROM FINAL|OLD TABLE (…)})
     * that fails keeps the rows it changed before failing, in the open transaction (a DELETE of a
     * referenced row deletes the rows before it and the row itself, then fails). The driver runs
     * such a statement after a savepoint and rolls back to it, so that a failed statement changes
     * nothing, as the same statement without the delta table does.
     */
    private boolean keepsFailedChanges() {
        return node.dialect() == Dialect.H2;
    }
}
