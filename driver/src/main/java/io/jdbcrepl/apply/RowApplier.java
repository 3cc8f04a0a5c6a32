package io.jdbcrepl.apply;

import io.jdbcrepl.api.Conflict;
import io.jdbcrepl.api.ConflictException;
import io.jdbcrepl.api.ConflictType;
import io.jdbcrepl.capture.ColumnInfo;
import io.jdbcrepl.dialect.Dialect;
import io.jdbcrepl.config.ColumnSet;
import io.jdbcrepl.conflict.ConflictDetector;
import io.jdbcrepl.conflict.CustomHandlers;
import io.jdbcrepl.conflict.HandlerContext;
import io.jdbcrepl.conflict.TableSettings;
import io.jdbcrepl.intercept.SqlState;
import io.jdbcrepl.lcr.CommandType;
import io.jdbcrepl.lcr.DdlImage;
import io.jdbcrepl.lcr.RowImage;
import io.jdbcrepl.lcr.RowLcr;
import io.jdbcrepl.lcr.TypedValue;
import io.jdbcrepl.lcr.ValueType;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Savepoint;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Applies row LCRs to the local database: INSERT with the new values, UPDATE and DELETE found by the
 * old key with every compared old value matched NULL-safely (SPEC 5.1). Each statement shape is
 * prepared once. In fast mode consecutive LCRs of one shape are JDBC-batched (only where the driver
 * returns exact per-row counts), and anything unexpected is reported as a failure without detail, so
 * that the caller re-runs the transaction in exact mode: one statement at a time, each under its own
 * savepoint, with the conflict found out and offered to the {@link ConflictHandler}.
 */
final class RowApplier implements AutoCloseable {

    private static final int MAX_BATCH = 200;
    private static final int MAX_STATEMENTS = 256;

    private final Connection local;
    private final Dialect dialect;
    private final ApplySql applySql;
    private final TableMap tables;
    private final ConflictHandler handler;
    private final CustomApply customs;
    private final ApplyTrust trust;
    private final Map<String, PreparedStatement> statements = new LinkedHashMap<>(16, 0.75f, true);
    private final Map<String, String> sqlByShape = new java.util.HashMap<>();

    private boolean exact;
    private Plan pending;
    private final List<Long> pendingNumbers = new ArrayList<>();
    private final List<Plan> pendingPlans = new ArrayList<>();

    /** @param customs the custom handlers (SPEC 5.4), null when none is configured */
    RowApplier(Connection local, Dialect dialect, TableMap tables, ConflictHandler handler, CustomApply customs,
            ApplyTrust trust) {
        this.trust = trust;
        this.local = local;
        this.dialect = dialect;
        this.applySql = dialect.part(ApplySql.class);
        this.tables = tables;
        this.handler = handler;
        this.customs = customs;
        this.ddl = new DdlApply(dialect, trust, trust.sourceHomeSchema(), trust.localHomeSchema());
    }

    /** Exact mode: no batching, conflicts found out (used to re-run a failed transaction). */
    void exact(boolean on) {
        this.exact = on;
    }

    /** Starts a run of one source transaction: {@link #conflictsMet()} is empty again. */
    void begin() {
        handler.begin();
    }

    /** The history rows of the conflicts met since {@link #begin()}. */
    List<io.jdbcrepl.conflict.Resolution.ConflictHistory> conflictsMet() {
        return handler.met();
    }

    /** The statement and bound values of one LCR. */
    record Plan(String shape, CommandType command, String sql, List<TypedValue> values, List<ValueType> types,
            TableMap.LocalTable table, RowLcr lcr) {
    }

    /** The local tables changed since {@link #takeChanged()} last ran (for the ON COMMIT views). */
    private final java.util.Set<io.jdbcrepl.mview.MviewCommand.Name> changed = new java.util.HashSet<>();

    /** Called before the first change to a table in a local transaction. */
    interface FirstChange {
        void before(io.jdbcrepl.mview.MviewCommand.Name table) throws SQLException;
    }

    private FirstChange firstChange = table -> { };

    void onFirstChange(FirstChange listener) {
        this.firstChange = listener;
    }

    java.util.Set<io.jdbcrepl.mview.MviewCommand.Name> takeChanged() {
        java.util.Set<io.jdbcrepl.mview.MviewCommand.Name> out = java.util.Set.copyOf(changed);
        changed.clear();
        return out;
    }

    /** The number of the LCR {@link #apply} was last given, and its table (with its key columns once known), for the log. */
    private long currentNumber;
    private long currentPosition;
    private String currentTable;

    /** The table of LCR {@code number} and its key columns, without values (SPEC 8.8), if it is the last one given; else null. */
    String tableOf(long number) {
        return number == currentNumber ? currentTable : null;
    }

    void apply(RowLcr lcr, long number) throws SQLException, ApplyFailure {
        currentNumber = number;
        currentPosition = lcr.position();
        currentTable = (lcr.objectOwner() == null ? "" : lcr.objectOwner() + ".") + lcr.objectName();
        String refused = trust.refusal(lcr);
        if (refused != null) throw ApplyFailure.valueFree(number, ApplyTrust.REFUSED, refused); // no handler may take it
        if (lcr.commandType() == CommandType.DDL) {
            runDdl(lcr, number);
            return;
        }
        Plan plan;
        try {
            plan = plan(lcr);
            io.jdbcrepl.mview.MviewCommand.Name table = new io.jdbcrepl.mview.MviewCommand.Name(plan.table.info().schema(),
                    plan.table.info().name());
            if (changed.add(table)) firstChange.before(table);
        } catch (IllegalArgumentException e) {
            failed(lcr, number, new ApplyFailure(number, SqlState.DATA_EXCEPTION.code(), e.getMessage() + " (" + lcr + ")", e));
            return;
        } catch (SQLException e) {
            if (SqlErrors.transientError(e)) throw e;
            failed(lcr, number, new ApplyFailure(number, SqlErrors.state(e), e.getMessage(), e));
            return;
        }
        Optional<CustomHandlers.Loaded> custom = customs == null ? Optional.empty()
                : customs.of(plan.table).dmlHandler(lcr.commandType());
        if (custom.isPresent()) { // SPEC 5.4: called instead of the default apply
            flush();
            callHandler(custom.get(), lcr, null, null, number);
            return;
        }
        if (exact) {
            applyExactly(plan, number);
            return;
        }
        boolean batchable = plan.command == CommandType.INSERT || applySql.batchesChanges();
        if (pending != null && (!batchable || !pending.shape.equals(plan.shape) || pendingNumbers.size() >= MAX_BATCH)) flush();
        PreparedStatement ps = statement(plan.sql);
        bind(ps, plan);
        if (!batchable) {
            int count = run(ps::executeUpdate, number);
            if (count == 0) resolveInPlace(plan, number);
            else if (count != 1) throw new ApplyFailure(number, null, "changed " + count + " rows", null);
            return;
        }
        ps.addBatch();
        pending = plan;
        pendingNumbers.add(number);
        pendingPlans.add(plan);
    }

    /** SPEC 8.3: a peer's DDL, at its place among the transaction's row changes. */
    private final DdlApply ddl;
    /** Where DDL commits around itself: the caller applies this transaction on its own and lets it. */
    private boolean ddlMayCommit;
    private boolean ranDdl;

    /** Lets (or not) a DDL LCR run where DDL commits: the caller applies its transaction in parts ({@link DdlAhead}). */
    void ddlMayCommit(boolean allowed) {
        ddlMayCommit = allowed;
    }

    String sourceHomeSchema() {
        return trust.sourceHomeSchema();
    }

    /** Whether a DDL LCR ran since {@link #ddlDone()}: table metadata read before it is stale. */
    boolean ranDdl() {
        return ranDdl;
    }

    void ddlDone() {
        ranDdl = false;
    }

    private void runDdl(RowLcr lcr, long number) throws SQLException, ApplyFailure {
        flush();
        if (!trust.acceptsDdl()) {
            throw ApplyFailure.valueFree(number, ApplyTrust.REFUSED, "DDL LCR for " + lcr.objectName() + " from "
                    + lcr.sourceDatabase() + " not applied: repl.ddl=local here (apply it yourself, then errors delete)");
        }
        if (DdlApply.commitsAround(dialect) && !ddlMayCommit) throw new DdlAhead(number);
        String sql;
        try {
            sql = ddl.statement(local, lcr);
        } catch (SQLException e) {
            if (SqlErrors.transientError(e)) throw e;
            throw ApplyFailure.valueFree(number, SqlErrors.state(e), e.getMessage());
        }
        try (Statement s = local.createStatement()) {
            s.execute(sql);
        } catch (SQLException e) {
            if (SqlErrors.transientError(e)) throw e;
            throw new ApplyFailure(number, SqlErrors.state(e), e.getMessage() + " (running " + lcr.objectName() + "'s "
                    + DdlImage.get(lcr, DdlImage.COMMAND) + " from " + lcr.sourceDatabase() + ": " + sql + ")", e);
        } finally {
            ranDdl = true;
            forgetTables();
        }
    }

    /** After DDL (run or rolled back): every table's metadata and statement is made again. */
    void forgetTables() {
        tables.forgetAll();
        close();
        sqlByShape.clear();
    }

    /** A DDL LCR met where DDL commits, in a transaction applied with others: the caller applies it on its own. */
    static final class DdlAhead extends RuntimeException {
        final long number;

        DdlAhead(long number) {
            super("DDL LCR " + number, null, false, false);
            this.number = number;
        }
    }

    /** Runs the batch of consecutive LCRs of one shape. */
    void flush() throws SQLException, ApplyFailure {
        if (pending == null) return;
        Plan plan = pending;
        long first = pendingNumbers.get(0);
        List<Long> numbers = List.copyOf(pendingNumbers);
        List<Plan> plans = List.copyOf(pendingPlans);
        pending = null;
        pendingNumbers.clear();
        pendingPlans.clear();
        PreparedStatement ps = statement(plan.sql);
        int[] counts = run(ps::executeBatch, first);
        if (plan.command == CommandType.INSERT) return;
        boolean missed = false;
        for (int c : counts) {
            if (c > 1 || c < 0) throw new ApplyFailure(first, null, "a batched " + plan.command + " changed " + c + " rows", null);
            missed |= c == 0;
        }
        if (!missed) return;
        // Later LCRs of the batch ran before a missed one is resolved: safe only when none has its row.
        java.util.Set<List<TypedValue>> keys = new java.util.HashSet<>();
        for (Plan p : plans) {
            if (!keys.add(keyOf(p))) throw new ApplyFailure(first, null, "a batched " + plan.command + " missed a row", null);
        }
        handler.deferHistory(); // the batch's resolutions and history as JDBC batches, not one statement each
        try {
            for (int i = 0; i < counts.length; i++) {
                if (counts[i] == 0) resolveInPlace(plans.get(i), numbers.get(i));
            }
        } catch (SQLException | ApplyFailure | RuntimeException e) {
            handler.dropDeferred();
            throw e;
        }
        try {
            handler.writeDeferred(local);
        } catch (SQLException e) {
            if (SqlErrors.transientError(e)) throw e;
            throw new ApplyFailure(first, SqlErrors.state(e), e.getMessage(), e); // careful mode finds out which
        }
    }

    /**
     * An UPDATE or DELETE of the fast mode that changed no row: nothing failed in the database, so
     * its conflict is found out and resolved right here, without rolling the group back. Whatever
     * is not resolved is a failure, which sends the group to careful mode (SPEC 5.2 runs there).
     */
    private void resolveInPlace(Plan plan, long number) throws SQLException, ApplyFailure {
        RowImage current = detail(() -> currentRow(plan), number);
        Optional<Conflict> conflict = ConflictDetector.detect(plan.lcr, current, settings(plan.table));
        if (conflict.isEmpty()) { // the row matches by now (a local change in between): apply it
            applyExactly(plan, number);
            return;
        }
        ApplyFailure unresolved = handler.resolve(conflict.get(), plan.lcr, plan.table, number, local);
        if (unresolved != null) throw unresolved;
    }

    private List<TypedValue> keyOf(Plan plan) {
        List<TypedValue> key = new ArrayList<>();
        for (String k : plan.table.info().key()) key.add(keyValue(plan.table, plan.lcr, k));
        return key;
    }

    /** Drops a batch not run (after a rollback). */
    void discard() {
        changed.clear(); // the local transaction is rolled back: its locks are gone
        if (pending != null) {
            try {
                statement(pending.sql).clearBatch();
            } catch (SQLException ignored) {
                // the statement is closed with the connection
            }
        }
        pending = null;
        pendingNumbers.clear();
        pendingPlans.clear();
    }

    private interface Call<T> {
        T call() throws SQLException;
    }

    private <T> T run(Call<T> call, long number) throws SQLException, ApplyFailure {
        try {
            return call.call();
        } catch (SQLException e) {
            if (SqlErrors.transientError(e)) throw e;
            throw new ApplyFailure(number, null, e.getMessage(), e);
        }
    }

    private void applyExactly(Plan plan, long number) throws SQLException, ApplyFailure {
        Conflict conflict;
        try {
            conflict = attempt(plan, number);
        } catch (ApplyFailure error) {
            failed(plan.lcr, number, error);
            return;
        }
        if (conflict == null) return;
        ApplyFailure unresolved = handler.resolve(conflict, plan.lcr, plan.table, number, local);
        if (unresolved == null) return;
        Optional<CustomHandlers.Loaded> errorHandler = errorHandler(plan.lcr);
        if (errorHandler.isEmpty()) throw unresolved;
        handler.recordUnresolved(local, unresolved);
        callHandler(errorHandler.get(), plan.lcr, conflict, new ConflictException(unresolved.getMessage(), conflict), number);
    }

    /**
     * SPEC 5.4: an error other than a conflict (a constraint, a missing column) goes to the error
     * handler of the LCR's table and operation too, in exact mode; without one it fails the LCR.
     */
    private void failed(RowLcr lcr, long number, ApplyFailure error) throws SQLException, ApplyFailure {
        Optional<CustomHandlers.Loaded> errorHandler = exact ? errorHandler(lcr) : Optional.empty();
        if (errorHandler.isEmpty()) throw error;
        SQLException cause = error.getCause() instanceof SQLException s ? s
                : new SQLException(error.getMessage(), error.code, error.getCause());
        callHandler(errorHandler.get(), lcr, null, cause, number);
    }

    /** The error handler of the LCR's table and operation; none when the table is not there. */
    private Optional<CustomHandlers.Loaded> errorHandler(RowLcr lcr) throws SQLException {
        if (customs == null) return Optional.empty();
        TableMap.LocalTable table;
        try {
            table = tables.resolve(lcr.objectOwner(), lcr.objectName());
        } catch (SQLException e) {
            if (SqlErrors.transientError(e)) throw e;
            return Optional.empty();
        }
        return customs.of(table).errorHandler(lcr.commandType());
    }

    /** Runs the LCR's statement under a savepoint: null when it applied, else the conflict (rolled back). */
    private Conflict attempt(Plan plan, long number) throws SQLException, ApplyFailure {
        PreparedStatement ps = statement(plan.sql);
        bind(ps, plan);
        Savepoint sp = local.setSavepoint();
        try {
            int count = ps.executeUpdate();
            if (count == 1 || plan.command == CommandType.INSERT) {
                local.releaseSavepoint(sp);
                return null;
            }
            local.rollback(sp);
            if (count > 1) {
                throw new ApplyFailure(number, SqlState.CARDINALITY_VIOLATION.code(), plan.command + " changed " + count + " rows of "
                        + plan.table.info().qualifiedName() + ": its key is not unique here", null);
            }
            RowImage current = detail(() -> currentRow(plan), number);
            Optional<Conflict> conflict = ConflictDetector.detect(plan.lcr, current, settings(plan.table));
            if (conflict.isPresent()) return conflict.get();
            // The locked row matches the LCR's old values by meaning, yet the statement changed no
            // row: a local transaction committed in between (a counter back at the same value), or
            // the database compares a value by its text (MariaDB's JSON). The row is locked and
            // checked: change it by its key.
            Plan byKey = plan(plan.lcr, false);
            PreparedStatement again = statement(byKey.sql);
            bind(again, byKey);
            if (run(again::executeUpdate, number) == 1) return null;
            throw new ApplyFailure(number, SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE.code(),
                    plan.command + " changed no row of " + plan.table.info().qualifiedName()
                    + " although its locked row matches the LCR's old values (" + plan.lcr + ")", null);
        } catch (SQLException e) {
            // after a deadlock H2 has rolled the whole transaction back, savepoint included: the caller rolls back
            if (SqlErrors.transientError(e)) throw e;
            local.rollback(sp);
            if (SqlErrors.uniqueViolation(e, dialect) && plan.command == CommandType.INSERT) {
                RowImage current = detail(() -> currentRow(plan), number);
                // not found by the key: another unique constraint is taken
                return ConflictDetector.uniqueness(plan.lcr, current == null ? new RowImage() : current,
                        settings(plan.table), current != null);
            } else if (SqlErrors.foreignKeyViolation(e, dialect)) {
                return ConflictDetector.foreignKey(plan.lcr, SqlErrors.state(e), e.getMessage());
            }
            throw new ApplyFailure(number, SqlErrors.state(e), e.getMessage(), e);
        }
    }

    /**
     * Calls a custom handler (SPEC 5.4) with the LCR and, for an error handler, the conflict; its
     * {@code execute} applies the LCR as it is then. Whatever it throws queues the transaction.
     */
    private void callHandler(CustomHandlers.Loaded custom, RowLcr lcr, Conflict conflict, SQLException error, long number)
            throws SQLException, ApplyFailure {
        String name = "custom handler " + custom.definition().name() + " (" + custom.definition().className() + ")";
        HandlerContext context = new HandlerContext(lcr, conflict, error, local,
                (changed, resolution) -> executeForHandler(changed, number, resolution));
        try {
            custom.handler().handle(context);
        } catch (ConflictException e) {
            Conflict c = e.conflict();
            // a handler's own ConflictException without a conflict counts as a foreign key one, as before
            throw ApplyFailure.conflict(number, c == null ? ConflictType.FOREIGN_KEY : c.type(), name + ": " + e.getMessage(), e,
                    List.of());
        } catch (SQLException e) {
            if (SqlErrors.transientError(e)) throw e;
            throw new ApplyFailure(number, SqlErrors.state(e), name + ": " + e.getMessage(), e);
        } catch (RuntimeException e) {
            throw new ApplyFailure(number, SqlState.GENERAL_ERROR.code(), name + " threw " + e, e);
        }
    }

    /** {@code DmlContext.execute}: the conflict met and resolved, null when none; unresolved thrown. */
    private Conflict executeForHandler(RowLcr lcr, long number, boolean conflictResolution) throws SQLException {
        try {
            Plan plan;
            try {
                plan = plan(lcr);
            } catch (IllegalArgumentException e) {
                throw SqlState.DATA_EXCEPTION.exception(e.getMessage() + " (" + lcr + ")", e);
            }
            Conflict conflict = attempt(plan, number);
            if (conflict == null) return null;
            String what = conflict.operation() + " " + conflict.type()
                    + " conflict on " + plan.table.info().qualifiedName()
                    + (conflict.columns().isEmpty() ? "" : " columns " + conflict.columns());
            if (!conflictResolution) throw new ConflictException(what, conflict);
            ApplyFailure unresolved = handler.resolve(conflict, lcr, plan.table, number, local);
            if (unresolved != null) {
                handler.recordUnresolved(local, unresolved);
                throw new ConflictException(unresolved.getMessage(), conflict);
            }
            return conflict;
        } catch (ApplyFailure f) {
            throw new SQLException(f.getMessage(), f.code, f);
        }
    }

    /** What conflict detection needs of a destination table. */
    static TableSettings settings(TableMap.LocalTable t) {
        List<String> notNull = new ArrayList<>();
        List<String> padded = new ArrayList<>();
        List<String> largeObjects = new ArrayList<>();
        for (ColumnInfo c : t.info().columns()) {
            if (!c.nullable()) notNull.add(c.name());
            if (c.isLargeObject()) largeObjects.add(c.name());
            String type = c.typeName() == null ? "" : c.typeName().toLowerCase(java.util.Locale.ROOT);
            if (type.equals("bpchar") || type.equals("char") || type.equals("character")) padded.add(c.name());
        }
        // Large objects are never compared (LoggedColumns): as if repl.nocompare named them.
        largeObjects.addAll(t.noCompare());
        ColumnSet noCompare = t.noCompareAll() ? ColumnSet.STAR
                : largeObjects.isEmpty() ? null : ColumnSet.of(List.copyOf(largeObjects));
        return new TableSettings(t.info().schema(), t.info().name(), t.info().key(), noCompare, notNull, padded);
    }

    /** Finding out a conflict's detail failed: the LCR fails with that error. */
    private <T> T detail(Call<T> find, long number) throws SQLException, ApplyFailure {
        try {
            return find.call();
        } catch (SQLException e) {
            if (SqlErrors.transientError(e)) throw e;
            throw new ApplyFailure(number, SqlErrors.state(e), "reading the conflicting row failed: " + e.getMessage(), e);
        }
    }

    /** The destination's row with the LCR's key (every column, as its portable type), locked; or null. */
    private RowImage currentRow(Plan plan) throws SQLException {
        TableMap.LocalTable t = plan.table;
        List<String> columns = t.info().columns().stream().map(ColumnInfo::name).toList();
        List<String> key = t.info().key();
        try (PreparedStatement ps = local.prepareStatement(RowSql.selectForUpdate(dialect, t, columns, key))) {
            int i = 0;
            for (String k : key) {
                TypedValue v = keyValue(t, plan.lcr, k);
                if (v == null) return null;
                ValueBinding.bind(ps, ++i, v, t.columnInfo(k).type(), dialect);
            }
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) return null;
                RowImage row = new RowImage();
                for (int c = 0; c < columns.size(); c++) {
                    ColumnInfo info = t.columnInfo(columns.get(c));
                    ValueType type = info.type();
                    Object value = type.read(rs, c + 1);
                    if (info.holdsInstant(dialect) && value != null) {
                        // the instant it holds: the applier's session shows TIMESTAMP in UTC (Applier.session)
                        row.put(columns.get(c), ValueType.TIMESTAMPTZ, ((java.time.LocalDateTime) value).atOffset(java.time.ZoneOffset.UTC));
                    } else {
                        row.put(columns.get(c), type, value);
                    }
                }
                return row;
            }
        }
    }

    /** The LCR's value of a key column: old for UPDATE/DELETE, new for INSERT. */
    private static TypedValue keyValue(TableMap.LocalTable t, RowLcr lcr, String key) {
        RowImage image = lcr.commandType() == CommandType.INSERT ? lcr.newValues() : lcr.oldValues();
        for (Map.Entry<String, TypedValue> e : image.asMap().entrySet()) {
            if (key.equals(t.column(e.getKey()))) return e.getValue();
        }
        return null;
    }

    Plan plan(RowLcr lcr) throws SQLException {
        return plan(lcr, true);
    }

    /**
     * @param compare whether the statement also matches the LCR's compared old values (else the key alone)
     * An LCR naming a column the table's metadata lacks reads the metadata again, once: the column may
     * have been added here since (by DDL made past the driver, or with repl.ddl=local).
     */
    private Plan plan(RowLcr lcr, boolean compare) throws SQLException {
        try {
            return plan(tables.resolve(lcr.objectOwner(), lcr.objectName()), lcr, compare);
        } catch (UnknownColumn stale) {
            tables.forget(lcr.objectOwner(), lcr.objectName());
            return plan(tables.resolve(lcr.objectOwner(), lcr.objectName()), lcr, compare);
        }
    }

    private Plan plan(TableMap.LocalTable t, RowLcr lcr, boolean compare) throws SQLException {
        if (lcr.position() == currentPosition) { // the LCR apply() was given: the local table names it in the log
            currentTable = t.info().qualifiedName() + " (key " + String.join(", ", t.info().key()) + ")";
        }
        List<TypedValue> values = new ArrayList<>();
        List<ValueType> types = new ArrayList<>();
        StringBuilder shape = new StringBuilder(t.sql()).append('|').append(lcr.commandType());
        String sql;
        switch (lcr.commandType()) {
            case INSERT -> {
                List<String> cols = columns(t, lcr.newValues(), values, types, false);
                shape.append(cols);
                sql = sqlOf(shape, () -> RowSql.insert(dialect, t, cols));
            }
            case UPDATE -> {
                List<String> set = columns(t, lcr.newValues(), values, types, false);
                if (set.isEmpty()) { // nothing assigned: still check the row is there
                    set = List.of(t.info().key().get(0));
                    values.add(keyValue(t, lcr, set.get(0)));
                    types.add(t.columnInfo(set.get(0)).type());
                }
                List<String> key = key(t, lcr, values, types);
                List<String> compared = compare ? compared(t, lcr, values, types) : List.of();
                shape.append(set).append(key).append(compared);
                List<String> assigned = set;
                sql = sqlOf(shape, () -> RowSql.update(dialect, t, assigned, key, compared));
            }
            case DELETE -> {
                List<String> key = key(t, lcr, values, types);
                List<String> compared = compare ? compared(t, lcr, values, types) : List.of();
                shape.append(key).append(compared);
                sql = sqlOf(shape, () -> RowSql.delete(dialect, t.sql(), key, compared, t.info().keyless()));
            }
            default -> throw new IllegalArgumentException("Cannot apply a " + lcr.commandType() + " LCR");
        }
        // A value this destination cannot hold is refused here, where it queues the transaction (SPEC 8.8).
        for (int i = 0; i < values.size(); i++) ValueBinding.check(values.get(i), types.get(i), dialect);
        return new Plan(shape.toString(), lcr.commandType(), sql, values, types, t, lcr);
    }

    /** The statement of a shape, built once: building it per LCR was a tenth of apply's time. */
    private String sqlOf(StringBuilder shape, java.util.function.Supplier<String> build) {
        String key = shape.toString();
        String sql = sqlByShape.get(key);
        if (sql == null) {
            if (sqlByShape.size() >= MAX_STATEMENTS) sqlByShape.clear();
            sql = build.get();
            sqlByShape.put(key, sql);
        }
        return sql;
    }

    private List<String> columns(TableMap.LocalTable t, RowImage image, List<TypedValue> values, List<ValueType> types,
            boolean skipKey) throws SQLException {
        List<String> out = new ArrayList<>();
        for (Map.Entry<String, TypedValue> e : image.asMap().entrySet()) {
            String stored = storedColumn(t, e.getKey());
            ColumnInfo info = t.columnInfo(stored);
            if (info.generated() || (skipKey && t.info().isKey(stored))) continue;
            out.add(stored);
            values.add(e.getValue());
            types.add(info.type());
        }
        return out;
    }

    private List<String> key(TableMap.LocalTable t, RowLcr lcr, List<TypedValue> values, List<ValueType> types)
            throws SQLException {
        for (String k : t.info().key()) {
            TypedValue v = keyValue(t, lcr, k);
            if (v == null) {
                throw SqlState.INVALID_PARAMETER_VALUE.exception(
                        "The LCR has no old value of key column " + k + " of " + t.info().qualifiedName()
                        + " (is repl.key the same on both nodes?)");
            }
            values.add(v);
            types.add(t.columnInfo(k).type());
        }
        return t.info().key();
    }

    private List<String> compared(TableMap.LocalTable t, RowLcr lcr, List<TypedValue> values, List<ValueType> types)
            throws SQLException {
        List<String> out = new ArrayList<>();
        for (Map.Entry<String, TypedValue> e : lcr.oldValues().asMap().entrySet()) {
            String stored = storedColumn(t, e.getKey());
            if (t.info().isKey(stored) || !t.compared(stored)) continue;
            out.add(stored);
            values.add(e.getValue());
            types.add(t.columnInfo(stored).type());
        }
        return out;
    }

    /** An LCR names a column the destination table does not have (as far as its metadata says). */
    static final class UnknownColumn extends SQLException {
        UnknownColumn(String message) {
            super(message, SqlState.UNDEFINED_COLUMN.code());
        }
    }

    private static String storedColumn(TableMap.LocalTable t, String source) throws SQLException {
        String stored = t.column(source);
        if (stored == null) {
            throw new UnknownColumn("Table " + t.info().qualifiedName() + " has no column " + source + " (its columns: "
                    + t.info().columns().stream().map(ColumnInfo::name).toList() + ")");
        }
        return stored;
    }

    private void bind(PreparedStatement ps, Plan plan) throws SQLException {
        for (int i = 0; i < plan.values.size(); i++) {
            ValueBinding.bind(ps, i + 1, plan.values.get(i), plan.types.get(i), dialect);
        }
    }

    private PreparedStatement statement(String sql) throws SQLException {
        PreparedStatement ps = statements.get(sql);
        if (ps != null) return ps;
        if (statements.size() >= MAX_STATEMENTS) {
            var eldest = statements.entrySet().iterator().next();
            eldest.getValue().close();
            statements.remove(eldest.getKey());
        }
        ps = local.prepareStatement(sql);
        statements.put(sql, ps);
        return ps;
    }

    @Override
    public void close() {
        for (Statement s : statements.values()) {
            try {
                s.close();
            } catch (SQLException ignored) {
                // closed with the connection
            }
        }
        statements.clear();
    }
}
