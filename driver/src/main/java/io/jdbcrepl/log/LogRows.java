package io.jdbcrepl.log;

import io.jdbcrepl.lcr.CommandType;
import io.jdbcrepl.lcr.Json;
import io.jdbcrepl.lcr.RowImage;
import io.jdbcrepl.lcr.RowLcr;
import io.jdbcrepl.lcr.ValueType;
import io.jdbcrepl.config.LogSignature;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The one place that knows {@code repl_log}'s columns on the reading side: the select list, the
 * statement reading one transaction's LCRs in order, and the row-to-LCR mapping. Also used for
 * {@code repl_error_lcr}, which has the same LCR columns. A database whose transaction ids are not
 * read and bound as text overrides {@link #selectTransaction()} and {@link #readAheadQuery(List)}.
 */
public class LogRows {

    public static final String COLUMNS = "position, tx_id, source_node, command_type, schema_name, table_name,"
            + " old_values, new_values, column_types, change_vector, created_at, signature";

    private static final int FETCH = 500;

    private final ChangeLogSchema schema;
    /** repl.log.key's verifier, or null: no LCR is checked. */
    private final LogSignature signature;

    public LogRows(ChangeLogSchema schema, LogSignature signature) {
        this.schema = schema;
        this.signature = signature;
    }

    /**
     * {@link #COLUMNS} as read from a source's log: without repl.log.key here the signature is not
     * read, so a peer whose log predates the column (an older version, {@code repl.install=none}) is
     * still read.
     */
    protected final String columns() {
        return signature != null ? COLUMNS : COLUMNS.replace(", signature", ", NULL AS signature");
    }

    /** The LCRs of one transaction, in position order; one bind parameter, the tx id. */
    protected String selectTransaction() {
        return "SELECT " + columns() + " FROM " + log() + " WHERE tx_id = ? ORDER BY position";
    }

    /** The source's {@code repl_log}. */
    protected final String log() {
        return schema.table("repl_log");
    }

    /**
     * The LCRs of several transactions in position order, and how to bind their ids: one parameter
     * per transaction here.
     */
    protected ReadAheadQuery readAheadQuery(List<String> txIds) {
        return new ReadAheadQuery("SELECT " + columns() + " FROM " + log() + " WHERE tx_id IN ("
                + String.join(", ", java.util.Collections.nCopies(txIds.size(), "?")) + ") ORDER BY position", ps -> {
                    for (int i = 0; i < txIds.size(); i++) ps.setString(i + 1, txIds.get(i));
                });
    }

    /** A statement reading several transactions' LCRs, and what binds its parameters. */
    public record ReadAheadQuery(String sql, Binder binder) {
    }

    /** Binds a statement's parameters. */
    public interface Binder {
        void bind(PreparedStatement ps) throws SQLException;
    }

    /** At most this many LCRs are read ahead, for transactions of at most this size. */
    static final int READ_AHEAD_LCRS = 2000;

    private PreparedStatement transaction;
    /** The LCRs read ahead for the window being applied, by tx id. */
    private Map<String, List<RowLcr>> readAhead = Map.of();
    private final Object source = new Object();

    /** Held while the source connection is in use: the next window is read on another thread. */
    public Object source() {
        return source;
    }

    /** The window being applied from now on: its read-ahead LCRs. */
    void use(Map<String, List<RowLcr>> lcrs) {
        readAhead = lcrs;
    }

    /**
     * Reads the LCRs of several small transactions in one query, so that a backlog of small
     * transactions costs one round trip per window rather than one per transaction.
     */
    Map<String, List<RowLcr>> readAhead(Connection source, List<String> txIds) throws SQLException {
        Map<String, List<RowLcr>> out = new java.util.HashMap<>();
        if (txIds.isEmpty()) return out;
        ReadAheadQuery query = readAheadQuery(txIds);
        try (PreparedStatement ps = source.prepareStatement(query.sql())) {
            query.binder().bind(ps);
            java.util.Set<String> undecodable = new java.util.HashSet<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    try {
                        if (refusal(rs, signature) != null) throw new IllegalStateException("refused");
                        out.computeIfAbsent(rs.getString(2), k -> new ArrayList<>()).add(read(rs));
                    } catch (RuntimeException e) {
                        undecodable.add(rs.getString(2)); // read again when applied, where its failure is queued
                    }
                }
            }
            out.keySet().removeAll(undecodable);
        }
        return out;
    }

    /** Streams a transaction's LCRs into {@code sink}, read ahead or from {@code source}; returns how many. */
    public <X extends Exception> long stream(Connection source, String txId, LcrSink<X> sink)
            throws SQLException, RefusedLcr, X {
        List<RowLcr> ahead = readAhead.get(txId);
        if (ahead != null) {
            long n = 0;
            for (RowLcr lcr : ahead) sink.accept(lcr, ++n);
            return n;
        }
        synchronized (this.source) {
            if (transaction == null) {
                transaction = source.prepareStatement(selectTransaction());
                transaction.setFetchSize(FETCH);
            }
            PreparedStatement ps = transaction;
            ps.setString(1, txId);
            long n = 0;
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) sink.accept(decode(rs, txId, n + 1, signature), ++n);
            }
            return n;
        }
    }

    /**
     * The LCR of the current row, or a {@link RefusedLcr} saying why it cannot be decoded: one
     * bad LCR sends its transaction to the error queue instead of stopping the applier (SPEC 8.8).
     */
    private static RowLcr decode(ResultSet rs, String txId, long number, LogSignature signature)
            throws SQLException, RefusedLcr {
        String refused = refusal(rs, signature);
        if (refused != null) {
            throw new RefusedLcr(number, "LCR " + number + " (position " + rs.getLong(1)
                    + ") of transaction " + txId + " for " + rs.getString(5) + "." + rs.getString(6) + " from source node "
                    + rs.getString(3) + ": " + refused, null);
        }
        try {
            return read(rs);
        } catch (RuntimeException e) {
            // SPEC 8.7: a command or value type this driver does not know is refused (42501), like any LCR it cannot read
            throw new RefusedLcr(number, "LCR " + number + " (position " + rs.getLong(1)
                    + ") of transaction " + txId + " for " + rs.getString(5) + "." + rs.getString(6) + " from source node "
                    + rs.getString(3) + " cannot be read (command type " + rs.getString(4) + ", column types "
                    + rs.getString(9) + "): " + e.getMessage(), e);
        }
    }

    /**
     * Streams a transaction's LCRs as stored, undecoded, from {@code source}: the error queue keeps
     * them as they are, decodable or not. Returns how many.
     */
    public long streamStored(Connection source, String txId, StoredSink sink) throws SQLException {
        synchronized (this.source) {
            if (transaction == null) {
                transaction = source.prepareStatement(selectTransaction());
                transaction.setFetchSize(FETCH);
            }
            transaction.setString(1, txId);
            long n = 0;
            try (ResultSet rs = transaction.executeQuery()) {
                while (rs.next()) {
                    String[] columns = new String[10];
                    for (int i = 0; i < columns.length; i++) columns[i] = rs.getString(i + 1);
                    sink.accept(columns, rs.getTimestamp(11), rs.getBytes(12), ++n);
                }
            }
            return n;
        }
    }

    /** Receives a stored LCR: the first ten of {@link #COLUMNS} as text, then created_at and the signature. */
    public interface StoredSink {
        void accept(String[] columns, java.sql.Timestamp createdAt, byte[] signature, long number) throws SQLException;
    }

    /**
     * SPEC 8.7, repl.log.key: null when the current row of a result selecting {@link #COLUMNS} carries
     * a valid signature (or no key is set here), else why not. Recomputed from the columns as stored.
     */
    public static String refusal(ResultSet rs, LogSignature signature) throws SQLException {
        if (signature == null) return null;
        byte[] signed = rs.getBytes(12);
        if (signed == null) return "unsigned LCR (repl.log.key is set here, so every LCR must carry its signature)";
        boolean valid = signature.verify(signed, rs.getLong(1), rs.getString(2), rs.getString(3), rs.getString(4),
                rs.getString(5), rs.getString(6), rs.getString(9), rs.getString(10), rs.getString(7), rs.getString(8));
        return valid ? null : "LCR signature does not match (not signed with this node's repl.log.key, or altered"
                + " after it was signed)";
    }

    /** Column types by their JSON text: every LCR of one statement shape carries the same text. */
    private static final Map<String, Map<String, ValueType>> TYPES = new java.util.concurrent.ConcurrentHashMap<>();

    private static Map<String, ValueType> types(String json) {
        Map<String, ValueType> known = TYPES.get(json);
        if (known != null) return known;
        if (TYPES.size() >= 1024) TYPES.clear();
        Map<String, ValueType> parsed = java.util.Collections.unmodifiableMap(RowImage.typesFromJson(json));
        TYPES.put(json, parsed);
        return parsed;
    }

    /** The LCR of the current row of a result set selecting {@link #COLUMNS} in order. */
    public static RowLcr read(ResultSet rs) throws SQLException {
        Map<String, ValueType> types = types(rs.getString(9));
        String oldJson = rs.getString(7);
        String newJson = rs.getString(8);
        List<String> vector = new ArrayList<>();
        String vectorJson = rs.getString(10);
        if (vectorJson != null && Json.read(vectorJson) instanceof List<?> list) {
            for (Object o : list) vector.add(o.toString());
        }
        java.sql.Timestamp created = rs.getTimestamp(11);
        return new RowLcr(rs.getString(3), CommandType.valueOf(rs.getString(4)), rs.getString(5), rs.getString(6),
                rs.getString(2), rs.getLong(1), created == null ? null : created.toInstant(), null,
                oldJson == null ? null : RowImage.fromJson(oldJson, types),
                newJson == null ? null : RowImage.fromJson(newJson, types), vector, null);
    }

    /** Receives LCRs one at a time, with their 1-based number in the transaction. */
    public interface LcrSink<X extends Exception> {
        void accept(RowLcr lcr, long number) throws SQLException, X;
    }
}
