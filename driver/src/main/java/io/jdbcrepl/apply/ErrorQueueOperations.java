package io.jdbcrepl.apply;

import io.jdbcrepl.api.ErrorEntry;
import io.jdbcrepl.config.PeerConfig;
import io.jdbcrepl.intercept.SqlState;
import io.jdbcrepl.lcr.RowLcr;
import io.jdbcrepl.log.LogRows;
import io.jdbcrepl.node.Node;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.List;

/**
 * The error queue's operations (SPEC 5.5): list, show, execute one entry (its LCRs re-applied in
 * one local transaction with the handlers configured now; removed on success, kept with the new
 * error otherwise), execute all in source position order stopping at the first failure, delete.
 */
final class ErrorQueueOperations {

    private final Node node;
    private final String errors;
    private final String lcrs;

    ErrorQueueOperations(Node node) {
        this.node = node;
        this.errors = node.changeLog().table("repl_error");
        this.lcrs = node.changeLog().table("repl_error_lcr");
    }

    private static final String SELECT = "SELECT id, source_database, source_transaction_id, source_position,"
            + " message_number, message_count, error_code, error_message, created_at FROM ";

    List<ErrorEntry> list(Connection local) throws SQLException {
        List<ErrorEntry> out = new ArrayList<>();
        try (PreparedStatement ps = local.prepareStatement(SELECT + errors + " ORDER BY source_position, id");
                ResultSet rs = ps.executeQuery()) {
            while (rs.next()) out.add(entry(rs, List.of()));
        }
        return out;
    }

    ErrorEntry show(Connection local, long id) throws SQLException {
        return show(local, id, false);
    }

    /** @param toApply its LCRs must carry valid signatures when repl.log.key is set (SPEC 8.7) */
    private ErrorEntry show(Connection local, long id, boolean toApply) throws SQLException {
        try (PreparedStatement ps = local.prepareStatement(SELECT + errors + " WHERE id = ?")) {
            ps.setLong(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) throw notFound(id);
                return entry(rs, lcrs(local, id, toApply));
            }
        }
    }

    private SQLException notFound(long id) {
        return SqlState.NO_DATA.exception("No error queue entry " + id + " at " + node.name());
    }

    private static ErrorEntry entry(ResultSet rs, List<RowLcr> lcrs) throws SQLException {
        Timestamp created = rs.getTimestamp(9);
        return new ErrorEntry(rs.getLong(1), rs.getString(2), rs.getString(3), rs.getLong(4), rs.getInt(5), rs.getInt(6),
                rs.getString(7), rs.getString(8), created == null ? null : created.toInstant(), lcrs);
    }

    private List<RowLcr> lcrs(Connection local, long id, boolean toApply) throws SQLException {
        List<RowLcr> out = new ArrayList<>();
        try (PreparedStatement ps = local.prepareStatement("SELECT " + LogRows.COLUMNS + " FROM " + lcrs
                + " WHERE error_id = ? ORDER BY seq")) {
            ps.setLong(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String refused = toApply ? LogRows.refusal(rs, node.config().logSignature()) : null;
                    if (refused != null) { // SPEC 8.7: still refused when retried
                        throw new SQLException("Error queue entry " + id + ", LCR " + rs.getLong(1) + " of transaction "
                                + rs.getString(2) + " for " + rs.getString(5) + "." + rs.getString(6) + ": " + refused,
                                ApplyTrust.REFUSED);
                    }
                    try {
                        out.add(LogRows.read(rs));
                    } catch (RuntimeException e) { // SPEC 8.7: kept as stored, never applicable
                        throw new SQLException("Error queue entry " + id + " holds an LCR that cannot be read (command type "
                                + rs.getString(4) + ", column types " + rs.getString(9) + "): " + e.getMessage(),
                                ApplyTrust.REFUSED, e);
                    }
                }
            }
        }
        return out;
    }

    /** Deletes the entry; false when there is none such. */
    boolean delete(Connection local, long id) throws SQLException {
        boolean autoCommit = local.getAutoCommit();
        local.setAutoCommit(false);
        try {
            int n = deleteRows(local, id);
            local.commit();
            return n > 0;
        } catch (SQLException e) {
            local.rollback();
            throw e;
        } finally {
            local.setAutoCommit(autoCommit);
        }
    }

    private int deleteRows(Connection local, long id) throws SQLException {
        try (PreparedStatement a = local.prepareStatement("DELETE FROM " + lcrs + " WHERE error_id = ?");
                PreparedStatement b = local.prepareStatement("DELETE FROM " + errors + " WHERE id = ?")) {
            a.setLong(1, id);
            a.executeUpdate();
            b.setLong(1, id);
            return b.executeUpdate();
        }
    }

    /**
     * Re-applies the entry's LCRs in one local transaction and removes it; when that fails, the entry
     * is kept with the new error, thrown as an SQLException (its SQLState the error code when one).
     */
    void execute(Connection local, long id) throws SQLException {
        boolean autoCommit = local.getAutoCommit();
        local.setAutoCommit(false);
        try {
            lock(local, id);
            ErrorEntry entry = show(local, id, true);
            ConflictLog history = new ConflictLog(node.dialect(), node.changeLog());
            ConflictHandler handlers = new PrebuiltHandlers(node.dialect(), node.config(), node.homeSchema(), node.name(),
                    entry.sourceDatabase(), new ErrorQueue(node.dialect(), node.changeLog(), node.config().logSignature()), history);
            ApplyFailure failure = apply(local, entry, handlers);
            if (failure == null) {
                if (deleteRows(local, id) != 1) throw notFound(id);
                local.commit();
                return;
            }
            local.rollback();
            history.write(local, ConflictLog.queued(handlers.met(), id));
            String message = failure.getMessage() == null ? String.valueOf(failure.getCause()) : failure.getMessage();
            try (PreparedStatement ps = local.prepareStatement("UPDATE " + errors
                    + " SET message_number = ?, error_code = ?, error_message = ? WHERE id = ?")) {
                ps.setLong(1, failure.number);
                ps.setString(2, failure.code == null ? SqlState.GENERAL_ERROR.code() : failure.code);
                ps.setString(3, message.length() > 4000 ? message.substring(0, 4000) : message);
                ps.setLong(4, id);
                ps.executeUpdate();
            }
            local.commit();
            throw SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE.exception("Error queue entry " + id + " (transaction "
                    + entry.sourceTransactionId() + " from " + entry.sourceDatabase() + ") still fails at LCR "
                    + failure.number + ": " + message);
        } catch (SQLException | RuntimeException e) {
            if (!local.getAutoCommit()) local.rollback();
            throw e;
        } finally {
            local.setAutoCommit(autoCommit);
        }
    }

    /**
     * Locks the entry's row for this transaction, so that a second retry of it (another thread, JVM or
     * CLI) waits and then finds it gone instead of applying it again.
     */
    private void lock(Connection local, long id) throws SQLException {
        try (PreparedStatement ps = local.prepareStatement("SELECT id FROM " + errors + " WHERE id = ? FOR UPDATE")) {
            ps.setLong(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) throw notFound(id);
            }
        }
    }

    /** Executes every entry in source position order; stops at the first that fails (thrown). Returns how many applied. */
    int executeAll(Connection local) throws SQLException {
        int done = 0;
        for (ErrorEntry e : list(local)) {
            execute(local, e.id());
            done++;
        }
        return done;
    }

    private ApplyFailure apply(Connection local, ErrorEntry entry, ConflictHandler handlers) throws SQLException {
        node.dialect().part(ApplySql.class).instantsInUtc(local); // an admin connection of its own (NodeAdmin)
        String sourceSchema = sourceSchema(entry.sourceDatabase());
        TableMap tables = new TableMap(local, node.dialect(), node.config(), sourceSchema, node.homeSchema());
        // SPEC 8.7: a refused entry stays refused; it came from entry.sourceDatabase(), which must be a peer
        ApplyTrust trust = new ApplyTrust(node.config(), node.dialect(), entry.sourceDatabase(), sourceSchema,
                node.homeSchema(), node.logSchema());
        try (RowApplier rows = new RowApplier(local, node.dialect(), tables, handlers,
                CustomApply.of(node.dialect(), node.config(), node.homeSchema()), trust)) {
            rows.exact(true);
            // SPEC 8.3: where DDL commits around itself, a transaction with DDL is applied in parts (DdlResume)
            boolean parts = DdlApply.commitsAround(node.dialect())
                    && entry.lcrs().stream().anyMatch(l -> l.commandType() == io.jdbcrepl.lcr.CommandType.DDL);
            DdlResume resume = parts ? DdlResume.load(local, node.dialect(), node.changeLog(), entry.sourceDatabase(),
                    entry.sourceTransactionId(), sourceSchema, node.homeSchema()) : null;
            rows.ddlMayCommit(parts);
            long number = 0;
            try {
                for (RowLcr lcr : entry.lcrs()) {
                    if (parts) resume.apply(local, rows, lcr, ++number);
                    else rows.apply(lcr, ++number);
                }
            } catch (ApplyFailure failure) {
                if (parts) { // what its parts committed stays committed: the next retry skips it
                    local.rollback();
                    resume.queued(local, failure.number);
                    local.commit();
                }
                throw failure;
            } finally {
                if (rows.ranDdl()) io.jdbcrepl.capture.session.CaptureSession.schemaChanged(node);
            }
            if (parts) resume.delete(local);
            return null;
        } catch (ApplyFailure failure) {
            return failure;
        }
    }

    /** The source's current schema, which maps to ours; ours when the peer is not configured. */
    private String sourceSchema(String source) throws SQLException {
        if (!node.config().peers().contains(source)) return node.homeSchema();
        PeerConfig peer = node.config().peer(source);
        try (Connection c = Peers.open(peer, node.config().peerTimeout())) {
            return Peers.homeSchema(c, Peers.dialect(peer));
        }
    }
}
