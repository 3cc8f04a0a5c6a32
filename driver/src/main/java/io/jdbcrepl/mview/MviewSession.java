package io.jdbcrepl.mview;

import io.jdbcrepl.capture.TableInfo;
import io.jdbcrepl.sql.Analysis;
import io.jdbcrepl.dialect.Dialect;
import io.jdbcrepl.sql.Dml;
import io.jdbcrepl.sql.Opaque;
import io.jdbcrepl.sql.SqlClassifier;
import io.jdbcrepl.sql.TableRef;
import io.jdbcrepl.intercept.ConnectionInterceptor;
import io.jdbcrepl.intercept.Execution;
import io.jdbcrepl.intercept.PrepareRequest;
import io.jdbcrepl.intercept.PreparedBatch;
import io.jdbcrepl.intercept.SqlBatch;
import io.jdbcrepl.intercept.SqlState;
import io.jdbcrepl.intercept.StandbyInterceptor;
import io.jdbcrepl.intercept.StatementInterceptor;
import io.jdbcrepl.intercept.StatementKind;
import io.jdbcrepl.log.DriverSchema;
import io.jdbcrepl.mview.MviewCommand.Name;
import io.jdbcrepl.node.TableCatalog;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A connection's materialized-view side, in front of its capture (or alone, without
 * {@code repl.node}): runs the statements of {@link MviewParser} itself, notes which masters of ON
 * COMMIT views the transaction changes and refreshes those views before the real commit. A
 * statement in auto-commit mode that changes such a master runs in a transaction of its own that
 * the driver commits after the refresh, so the view changes with it.
 *
 * <p>Without {@code repl.node} it stands by ({@link StandbyInterceptor}): the connection is a pure
 * pass-through until a statement may be one of ours or the database has an ON COMMIT view.
 */
public final class MviewSession implements StandbyInterceptor {

    private static final int MAX_CACHED_SQL = 1024;

    private final ConnectionInterceptor inner;
    private final Connection raw;
    private final Dialect dialect;
    private final MviewCatalog catalog;
    private final MviewDdl ddl;
    private final Refresher refresher;
    /** Tables named by SQL texts, unresolved (schema null when unqualified), per catalog. */
    private static final Map<String, List<Name>> TARGETS = new ConcurrentHashMap<>();
    /**
     * Where the catalog lives, per URL and {@code repl.schema}: a connection starts in its URL's
     * database, so MariaDB's {@code SELECT DATABASE()} is asked once per URL, not on every connect.
     */
    private static final Map<String, Optional<String>> SCHEMAS = new ConcurrentHashMap<>();
    private final TreeSet<String> dirty = new TreeSet<>();
    private final List<Name> dirtyNames = new ArrayList<>();
    private String currentSchema;
    /** The open transaction ran DDL of ours: a rollback makes the cached catalog wrong. */
    private boolean ddlInTransaction;

    /**
     * @param inner  the capture of a connection with {@code repl.node}, or null
     * @param schema where the driver keeps its catalog ({@code repl.schema} as written), or null for the default
     */
    public MviewSession(ConnectionInterceptor inner, Connection raw, String delegateUrl, String schema) throws SQLException {
        this.inner = inner;
        this.raw = raw;
        this.dialect = Dialect.forUrl(delegateUrl);
        this.catalog = MviewCatalog.of(delegateUrl, dialect, catalogSchema(delegateUrl, schema, raw), raw);
        this.refresher = new Refresher(catalog);
        this.ddl = new MviewDdl(catalog, refresher, this::resolve);
    }

    private String catalogSchema(String delegateUrl, String configured, Connection raw) throws SQLException {
        String key = delegateUrl + "\u0000" + configured;
        Optional<String> known = SCHEMAS.get(key);
        if (known != null) return known.orElse(null);
        Optional<String> resolved = Optional.ofNullable(DriverSchema.resolveOrNull(dialect, configured, raw));
        if (SCHEMAS.size() > MAX_CACHED_SQL) SCHEMAS.clear();
        SCHEMAS.put(key, resolved);
        return resolved.orElse(null);
    }

    /** The administration API of this connection ({@code unwrap(MaterializedViews.class)}). */
    public MaterializedViews admin() {
        return new MaterializedViews(this);
    }

    Dialect dialect() {
        return dialect;
    }

    Connection raw() {
        return raw;
    }

    MviewDdl ddl() {
        return ddl;
    }

    Name resolve(Name name) throws SQLException {
        if (name.schema() != null) return name;
        if (currentSchema == null) currentSchema = TableCatalog.currentSchema(raw, dialect);
        return new Name(currentSchema, name.name());
    }

    // ---- statements

    @Override
    public boolean neededFor(String sql) {
        return MviewParser.mayBeOurs(sql) || catalog.state().anyOnCommit();
    }

    @Override
    public StatementInterceptor onStatement(String sql, StatementKind kind) throws SQLException {
        if (MviewParser.mayBeOurs(sql)) {
            Optional<MviewCommand> command = MviewParser.parse(sql, dialect);
            if (command.isPresent() && ours(command.get())) {
                boolean isDdl = !(command.get() instanceof MviewCommand.Refresh || command.get() instanceof MviewCommand.PurgeLog);
                // DDL commits a MariaDB/H2 transaction: the capture stamps it first, as for any DDL
                if (isDdl && inner != null) inner.onStatement("COMMIT", StatementKind.PLAIN);
                return new CommandStatement(command.get());
            }
        }
        StatementInterceptor si = inner == null ? null : inner.onStatement(sql, kind);
        MviewCatalog.State state = catalog.state();
        if (!state.anyOnCommit()) return si;
        List<Name> masters = onCommitMasters(sql, state);
        return masters.isEmpty() ? si : new OnCommitStatement(si, masters);
    }

    /** A DROP MATERIALIZED VIEW of a view the driver does not know is the database's own, where it has them (PostgreSQL). */
    private boolean ours(MviewCommand command) throws SQLException {
        if (command instanceof MviewCommand.DropView drop) {
            return catalog.view(resolve(drop.view())).isPresent() || !dialect.part(MviewSql.class).ownMaterializedViews();
        }
        return true;
    }

    private List<Name> onCommitMasters(String sql, MviewCatalog.State state) throws SQLException {
        if (!SqlClassifier.mayChangeRows(sql)) return List.of();
        String key = catalog.schema + "\u0000" + sql;
        List<Name> named = TARGETS.get(key);
        if (named == null) {
            named = new ArrayList<>();
            Analysis a = SqlClassifier.analyze(sql, dialect);
            List<TableRef> refs = a instanceof Dml dml ? List.of(dml.target())
                    : a instanceof io.jdbcrepl.sql.MultiTableDml multi ? multi.changedTables()
                    : a instanceof Opaque o ? o.tablesNamed()
                    : a instanceof io.jdbcrepl.sql.WithDml with ? with.refusal().tablesNamed() : List.of();
            for (TableRef r : refs) named.add(new Name(r.schema() == null ? null : r.foldedSchema(dialect), r.foldedName(dialect)));
            if (TARGETS.size() > MAX_CACHED_SQL) TARGETS.clear();
            TARGETS.put(key, List.copyOf(named));
        }
        List<Name> out = new ArrayList<>();
        for (Name n : named) {
            Name resolved = resolve(n);
            if (state.views().values().stream().anyMatch(v -> v.onCommit() && sameTable(v.master(), resolved))) out.add(resolved);
        }
        return out;
    }

    private boolean sameTable(Name a, Name b) {
        return dialect.part(MviewSql.class).namesIgnoreCase() ? a.toString().equalsIgnoreCase(b.toString()) : a.equals(b);
    }

    /** The transaction is about to change {@code masters}; MariaDB: lock them first (see {@link Refresher#lockMaster}). */
    private void touched(List<Name> masters) throws SQLException {
        for (Name m : masters) {
            if (dirty.add(m.toString())) {
                dirtyNames.add(m);
                if (dialect.part(MviewSql.class).locksMastersFirst()) refresher.lockMaster(raw, m);
            }
        }
    }

    /** Runs {@code work}; in auto-commit mode inside a transaction that the ON COMMIT refresh ends. */
    private <T> T committingIfAuto(Work<T> work) throws SQLException {
        if (!raw.getAutoCommit()) return work.run();
        return inOwnTransaction(work, () -> beforeCommit(raw), this::afterCommit, this::afterRollback);
    }

    @FunctionalInterface
    interface Work<T> {
        T run() throws SQLException;
    }

    @FunctionalInterface
    private interface Step {
        void run() throws SQLException;
    }

    /** Runs our own DDL or call: in a transaction of its own in auto-commit mode. */
    <T> T own(Work<T> work) throws SQLException {
        if (!raw.getAutoCommit()) {
            ddlInTransaction = true;
            return work.run();
        }
        return inOwnTransaction(work, () -> { }, () -> { }, () -> catalog.reload(raw));
    }

    /**
     * Runs {@code work} in a transaction of its own on the auto-commit connection: {@code beforeCommit},
     * commit, {@code afterCommit}; on failure rollback, then {@code afterRollback}, and the error rethrown.
     */
    private <T> T inOwnTransaction(Work<T> work, Step beforeCommit, Step afterCommit, Step afterRollback)
            throws SQLException {
        raw.setAutoCommit(false);
        try {
            T result = work.run();
            beforeCommit.run();
            raw.commit();
            afterCommit.run();
            return result;
        } catch (SQLException | RuntimeException e) {
            try {
                raw.rollback();
            } catch (SQLException suppressed) {
                e.addSuppressed(suppressed);
            }
            afterRollback.run();
            throw e;
        } finally {
            raw.setAutoCommit(true);
        }
    }

    // ---- transaction boundaries

    @Override
    public void beforeCommit(Connection connection) throws SQLException {
        if (inner != null) inner.beforeCommit(connection);
        if (!dirtyNames.isEmpty()) refresher.beforeCommit(connection, dirtyNames);
    }

    @Override
    public void afterCommit() {
        clear();
        if (inner != null) inner.afterCommit();
    }

    @Override
    public void afterRollback() {
        clear();
        if (ddlInTransaction) {
            try {
                catalog.reload(raw);
            } catch (SQLException e) {
                // the next DDL or refresh reloads it
            }
        }
        ddlInTransaction = false;
        if (inner != null) inner.afterRollback();
    }

    private void clear() {
        dirty.clear();
        dirtyNames.clear();
        ddlInTransaction = false;
    }

    @Override
    public Object unwrap(Class<?> iface, Connection application) throws SQLException {
        return inner == null ? null : inner.unwrap(iface, application);
    }

    @Override
    public String batchSql(String sql) throws SQLException {
        return inner == null ? sql : inner.batchSql(sql);
    }

    @Override
    public void checkConcurrency(int resultSetConcurrency) throws SQLException {
        if (inner != null) inner.checkConcurrency(resultSetConcurrency);
    }

    @Override
    public long[] executeBatch(SqlBatch batch) throws SQLException {
        MviewCatalog.State state = catalog.state();
        List<Name> masters = new ArrayList<>();
        if (state.anyOnCommit()) {
            for (String sql : batch.sql()) masters.addAll(onCommitMasters(sql, state));
        }
        if (masters.isEmpty()) return inner == null ? batch.proceed() : inner.executeBatch(batch);
        return committingIfAuto(() -> {
            touched(masters);
            return inner == null ? batch.proceed() : inner.executeBatch(batch);
        });
    }

    @Override
    public void afterSetSavepoint(Savepoint savepoint) {
        if (inner != null) inner.afterSetSavepoint(savepoint);
    }

    @Override
    public void afterRollbackToSavepoint(Savepoint savepoint) {
        if (inner != null) inner.afterRollbackToSavepoint(savepoint); // masters stay noted: a refresh too many is harmless
    }

    @Override
    public void afterReleaseSavepoint(Savepoint savepoint) {
        if (inner != null) inner.afterReleaseSavepoint(savepoint);
    }

    @Override
    public void afterAutoCommitChange(boolean autoCommit) {
        if (inner != null) inner.afterAutoCommitChange(autoCommit);
    }

    @Override
    public void afterClose() {
        if (inner != null) inner.afterClose();
    }

    /** A statement that changes a master of an ON COMMIT view, around the capture's interceptor (or none). */
    private final class OnCommitStatement implements StatementInterceptor {
        private final StatementInterceptor si;
        private final List<Name> masters;

        OnCommitStatement(StatementInterceptor si, List<Name> masters) {
            this.si = si;
            this.masters = masters;
        }

        @Override
        public String preparedSql(String applicationSql) {
            return si == null ? applicationSql : si.preparedSql(applicationSql);
        }

        @Override
        public PreparedStatement prepare(PrepareRequest request) throws SQLException {
            return si == null ? request.prepare(request.sql()) : si.prepare(request);
        }

        @Override
        public ResultSet generatedKeys(Statement statement) throws SQLException {
            return si == null ? statement.getGeneratedKeys() : si.generatedKeys(statement);
        }

        @Override
        public long updateCount() {
            return si == null ? ASK_THE_STATEMENT : si.updateCount();
        }

        @Override
        public void moreResults() {
            if (si != null) si.moreResults();
        }

        @Override
        public boolean needsParameters() {
            return si != null && si.needsParameters();
        }

        @Override
        public Object execute(Execution execution) throws SQLException {
            return committingIfAuto(() -> {
                touched(masters);
                return si == null ? execution.proceed() : si.execute(execution);
            });
        }

        @Override
        public long[] executeBatch(PreparedBatch batch) throws SQLException {
            return committingIfAuto(() -> {
                touched(masters);
                return si == null ? batch.proceed() : si.executeBatch(batch);
            });
        }
    }

    /** One of our statements: run by the driver, never by the real one. */
    private final class CommandStatement implements StatementInterceptor {
        private final MviewCommand command;
        private long updateCount = ASK_THE_STATEMENT;

        CommandStatement(MviewCommand command) {
            this.command = command;
        }

        @Override
        public PreparedStatement prepare(PrepareRequest request) throws SQLException {
            return request.prepare("SELECT 1"); // the vendor cannot prepare our text; executions never run it
        }

        @Override
        public long updateCount() {
            return updateCount;
        }

        @Override
        public void moreResults() {
            updateCount = -1;
        }

        @Override
        public Object execute(Execution execution) throws SQLException {
            own(() -> {
                ddl.run(raw, command);
                return null;
            });
            updateCount = 0;
            return switch (execution.method()) {
                case EXECUTE -> Boolean.FALSE;
                case EXECUTE_UPDATE -> 0;
                case EXECUTE_LARGE_UPDATE -> 0L;
                case EXECUTE_QUERY -> throw SqlState.NO_DATA.exception(
                        "No results were returned by " + command.getClass().getSimpleName()
                        + ": use execute or executeUpdate");
            };
        }

        @Override
        public long[] executeBatch(PreparedBatch batch) throws SQLException {
            throw SqlState.REFUSED.exception("Materialized view statements cannot be batched");
        }
    }
}
