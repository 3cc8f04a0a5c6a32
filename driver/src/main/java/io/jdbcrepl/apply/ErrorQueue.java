package io.jdbcrepl.apply;

import io.jdbcrepl.dialect.Dialect;
import io.jdbcrepl.intercept.SqlState;
import io.jdbcrepl.lcr.Json;
import io.jdbcrepl.lcr.RowLcr;
import io.jdbcrepl.lcr.TypedValue;
import io.jdbcrepl.log.ChangeLogSchema;
import io.jdbcrepl.log.LogRows;
import io.jdbcrepl.log.SourceReader;
import io.jdbcrepl.log.SourceTx;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The error queue (SPEC 5.5): a failed source transaction becomes one {@code repl_error} row and its
 * LCRs, in order, {@code repl_error_lcr} rows with the same JSON columns as {@code repl_log}. Written
 * in the applier's local transaction, together with the progress that moves past the transaction.
 */
final class ErrorQueue {

    private static final int MAX_MESSAGE = 4000;
    /** Of the stored columns ({@link LogRows#COLUMNS}), old_values and the ones after it are JSON. */
    private static final int FIRST_JSON = 6;

    private final Dialect dialect;
    private final String errors;
    private final String lcrs;

    /** repl.log.key's signer, or null. */
    private final io.jdbcrepl.config.LogSignature signature;

    ErrorQueue(Dialect dialect, ChangeLogSchema schema, io.jdbcrepl.config.LogSignature signature) {
        this.dialect = dialect;
        this.signature = signature;
        this.errors = schema.table("repl_error");
        this.lcrs = schema.table("repl_error_lcr");
    }

    /** Records the failed transaction; its LCRs come from {@code reader}. Returns the entry's id. */
    long record(Connection local, String source, SourceTx tx, ApplyFailure failure, SourceReader reader)
            throws SQLException {
        long id = entry(local, source, tx.txId(), tx.lastPosition(), failure.number, 0, failure.code,
                failure.getMessage() == null ? String.valueOf(failure.getCause()) : failure.getMessage());
        long count;
        try (PreparedStatement ps = local.prepareStatement(insertLcr())) {
            int[] pending = {0};
            // As stored at the source: an LCR that cannot be decoded is kept readable as it is.
            count = reader.storedLcrs(tx.txId(), (columns, createdAt, signed, number) -> {
                ps.setLong(1, id);
                ps.setLong(2, number);
                ps.setLong(3, Long.parseLong(columns[0]));
                for (int i = 1; i < columns.length; i++) ps.setString(i + 3, storable(columns[i], i >= FIRST_JSON));
                ps.setTimestamp(columns.length + 3, createdAt);
                ps.setBytes(columns.length + 4, signed); // as stored: a retry checks it again (SPEC 8.7)
                ps.addBatch();
                if (++pending[0] == 100) {
                    ps.executeBatch();
                    pending[0] = 0;
                }
            });
            if (pending[0] > 0) ps.executeBatch();
        }
        try (PreparedStatement ps = local.prepareStatement("UPDATE " + errors + " SET message_count = ? WHERE id = ?")) {
            ps.setLong(1, count);
            ps.setLong(2, id);
            ps.executeUpdate();
        }
        return id;
    }

    /** A RECORD handler's LCR as an entry of its own (SPEC 5.3), {@code error_code} the conflict type. */
    long recordLcr(Connection local, String source, RowLcr lcr, String code, String message) throws SQLException {
        long id = entry(local, source, lcr.transactionId(), lcr.position(), 1, 1, code, message);
        try (PreparedStatement ps = local.prepareStatement(insertLcr())) {
            bind(ps, id, 1, lcr);
            ps.executeUpdate();
        }
        return id;
    }

    private long entry(Connection local, String source, String txId, long position, long number, long count,
            String code, String message) throws SQLException {
        if (message.length() > MAX_MESSAGE) message = message.substring(0, MAX_MESSAGE);
        // a value with a NUL character, quoted in the message, would make PostgreSQL refuse the entry itself
        message = message.replace("\u0000", "\\u0000");
        try (PreparedStatement ps = local.prepareStatement("INSERT INTO " + errors + " (source_database,"
                + " source_transaction_id, source_position, message_number, message_count, error_code, error_message)"
                + " VALUES (?, ?, ?, ?, ?, ?, ?)", new String[] {dialect.fold("id", false)})) {
            ps.setString(1, source);
            ps.setString(2, txId);
            ps.setLong(3, position);
            ps.setLong(4, number);
            ps.setLong(5, count);
            ps.setString(6, code == null ? SqlState.GENERAL_ERROR.code() : code);
            ps.setString(7, message);
            ps.executeUpdate();
            try (ResultSet keys = ps.getGeneratedKeys()) {
                keys.next();
                return keys.getLong(1);
            }
        }
    }

    /** Stored LCR text as this database can hold it in the error queue ({@link ApplySql#storable}). */
    private String storable(String text, boolean json) {
        return text == null ? null : dialect.part(ApplySql.class).storable(text, json);
    }

    private String insertLcr() {
        String json = dialect.part(ApplySql.class).jsonParameter();
        return "INSERT INTO " + lcrs + " (error_id, seq, " + LogRows.COLUMNS + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, "
                + json + ", " + json + ", " + json + ", " + json + ", ?, ?)";
    }

    private void bind(PreparedStatement ps, long id, long number, RowLcr lcr) throws SQLException {
        Map<String, Object> types = new LinkedHashMap<>();
        for (Map.Entry<String, TypedValue> e : lcr.oldValues().asMap().entrySet()) types.put(e.getKey(), e.getValue().type().logName());
        for (Map.Entry<String, TypedValue> e : lcr.newValues().asMap().entrySet()) types.put(e.getKey(), e.getValue().type().logName());
        String oldJson = lcr.oldValues().isEmpty() ? null : lcr.oldValues().valuesJson();
        String newJson = lcr.newValues().isEmpty() ? null : lcr.newValues().valuesJson();
        String typesJson = Json.write(types);
        String vectorJson = Json.write(lcr.changeVector());
        int i = 0;
        ps.setLong(++i, id);
        ps.setLong(++i, number);
        ps.setLong(++i, lcr.position());
        ps.setString(++i, lcr.transactionId());
        ps.setString(++i, lcr.sourceDatabase());
        ps.setString(++i, lcr.commandType().name());
        ps.setString(++i, lcr.objectOwner());
        ps.setString(++i, lcr.objectName());
        ps.setString(++i, oldJson);
        ps.setString(++i, newJson);
        ps.setString(++i, typesJson);
        ps.setString(++i, vectorJson);
        ps.setTimestamp(++i, lcr.commitTime() == null ? null : Timestamp.from(lcr.commitTime()));
        // The LCR was checked when read; what is stored here is written anew, so this node signs it.
        ps.setBytes(++i, signature == null ? null : signature.sign(lcr.position(), lcr.transactionId(),
                lcr.sourceDatabase(), lcr.commandType().name(), lcr.objectOwner(), lcr.objectName(), typesJson,
                vectorJson, oldJson, newJson));
    }
}
