package io.jdbcrepl.capture.session;

import io.jdbcrepl.capture.CaptureException;
import io.jdbcrepl.capture.CaptureMethod;
import io.jdbcrepl.capture.CaptureSettings;
import io.jdbcrepl.capture.TableInfo;
import io.jdbcrepl.capture.ddl.DdlCapture;
import io.jdbcrepl.capture.locking.LockingPlanner;
import io.jdbcrepl.capture.locking.MultiTablePlanner;
import io.jdbcrepl.keys.KeyArrangement;
import io.jdbcrepl.capture.locking.LockingStatementCapture;
import io.jdbcrepl.capture.locking.LockingTransaction;
import io.jdbcrepl.sql.Analysis;
import io.jdbcrepl.sql.CopyFrom;
import io.jdbcrepl.sql.Dml;
import io.jdbcrepl.sql.InsertSource;
import io.jdbcrepl.sql.LoadData;
import io.jdbcrepl.sql.MultiTableDml;
import io.jdbcrepl.sql.NotDml;
import io.jdbcrepl.sql.WithDml;
import io.jdbcrepl.sql.Opaque;
import io.jdbcrepl.sql.SchemaChange;
import io.jdbcrepl.sql.SqlClassifier;
import io.jdbcrepl.sql.TableRef;
import io.jdbcrepl.config.UnsupportedMode;
import io.jdbcrepl.intercept.ConnectionInterceptor;
import io.jdbcrepl.intercept.GeneratedKeys;
import io.jdbcrepl.intercept.SqlBatch;
import io.jdbcrepl.intercept.SqlState;
import io.jdbcrepl.intercept.StatementInterceptor;
import io.jdbcrepl.intercept.StatementKind;
import io.jdbcrepl.logging.DriverLog;
import io.jdbcrepl.node.Node;
import io.jdbcrepl.node.TableCatalog;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Savepoint;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static io.jdbcrepl.capture.session.CaptureDecision.Outcome.LOAD;
import static io.jdbcrepl.capture.session.CaptureDecision.Outcome.NO_SUCH_TABLE;
import static io.jdbcrepl.capture.session.CaptureDecision.Outcome.PASS;

/**
 * Capture for one connection of a node: decides, once per SQL text, whether a statement changes a
 * replicated table and, if so, how it is captured.
 */
public final class CaptureSession implements ConnectionInterceptor {

    private static final DriverLog LOG = DriverLog.of(CaptureSession.class);
    private final Node node;
    /** The node's plans, shared by its connections. */
    private final PlanCache plans;
    private final Connection raw;
    private final Strategy strategy;
    /** The decision being made names a replicated table that is not there: not cached (see planWith). */
    private boolean namesMissingTable;
    private String currentSchema;
    /** PostgreSQL: the open transaction ran a captured statement (its commit wakes the peers). */
    private boolean capturedInTransaction;
    /** This connection's use of the node, taken last in the constructor and given back when it closes. */
    private final Node.Lease lease;

    public CaptureSession(Node node, Connection raw) throws SQLException {
        this.node = node;
        this.plans = PlanCache.of(node);
        this.raw = raw;
        CaptureMethod method = node.dialect().part(CaptureMethod.class);
        method.check(raw);
        if (method.inStatement()) {
            this.strategy = new InStatementStrategy(node.dialect().part(InStatementCapture.class).open(node, raw));
        } else {
            this.strategy = new LockingStrategy(new LockingPlanner(node.dialect()),
                    new LockingTransaction(node.dialect(), node.changeLog(), node.config().logSignature()));
        }
        this.keyScheme = node.config().keyScheme().isPresent();
        this.ddlCapture = node.config().replicatesDdl() ? new DdlCapture(node) : null;
        this.lease = node.lease();
    }

    /** The connection closed (or was never handed out): the node may stop its background work. */
    @Override
    public void afterClose() {
        lease.close();
    }

    @Override
    public StatementInterceptor onStatement(String sql, StatementKind kind) throws SQLException {
        if (strategy instanceof LockingStrategy locking && locking.transaction().active()) {
            endsTransaction(sql, locking.transaction());
        }
        if (ddlCapture != null && SchemaChange.mayBe(sql)) {
            DdlCapture.Planned ddl = ddlCapture.plan(raw, sql, currentSchema());
            if (ddl != null && (ddl.unsafe() == null || unsupported(ddl.change().command() + " on replicated table "
                    + ddl.schema() + "." + ddl.table() + " cannot be replicated: " + ddl.unsafe() + ". Set repl.ddl=local"
                    + " and run it on every node yourself", sql) != PASS)) {
                return execution -> runDdl(ddl, execution);
            }
        }
        if (!SqlClassifier.mayChangeRows(sql)) {
            if (SqlClassifier.changesSchema(sql)) return schemaChange;
            return keyScheme && SqlClassifier.createsTableOrSequence(sql) ? createsKeys : null;
        }
        CaptureDecision decision = decide(sql);
        if (decision instanceof CaptureDecision.InStatement capture
                && strategy instanceof InStatementStrategy inStatement) {
            return measured(inStatement.session().interceptor(capture.plan(), this));
        }
        if (decision == LOAD) return measured(new StagedLoadStatement(this));
        return decision instanceof CaptureDecision.Locking capture && strategy instanceof LockingStrategy locking
                ? measured(new LockingStatementCapture(capture.plan(), node, locking.transaction())) : null;
    }

    private StatementInterceptor measured(StatementInterceptor capture) {
        return new MeasuredCapture(capture, node.metrics());
    }

    /** PostgreSQL: the capturing views of pgjdbc's connection, made on first unwrap. */
    private UnwrapViews.Views postgresViews;

    /** PostgreSQL: {@code unwrap(PGConnection.class)} and {@code unwrap(BaseConnection.class)} capture COPY. */
    @Override
    public Object unwrap(Class<?> iface, Connection application) throws SQLException {
        if (strategy instanceof InStatementStrategy) {
            if (postgresViews == null) postgresViews = node.dialect().part(UnwrapViews.class).of(this, raw);
            Object view = postgresViews.view(iface, application);
            if (view != null) return view;
        }
        // the vendor's own connection class: handed out, as JDBC wants, but not silently (README, unwrap)
        if (Connection.class.isAssignableFrom(iface) && iface.isInstance(raw) && node.firstTime("unwrap " + iface.getName())) {
            LOG.warn("unwrap(" + iface.getName() + ") on a capturing connection (repl.node=" + node.name() + ") hands out"
                    + " the vendor's own connection: statements, COPY and LOAD DATA run through it are not captured and"
                    + " do not replicate. Change replicated tables through the jdbc:repl connection"
                    + (strategy instanceof InStatementStrategy
                            ? "; unwrap(PGConnection.class) gives a view whose copy API is captured" : ""));
        }
        return null;
    }

    /** A load (COPY … FROM, LOAD DATA) into a replicated table in a batch: refused, it is staged on its own. */
    static CaptureException loadInBatch() {
        return new CaptureException("COPY … FROM and LOAD DATA into a replicated table cannot run in a batch: the"
                + " driver stages each load in a temporary table and inserts its rows from there, captured. Execute"
                + " it on its own (Statement.executeUpdate)");
    }

    @Override
    public String batchSql(String sql) throws SQLException {
        if (!SqlClassifier.mayChangeRows(sql)) return sql;
        if (decide(sql) == LOAD) throw loadInBatch();
        // MariaDB/H2: the entry stays as written; executeBatch runs it captured.
        if (!(decide(sql) instanceof CaptureDecision.InStatement capture)) return sql;
        capturedInTransaction = true; // a batch that then fails makes one spurious wake-up, no harm
        return capture.plan().sql();
    }

    /**
     * MariaDB/H2: when an entry is captured, every entry runs on its own, in order (the real
     * statement's batch is dropped); a failing entry stops the batch as the real drivers do.
     */
    @Override
    public long[] executeBatch(SqlBatch batch) throws SQLException {
        if (!(strategy instanceof LockingStrategy locking)) {
            long start = System.nanoTime();
            long[] counts = batch.proceed();
            if (capturedInTransaction) {
                captured(batch.connection());
                List<CaptureDecision> decisions = new java.util.ArrayList<>();
                for (String sql : batch.sql()) decisions.add(SqlClassifier.mayChangeRows(sql) ? decide(sql) : PASS);
                count(decisions, counts, System.nanoTime() - start);
            }
            return counts;
        }
        List<CaptureDecision> decisions = new java.util.ArrayList<>();
        boolean anyCaptured = false;
        for (String sql : batch.sql()) {
            CaptureDecision d = SqlClassifier.mayChangeRows(sql) ? decide(sql) : PASS;
            anyCaptured |= d instanceof CaptureDecision.Locking;
            decisions.add(d);
        }
        if (!anyCaptured) return batch.proceed();
        long start = System.nanoTime();
        batch.statement().clearBatch();
        long[] counts = new long[decisions.size()];
        for (int i = 0; i < counts.length; i++) {
            try {
                counts[i] = decisions.get(i) instanceof CaptureDecision.Locking capture
                        ? new LockingStatementCapture(capture.plan(), node, locking.transaction()).run(batch.connection(), List.of(),
                                GeneratedKeys.NONE)
                        : batch.statement().executeLargeUpdate(batch.sql().get(i));
            } catch (SQLException e) {
                throw LockingStatementCapture.batchFailure(counts, i, e);
            }
        }
        count(decisions, counts, System.nanoTime() - start);
        return counts;
    }

    /** A statement batch in the node's metrics: its captured entries, the rows they changed, the batch's time. */
    private void count(List<CaptureDecision> decisions, long[] counts, long nanos) {
        long statements = 0;
        long rows = 0;
        for (int i = 0; i < decisions.size() && i < counts.length; i++) {
            CaptureDecision d = decisions.get(i);
            if (d instanceof CaptureDecision.InStatement || d instanceof CaptureDecision.Locking) {
                statements++;
                rows += Math.max(0, counts[i]);
            }
        }
        if (statements > 0) node.metrics().captured(statements, rows, nanos);
    }

    /**
     * MariaDB/H2: SQL that commits without the proxy's commit() (COMMIT, or DDL's implicit commit)
     * gets the transaction's stamp first; after it the next capture starts a new transaction id.
     */
    private void endsTransaction(String sql, LockingTransaction transaction) throws SQLException {
        switch (TransactionControl.of(sql)) {
            case COMMITS -> {
                transaction.beforeCommit(raw);
                transaction.forget();
            }
            case ROLLS_BACK -> transaction.forget();
            default -> { }
        }
    }

    @Override
    public void beforeCommit(Connection connection) throws SQLException {
        if (strategy instanceof LockingStrategy locking) locking.transaction().beforeCommit(connection);
    }

    /**
     * DDL that may change a table's columns: the node's metadata and plans are forgotten after it
     * runs and, in an explicit transaction, again when that ends (PostgreSQL's DDL is transactional:
     * a connection that reloads in between still reads the old columns).
     */
    private final StatementInterceptor schemaChange = this::runSchemaChange;
    private boolean schemaChangedInTransaction;

    private Object runSchemaChange(io.jdbcrepl.intercept.Execution execution) throws SQLException {
        Object result;
        try {
            result = execution.proceed();
        } finally {
            if (!raw.getAutoCommit()) schemaChangedInTransaction = true;
            forgetTables();
        }
        if (keyScheme) KeyArrangement.afterDdl(node, raw); // a column made identity, a table renamed into repl.tables
        return result;
    }

    /** SPEC 8.3: DDL on replicated tables, logged for the peers; null with repl.ddl=local. */
    private final DdlCapture ddlCapture;

    private Object runDdl(DdlCapture.Planned ddl, io.jdbcrepl.intercept.Execution execution) throws SQLException {
        boolean[] inTransaction = {false};
        Object result;
        try {
            result = ddlCapture.run(ddl, execution, raw, inTransaction);
        } finally {
            if (!raw.getAutoCommit()) schemaChangedInTransaction = true;
            forgetTables();
        }
        if (inTransaction[0]) capturedInTransaction = true;
        if (keyScheme) KeyArrangement.afterDdl(node, raw); // a table created, TRUNCATE … RESTART IDENTITY
        return result;
    }

    /** SPEC 8.2: whether the node has a key scheme, so that DDL through it arranges new sequences. */
    private final boolean keyScheme;

    /** CREATE TABLE or SEQUENCE, on a node with a key scheme: its new sequences are arranged once it ran. */
    private final StatementInterceptor createsKeys = this::runCreatesKeys;

    private Object runCreatesKeys(io.jdbcrepl.intercept.Execution execution) throws SQLException {
        Object result = execution.proceed();
        KeyArrangement.afterDdl(node, raw);
        return result;
    }

    private void forgetTablesIfSchemaChanged() {
        if (!schemaChangedInTransaction) return;
        schemaChangedInTransaction = false;
        forgetTables();
    }

    /** After DDL the driver saw: the node's table metadata and its plans. */
    private void forgetTables() {
        schemaChanged(node);
    }

    /** After DDL on the node (through a connection, or a peer's applied): its table metadata and plans are stale. */
    public static void schemaChanged(Node node) {
        node.forgetTables();
        PlanCache.of(node).clear();
    }

    @Override
    public void afterCommit() {
        forgetTablesIfSchemaChanged();
        boolean captured = capturedInTransaction
                || (strategy instanceof LockingStrategy locking && locking.transaction().active());
        capturedInTransaction = false;
        if (strategy instanceof LockingStrategy locking) locking.transaction().forget();
        if (captured) node.committed();
    }

    @Override
    public void afterRollback() {
        forgetTablesIfSchemaChanged();
        capturedInTransaction = false;
        if (strategy instanceof LockingStrategy locking) locking.transaction().forget();
    }

    /**
     * A statement captured in itself ran ({@link InStatementCapture}); in auto-commit mode it has
     * committed, else its transaction's commit wakes the peers.
     */
    public void captured(Connection connection) throws SQLException {
        if (connection.getAutoCommit()) {
            capturedInTransaction = false;
            node.committed();
        } else {
            capturedInTransaction = true;
        }
    }

    /** Rows changed through an updatable result set would have no LCR: refused, loudly. */
    @Override
    public void checkConcurrency(int resultSetConcurrency) throws SQLException {
        if (resultSetConcurrency == java.sql.ResultSet.CONCUR_UPDATABLE) {
            throw new java.sql.SQLFeatureNotSupportedException("Updatable result sets (CONCUR_UPDATABLE) are not"
                    + " supported on a capturing connection (repl.node=" + node.name() + "): their changes would not be"
                    + " captured; change rows with UPDATE, INSERT and DELETE statements", SqlState.REFUSED.code());
        }
    }

    /** The decision for {@code sql}, cached per (current schema, SQL); never {@code NO_SUCH_TABLE}. */
    private CaptureDecision decide(String sql) throws SQLException {
        String schema = currentSchema();
        CaptureDecision cached = plans.get(schema, sql);
        if (cached != null) return cached;
        namesMissingTable = false;
        CaptureDecision decision = plan(sql, schema);
        if (decision == NO_SUCH_TABLE) return PASS; // not cached: a table created later must be captured
        if (!namesMissingTable) plans.put(schema, sql, decision);
        return decision;
    }

    private CaptureDecision plan(String sql, String schema) throws SQLException {
        Analysis analysis = SqlClassifier.analyze(sql, node.dialect());
        if (analysis instanceof NotDml) return PASS;
        if (analysis instanceof MultiTableDml multi) return multiTable(multi, sql, schema);
        if (analysis instanceof WithDml with) return planWith(with, sql, schema);
        if (analysis instanceof Opaque opaque) {
            return loadTarget(sql) != null ? load(sql, schema) : opaque(opaque, sql, schema);
        }
        Dml dml = (Dml) analysis;
        TableRef target = dml.target();
        String targetSchema = target.schema() == null ? schema : target.foldedSchema(node.dialect());
        String table = target.foldedName(node.dialect());
        if (!node.isReplicated(targetSchema, table, schema)) return PASS;
        Optional<TableInfo> info = node.table(raw, targetSchema, table);
        if (info.isEmpty()) return NO_SUCH_TABLE; // the database reports it as usual
        try {
            return plan(dml, info.get());
        } catch (CaptureException | IllegalArgumentException e) {
            // the metadata may predate DDL made past the driver (a column added elsewhere): read it once more
            node.forgetTable(targetSchema, table);
            info = node.table(raw, targetSchema, table);
            if (info.isEmpty()) return NO_SUCH_TABLE;
            try {
                return plan(dml, info.get());
            } catch (CaptureException again) {
                return unsupported(again.getMessage(), sql);
            } catch (IllegalArgumentException unknownColumn) {
                // as the database would refuse it, before anything runs
                throw SqlState.UNDEFINED_COLUMN.exception(unknownColumn.getMessage() + ": " + sql);
            }
        }
    }

    /**
     * A MySQL/MariaDB multi-table UPDATE or DELETE (SPEC 8.3): captured when a table it changes is
     * replicated; the others it changes are changed without LCRs.
     */
    private CaptureDecision multiTable(MultiTableDml multi, String sql, String schema) throws SQLException {
        if (!(strategy instanceof LockingStrategy)) return unsupported(opaqueReason(sql), sql); // only MySQL has the syntax
        for (int attempt = 1; ; attempt++) {
            List<MultiTablePlanner.Replicated> replicated = new java.util.ArrayList<>();
            for (MultiTableDml.JoinedTable t : multi.changed()) {
                String tableSchema = t.table().schema() == null ? schema : t.table().foldedSchema(node.dialect());
                String name = t.table().foldedName(node.dialect());
                if (!node.isReplicated(tableSchema, name, schema)) continue;
                if (attempt > 1) node.forgetTable(tableSchema, name);
                Optional<TableInfo> info = node.table(raw, tableSchema, name);
                if (info.isEmpty()) return NO_SUCH_TABLE; // the database reports it as usual
                replicated.add(new MultiTablePlanner.Replicated(t, info.get(), node.settings(info.get())));
            }
            if (replicated.isEmpty()) return PASS;
            try {
                return new CaptureDecision.Locking(new MultiTablePlanner(node.dialect()).plan(multi, replicated));
            } catch (CaptureException | IllegalArgumentException e) {
                // the metadata may predate DDL made past the driver (a column or key added elsewhere): read it once more
                if (attempt == 1) continue;
                if (e instanceof CaptureException refused) return unsupported(refused.getMessage(), sql);
                // as the database would refuse it, before anything runs
                throw SqlState.UNDEFINED_COLUMN.exception(e.getMessage() + ": " + sql);
            }
        }
    }

    private static String opaqueReason(String sql) {
        return "A multi-table UPDATE or DELETE cannot be captured on this database: change one table per statement: "
                + abbreviate(sql);
    }

    /**
     * WITH queries that change rows, or a WITH before an INSERT, UPDATE or DELETE: rewritten where
     * the capture rewrites statements (PostgreSQL), refused as before where it takes locks.
     */
    private CaptureDecision planWith(WithDml with, String sql, String schema) throws SQLException {
        // each change on a table that exists as named is captured; the decision is not cached when
        // one names a table that does not exist there, which may be created (or be temporary) later
        if (!(strategy instanceof InStatementStrategy inStatement)) return opaque(with.refusal(), sql, schema);
        List<TableInfo> tables = new ArrayList<>();
        List<CaptureSettings> settings = new ArrayList<>();
        for (Dml dml : with.changes()) {
            TableRef target = dml.target();
            String targetSchema = target.schema() == null ? schema : target.foldedSchema(node.dialect());
            String table = target.foldedName(node.dialect());
            Optional<TableInfo> info = node.isReplicated(targetSchema, table, schema)
                    ? node.table(raw, targetSchema, table) : Optional.empty();
            // not there: a temporary table (in a schema of its own), or the database reports it as usual
            namesMissingTable |= node.isReplicated(targetSchema, table, schema) && info.isEmpty();
            tables.add(info.orElse(null));
            settings.add(info.isEmpty() ? null : node.settings(info.get()));
        }
        if (tables.stream().allMatch(java.util.Objects::isNull)) return PASS;
        try {
            return new CaptureDecision.InStatement(inStatement.session().planWith(with, tables, settings));
        } catch (CaptureException e) {
            return unsupported(e.getMessage(), sql);
        } catch (IllegalArgumentException unknownColumn) {
            throw SqlState.UNDEFINED_COLUMN.exception(unknownColumn.getMessage() + ": " + sql);
        }
    }

    /** A capture plan; IllegalArgumentException when the statement names a column the table lacks. */
    private CaptureDecision plan(Dml dml, TableInfo info) throws SQLException {
        if (strategy instanceof LockingStrategy locking) {
            return new CaptureDecision.Locking(locking.planner().plan(dml, info, node.settings(info)));
        }
        dml = withQueryColumns(dml, info);
        return new CaptureDecision.InStatement(((InStatementStrategy) strategy).session().plan(dml, info,
                node.settings(info)));
    }

    /**
     * PostgreSQL: {@code INSERT INTO t SELECT …} without a column list fills the first N columns,
     * N the query's width, which a describe of the query tells without running it (once, when the
     * statement is planned). The statement is then planned as if it listed those columns. When the
     * query cannot be described, it stays as written: it fails the same way when it runs.
     */
    private Dml withQueryColumns(Dml dml, TableInfo table) throws SQLException {
        if (!(dml.insertSource() instanceof InsertSource.Query query) || !dml.assignedColumns().isEmpty()) return dml;
        Savepoint savepoint = raw.getAutoCommit() ? null : raw.setSavepoint(); // a failed describe aborts a transaction
        int width;
        try (PreparedStatement ps = raw.prepareStatement(query.text().text())) {
            java.sql.ResultSetMetaData md = ps.getMetaData();
            width = md == null ? -1 : md.getColumnCount();
        } catch (SQLException e) {
            width = -1;
        }
        if (savepoint != null) {
            if (width < 0) raw.rollback(savepoint);
            else raw.releaseSavepoint(savepoint);
        }
        if (width < 1 || width > table.columns().size()) return dml;
        return dml.withAssignedColumns(table.columns().subList(0, width).stream()
                .map(c -> new io.jdbcrepl.sql.ColumnRef(c.name(), true)).toList());
    }

    private CaptureDecision opaque(Opaque opaque, String sql, String schema) throws SQLException {
        // CALL, DO: what a routine changes is out of the driver's sight, so the peers would diverge (README, limitations)
        if (opaque.routine()) return unsupported(opaque.reason(), sql);
        if (opaque.tablesNamed().isEmpty()) {
            // EXECUTE, RUNSCRIPT: statements the driver does not see
            LOG.warn("Not captured (" + node.name() + "): " + opaque.reason());
            LOG.debug("Not captured (" + node.name() + "), statement: " + abbreviate(sql)); // its literals: DEBUG (SPEC 8.8)
            return PASS;
        }
        for (TableRef t : opaque.tablesNamed()) {
            String s = t.schema() == null ? schema : t.foldedSchema(node.dialect());
            if (node.isReplicated(s, t.foldedName(node.dialect()), schema)) {
                return unsupported(opaque.reason(), sql);
            }
        }
        return PASS;
    }

    private CaptureDecision unsupported(String reason, String sql) throws CaptureException {
        if (node.config().unsupported() == UnsupportedMode.PASSTHROUGH) {
            LOG.warn("Not captured (repl.unsupported=passthrough, node " + node.name() + "): " + reason);
            LOG.debug("Not captured (node " + node.name() + "), statement: " + abbreviate(sql)); // its literals: DEBUG (SPEC 8.8)
            return PASS;
        }
        String message = reason.contains("repl.unsupported") ? reason
                : reason + " (set repl.unsupported=passthrough to run such statements uncaptured)";
        throw new CaptureException(message);
    }

    /** The table a load the staging can express names (PostgreSQL COPY … FROM, MariaDB LOAD DATA); else null. */
    private TableRef loadTarget(String sql) {
        return switch (bulkLoad()) {
            case COPY -> {
                CopyFrom copy = CopyFrom.parse(sql, node.dialect());
                yield copy == null ? null : copy.table();
            }
            case LOAD_DATA -> {
                LoadData load = LoadData.parse(sql, node.dialect());
                yield load == null ? null : load.table();
            }
            case NONE -> null;
        };
    }

    private CaptureMethod.BulkLoad bulkLoad() {
        return node.dialect().part(CaptureMethod.class).bulkLoad();
    }

    /** SQL COPY … FROM / LOAD DATA: {@code LOAD} on a replicated table, else {@code PASS}. */
    private CaptureDecision load(String sql, String schema) throws SQLException {
        TableRef target = loadTarget(sql);
        String targetSchema = target.schema() == null ? schema : target.foldedSchema(node.dialect());
        String table = target.foldedName(node.dialect());
        if (!node.config().isReplicated(targetSchema, table, schema, node.foldsToUpper())) return PASS;
        if (node.table(raw, targetSchema, table).isEmpty()) return NO_SUCH_TABLE;
        if (bulkLoad() == CaptureMethod.BulkLoad.COPY && CopyFrom.parse(sql, node.dialect()).stdin()) {
            // pgjdbc runs COPY … FROM STDIN only through its copy API, which the driver captures
            return unsupported("COPY … FROM STDIN into replicated table " + targetSchema + "." + table + " runs only"
                    + " through pgjdbc's copy API: use connection.unwrap(PGConnection.class).getCopyAPI().copyIn(sql,"
                    + " reader), which the driver captures", sql);
        }
        return LOAD;
    }

    /**
     * A bulk load the application runs, through SQL or PostgreSQL's copy API: PostgreSQL {@code COPY t
     * … FROM}, MariaDB {@code LOAD DATA … INTO TABLE t}. On a replicated table, its {@link StagedLoad}
     * (the staging table is created now); null when it runs as written (another table, {@code COPY …
     * TO}, or {@code repl.unsupported=passthrough} for a load that cannot be staged). A load that
     * cannot be staged is refused (CaptureException) before anything runs.
     */
    public StagedLoad stageLoad(String sql, Connection application) throws SQLException {
        CaptureMethod.BulkLoad bulkLoad = bulkLoad();
        if (bulkLoad == CaptureMethod.BulkLoad.NONE) return null; // H2 loads with INSERT … SELECT FROM CSVREAD(…): captured
        String schema = currentSchema();
        if (bulkLoad == CaptureMethod.BulkLoad.COPY) {
            CopyFrom copy = CopyFrom.parse(sql, node.dialect());
            if (copy == null) return unstageable(sql, schema);
            TableInfo table = replicatedTable(copy.table(), schema);
            if (table == null) return null;
            if (copy.usesDefault()) {
                unsupported("COPY … FROM with the DEFAULT option into replicated table "
                        + table.qualifiedName() + " cannot be captured: the marker stands for the table's column"
                        + " defaults. Write the default values into the data, or load into a table that is not"
                        + " replicated and copy the rows with INSERT INTO " + table.qualifiedName() + " SELECT …", sql);
                return null;
            }
            List<String> columns = copy.columns().isEmpty() ? everyColumn(table) : storedNames(table, copy.columns(), sql);
            if (columns.stream().anyMatch(c -> table.column(c).orElseThrow().generated())) {
                return null; // PostgreSQL refuses a COPY into a generated column before it reads a row: its own error
            }
            String target = node.dialect().quote(table.schema()) + "." + node.dialect().quote(table.name());
            List<String> always = node.dialect().part(CaptureMethod.class).alwaysIdentity(raw, target, columns);
            if (!always.isEmpty()) {
                unsupported("COPY … FROM into replicated table " + table.qualifiedName() + " cannot be captured when it"
                        + " fills identity column " + always.get(0) + " (GENERATED ALWAYS), which an INSERT cannot do"
                        + " the same way: leave the column out of the COPY's column list, so that the table generates"
                        + " it, or make it GENERATED BY DEFAULT", sql);
                return null;
            }
            return StagedLoad.copy(raw, application, copy, target, columns);
        }
        LoadData load = LoadData.parse(sql, node.dialect());
        if (load == null) return unstageable(sql, schema);
        TableInfo table = replicatedTable(load.table(), schema);
        if (table == null) return null;
        if (load.duplicates().equals("REPLACE")) {
            unsupported("LOAD DATA … REPLACE into replicated table " + table.qualifiedName()
                    + " cannot be captured: it deletes and re-inserts the rows whose keys the file repeats. Load"
                    + " with IGNORE (or without REPLACE), or load into a table that is not replicated and apply"
                    + " the rows with INSERT INTO " + table.qualifiedName() + " … SELECT … ON DUPLICATE KEY UPDATE", sql);
            return null;
        }
        List<String> columns = load.columns().isEmpty() ? everyColumn(table) : storedNames(table, load.columns(), sql);
        String target = node.dialect().quote(table.schema()) + "." + node.dialect().quote(table.name());
        return StagedLoad.loadData(raw, application, load, target, columns);
    }

    /** A load statement the staging cannot express: refused if it names a replicated table. */
    private StagedLoad unstageable(String sql, String schema) throws SQLException {
        if (SqlClassifier.analyze(sql, node.dialect()) instanceof Opaque opaque) opaque(opaque, sql, schema); // may refuse
        return null;
    }

    /** The table's metadata when it is replicated and exists; else null (the load runs as written). */
    private TableInfo replicatedTable(TableRef ref, String schema) throws SQLException {
        String targetSchema = ref.schema() == null ? schema : ref.foldedSchema(node.dialect());
        String name = ref.foldedName(node.dialect());
        if (!node.config().isReplicated(targetSchema, name, schema, node.foldsToUpper())) return null;
        return node.table(raw, targetSchema, name).orElse(null);
    }

    /** The columns a load without a column list fills: every one the database does not compute. */
    private static List<String> everyColumn(TableInfo table) {
        return table.columns().stream().filter(c -> !c.generated()).map(c -> c.name()).toList();
    }

    private List<String> storedNames(TableInfo table, List<String> written, String sql) throws SQLException {
        java.util.LinkedHashSet<String> names = new java.util.LinkedHashSet<>();
        for (String column : written) {
            String folded = node.dialect().fold(column);
            names.add(table.column(folded).map(c -> c.name()).orElseThrow(() -> new SQLException("Column " + column
                    + " is not a column of " + table.qualifiedName() + ": " + abbreviate(sql), SqlState.UNDEFINED_COLUMN.code())));
        }
        return List.copyOf(names);
    }

    private String currentSchema() throws SQLException {
        if (currentSchema == null) currentSchema = TableCatalog.currentSchema(raw, node.dialect());
        return currentSchema;
    }

    private static String abbreviate(String sql) {
        String oneLine = sql.replaceAll("\\s+", " ").trim();
        return oneLine.length() <= 200 ? oneLine : oneLine.substring(0, 197) + "...";
    }

    /** How this connection captures, chosen by the node's dialect. */
    private sealed interface Strategy {
    }

    /** One rewritten statement per captured statement (PostgreSQL). */
    private record InStatementStrategy(InStatementCapture.Session session) implements Strategy {
    }

    /** MariaDB/MySQL and H2: locking reads, RETURNING, delta tables, in the connection's transaction. */
    private record LockingStrategy(LockingPlanner planner, LockingTransaction transaction) implements Strategy {
    }
}
