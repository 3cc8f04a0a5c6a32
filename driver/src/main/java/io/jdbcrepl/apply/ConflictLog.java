package io.jdbcrepl.apply;

import io.jdbcrepl.dialect.Dialect;
import io.jdbcrepl.conflict.Resolution.ConflictHistory;
import io.jdbcrepl.conflict.Resolution.Outcome;
import io.jdbcrepl.lcr.Json;
import io.jdbcrepl.lcr.RowImage;
import io.jdbcrepl.log.ChangeLogSchema;
import io.jdbcrepl.node.Node;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;

/**
 * The conflict history {@code repl_conflict} (SPEC 5.5): one row per handler outcome of every
 * detected conflict, resolved or not, with the LCR's values and the destination row before as
 * {@code repl_log}'s JSON. It keeps its rows for {@code repl.retention} (SPEC 8.8), like the log.
 */
final class ConflictLog {

    static final String COLUMNS = "conflict_time, source_database, source_transaction_id, source_position,"
            + " schema_name, table_name, key_values, operation, conflict_type, conflict_kind, conflicting_columns,"
            + " handler_name, handler_type, outcome, detail, old_values, new_values, row_before";
    private static final int MAX_DETAIL = 4000;

    private final Dialect dialect;
    private final String table;
    private final String now;

    ConflictLog(Dialect dialect, ChangeLogSchema schema) {
        this.dialect = dialect;
        this.table = schema.table("repl_conflict");
        this.now = schema.now();
    }

    void write(Connection local, List<ConflictHistory> rows) throws SQLException {
        if (rows.isEmpty()) return;
        String json = dialect.part(ApplySql.class).jsonParameter();
        try (PreparedStatement ps = local.prepareStatement("INSERT INTO " + table + " (" + COLUMNS + ") VALUES (" + now + ", ?, ?, ?,"
                + " ?, ?, " + json + ", ?, ?, ?, " + json + ", ?, ?, ?, ?, " + json + ", " + json + ", " + json + ")")) {
            for (ConflictHistory h : rows) {
                int i = 0;
                // conflict_time is the server's clock, as the purge after repl.retention reads it
                ps.setString(++i, h.sourceDatabase());
                ps.setString(++i, h.sourceTransactionId());
                ps.setLong(++i, h.sourcePosition());
                ps.setString(++i, h.schema());
                ps.setString(++i, h.table());
                ps.setString(++i, json(h.key()));
                ps.setString(++i, h.operation().name());
                ps.setString(++i, h.conflictType() == null ? null : h.conflictType().name());
                ps.setString(++i, h.kind().name());
                ps.setString(++i, Json.write(h.conflictingColumns()));
                ps.setString(++i, h.handlerName());
                ps.setString(++i, h.handlerType() == null ? null : h.handlerType().name());
                ps.setString(++i, h.outcome().name());
                String detail = h.detail();
                ps.setString(++i, detail == null || detail.length() <= MAX_DETAIL ? detail : detail.substring(0, MAX_DETAIL));
                ps.setString(++i, json(h.lcrOldValues()));
                ps.setString(++i, json(h.lcrNewValues()));
                ps.setString(++i, json(h.destinationBefore()));
                ps.addBatch();
            }
            ps.executeBatch();
        }
    }

    /**
     * The history of a transaction that failed and became error queue entry {@code entry}: the
     * conflicts it resolved before are {@code ROLLED_BACK}; every row's detail names the entry.
     */
    static List<ConflictHistory> queued(List<ConflictHistory> met, long entry) {
        return met.stream().map(h -> {
            boolean unresolved = h.outcome() == Outcome.FAILED || h.outcome() == Outcome.NO_HANDLER;
            String detail = "error queue entry " + entry + (unresolved ? "" : ", rolled back from " + h.outcome())
                    + (h.detail() == null ? "" : ": " + h.detail());
            return new ConflictHistory(h.time(), h.sourceDatabase(), h.sourceTransactionId(), h.sourcePosition(),
                    h.schema(), h.table(), h.key(), h.operation(), h.conflictType(), h.kind(), h.conflictingColumns(),
                    h.handlerName(), h.handlerType(), unresolved ? h.outcome() : Outcome.ROLLED_BACK, detail,
                    h.lcrOldValues(), h.lcrNewValues(), h.destinationBefore());
        }).toList();
    }

    /** Rows of {@code repl_conflict} deleted per statement: a long history goes without one long lock. */
    static final int CONFLICT_CHUNK = 1000;

    /**
     * Deletes the conflicts older than {@code repl.retention} by the server's clock (which wrote
     * {@code conflict_time}), in ranges of {@link #CONFLICT_CHUNK} ids from the oldest, each its own
     * statement, read by the primary key: ids grow with time, so the first range that keeps a row
     * has reached the recent history and ends the purge. Returns the rows deleted.
     */
    static long purge(Node node, Connection local) throws SQLException {
        String table = node.changeLog().table("repl_conflict");
        double seconds = node.config().retention().toMillis() / 1000.0;
        long deleted = 0;
        try (PreparedStatement first = local.prepareStatement("SELECT MIN(id) FROM " + table + " WHERE id >= ?");
                PreparedStatement delete = local.prepareStatement("DELETE FROM " + table + " WHERE id >= ? AND id < ?"
                        + " AND " + node.changeLog().secondsSince("conflict_time") + " > ?");
                PreparedStatement kept = local.prepareStatement("SELECT COUNT(*) FROM " + table + " WHERE id >= ? AND id < ?")) {
            long from = Long.MIN_VALUE;
            while (true) {
                first.setLong(1, from);
                try (java.sql.ResultSet rs = first.executeQuery()) {
                    rs.next();
                    from = rs.getLong(1);
                    if (rs.wasNull()) return deleted;
                }
                long to = from + CONFLICT_CHUNK;
                delete.setLong(1, from);
                delete.setLong(2, to);
                delete.setDouble(3, seconds);
                deleted += delete.executeUpdate();
                if (!local.getAutoCommit()) local.commit();
                kept.setLong(1, from);
                kept.setLong(2, to);
                try (java.sql.ResultSet rs = kept.executeQuery()) {
                    rs.next();
                    if (rs.getLong(1) > 0) return deleted;
                }
                from = to;
            }
        }
    }

    private static String json(RowImage image) {
        return image == null || image.isEmpty() ? null : image.valuesJson();
    }
}
