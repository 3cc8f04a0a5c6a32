package io.jdbcrepl.apply;

import io.jdbcrepl.api.Conflict;
import io.jdbcrepl.capture.ColumnInfo;
import io.jdbcrepl.dialect.Dialect;
import io.jdbcrepl.config.ReplConfig;
import io.jdbcrepl.conflict.ConflictResolver;
import io.jdbcrepl.conflict.Resolution;
import io.jdbcrepl.intercept.SqlState;
import io.jdbcrepl.lcr.RowImage;
import io.jdbcrepl.lcr.RowLcr;
import io.jdbcrepl.lcr.TypedValue;
import io.jdbcrepl.lcr.ValueType;
import io.jdbcrepl.logging.DriverLog;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * SPEC 5.2's first step on the apply side: the conflict core's decision for the prebuilt handlers
 * ({@code repl.handler.*}) of the destination table, executed on the local connection; the RECORD
 * entries go to the error queue, every conflict to {@code repl_conflict}. An unresolved conflict is
 * returned as the failure that queues the transaction (the applier logs it, one WARN line, and
 * writes the history of the transaction's conflicts with its error queue entry, after the rollback).
 */
final class PrebuiltHandlers implements ConflictHandler {

    private static final DriverLog LOG = DriverLog.of(PrebuiltHandlers.class);

    private final Dialect dialect;
    private final ReplConfig config;
    private final String localSchema;
    private final String node;
    private final String source;
    private final ErrorQueue errorQueue;
    private final ConflictLog history;
    /** By the destination table's SQL name; built on its first conflict. */
    private final Map<String, ConflictResolver> resolvers = new HashMap<>();
    private final List<Resolution.ConflictHistory> met = new ArrayList<>();
    /** Not null while the history is deferred. */
    private List<Resolution.ConflictHistory> deferred;
    /** While deferred, the resolutions' statements, JDBC-batched by statement text. */
    private final Map<String, PreparedStatement> batches = new LinkedHashMap<>();

    PrebuiltHandlers(Dialect dialect, ReplConfig config, String localSchema, String node, String source,
            ErrorQueue errorQueue, ConflictLog history) {
        this.dialect = dialect;
        this.config = config;
        this.localSchema = localSchema;
        this.node = node;
        this.source = source;
        this.errorQueue = errorQueue;
        this.history = history;
    }

    @Override
    public ApplyFailure resolve(Conflict conflict, RowLcr lcr, TableMap.LocalTable table, long number, Connection local)
            throws SQLException {
        ConflictResolver resolver = resolver(table);
        Resolution r = resolver.resolve(lcr, conflict);
        List<Resolution.ConflictHistory> rows = r.history(Instant.now(), resolver.table());
        met.addAll(rows);
        String code = conflict.type().name();
        if (!r.resolved()) {
            // the applier logs it once, as it queues the transaction (not at each repl.fk.retry attempt)
            LOG.debug("jdbc:repl: unresolved conflict at " + node + " applying from " + source + ": " + r.reason());
            return ApplyFailure.conflict(number, conflict.type(), r.reason(), null, rows);
        }
        try {
            int count = execute(r, table, local);
            if (count != 1) {
                return new ApplyFailure(number, SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE.code(),
                        "resolving " + code + " on " + table.info().qualifiedName() + " by " + r.action() + " changed "
                                + count + " rows (" + lcr + ")", null, rows);
            }
        } catch (SQLException e) {
            if (SqlErrors.transientError(e)) throw e;
            return new ApplyFailure(number, SqlErrors.state(e), "resolving " + code + " on "
                    + table.info().qualifiedName() + " by " + r.action() + " failed: " + e.getMessage(), e, rows);
        }
        for (Resolution.RecordEntry e : r.records()) {
            errorQueue.recordLcr(local, source, e.lcr(), code, e.message());
        }
        if (deferred != null) deferred.addAll(rows);
        else history.write(local, rows);
        return null;
    }

    @Override
    public void recordUnresolved(Connection local, ApplyFailure unresolved) throws SQLException {
        history.write(local, unresolved.history);
    }

    @Override
    public void deferHistory() {
        deferred = new ArrayList<>();
    }

    @Override
    public void writeDeferred(Connection local) throws SQLException {
        List<Resolution.ConflictHistory> rows = deferred;
        try {
            for (PreparedStatement ps : batches.values()) {
                for (int count : ps.executeBatch()) {
                    if (count != 1) {
                        throw SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE.exception(
                                "a batched conflict resolution changed " + count + " rows");
                    }
                }
            }
            if (rows != null) history.write(local, rows);
        } finally {
            dropDeferred();
        }
    }

    @Override
    public void dropDeferred() {
        deferred = null;
        for (PreparedStatement ps : batches.values()) {
            try {
                ps.close();
            } catch (SQLException ignored) {
                // closed with the connection
            }
        }
        batches.clear();
    }

    @Override
    public void begin() {
        met.clear();
        dropDeferred();
    }

    @Override
    public List<Resolution.ConflictHistory> met() {
        return List.copyOf(met);
    }

    private ConflictResolver resolver(TableMap.LocalTable table) throws SQLException {
        ConflictResolver known = resolvers.get(table.sql());
        if (known != null) return known;
        Map<String, ValueType> types = new LinkedHashMap<>();
        for (ColumnInfo c : table.info().columns()) types.put(c.name(), c.type());
        ConflictResolver resolver = ConflictResolver.forTable(RowApplier.settings(table), config.handlers(
                table.info().schema(), table.info().name(), localSchema, dialect.foldsToUpper()), types);
        resolvers.put(table.sql(), resolver);
        return resolver;
    }

    /** Runs the resolution's statement; the rows it changed (1 for DISCARD). */
    private int execute(Resolution r, TableMap.LocalTable table, Connection local) throws SQLException {
        List<String> key = stored(table, r.key());
        List<TypedValue> values = new ArrayList<>(r.values().asMap().values());
        List<String> columns = stored(table, r.values());
        String sql;
        switch (r.action()) {
            case DISCARD -> {
                return 1;
            }
            case UPDATE -> sql = RowSql.update(dialect, table, columns, key, List.of());
            case INSERT -> sql = RowSql.insert(dialect, table, columns);
            case DELETE -> {
                sql = RowSql.delete(dialect, table.sql(), key, List.of(), table.info().keyless());
                values.clear();
                columns = List.of();
            }
            default -> throw new IllegalStateException(r.action().name());
        }
        boolean batched = deferred != null; // the rows are distinct (RowApplier checks): order does not matter
        PreparedStatement ps = batched ? batches.get(sql) : null;
        if (ps == null) {
            ps = local.prepareStatement(sql);
            if (batched) batches.put(sql, ps);
        }
        try {
            int i = 0;
            for (int c = 0; c < columns.size(); c++) {
                ValueBinding.bind(ps, ++i, values.get(c), table.columnInfo(columns.get(c)).type(), dialect);
            }
            if (r.action() != Resolution.Action.INSERT) {
                List<TypedValue> keyValues = new ArrayList<>(r.key().asMap().values());
                for (int c = 0; c < key.size(); c++) {
                    ValueBinding.bind(ps, ++i, keyValues.get(c), table.columnInfo(key.get(c)).type(), dialect);
                }
            }
            if (!batched) return ps.executeUpdate();
            ps.addBatch();
            return 1; // checked in writeDeferred
        } finally {
            if (!batched) ps.close();
        }
    }

    /** The stored names of an image's columns, in its order. */
    private static List<String> stored(TableMap.LocalTable table, RowImage image) throws SQLException {
        List<String> out = new ArrayList<>();
        for (String c : image.asMap().keySet()) {
            String name = table.column(c);
            if (name == null) {
                throw SqlState.UNDEFINED_COLUMN.exception("Table " + table.info().qualifiedName() + " has no column " + c);
            }
            out.add(name);
        }
        return out;
    }
}
