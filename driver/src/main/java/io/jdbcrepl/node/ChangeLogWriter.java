package io.jdbcrepl.node;

import io.jdbcrepl.capture.locking.LogInsert;
import io.jdbcrepl.capture.locking.LogRowShape;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** Writes one statement's row LCRs into repl_log, in multi-row INSERTs of a bounded number of rows. */
final class ChangeLogWriter {

    static final int ROWS_PER_INSERT = 100;

    private final Connection connection;
    private final String logTable;
    private final String txId;
    private final String node;
    private final LogRowShape shape;
    private final List<Pending> pending = new ArrayList<>();

    /** An LCR not written yet; its shape is the statement's, or its own in an upsert (INSERT or UPDATE). */
    private record Pending(LogRowShape shape, String oldJson, String newJson) {
    }

    ChangeLogWriter(Connection connection, String logTable, String txId, String node, LogRowShape shape) {
        this.connection = connection;
        this.logTable = logTable;
        this.txId = txId;
        this.node = node;
        this.shape = shape;
    }

    /** One LCR; {@code oldJson}/{@code newJson} null when the command has none. */
    void add(String oldJson, String newJson) throws SQLException {
        add(shape, oldJson, newJson);
    }

    /** One LCR of another shape than the statement's. */
    void add(LogRowShape shape, String oldJson, String newJson) throws SQLException {
        pending.add(new Pending(shape, oldJson, newJson));
        if (pending.size() == ROWS_PER_INSERT) flush();
    }

    /**
     * Appends the LCRs not written yet as SQL values, {@code (…), (…)}, for {@link LogInsert#sql}'s
     * columns; returns how many. The parts a statement's rows share are encoded once per shape.
     */
    int appendPendingRows(StringBuilder sql) {
        String head = "(" + literal(txId) + ", " + literal(node) + ", ";
        for (int i = 0; i < pending.size(); i++) {
            Pending row = pending.get(i);
            String[] shared = sharedLiterals(row.shape());
            if (i > 0) sql.append(", ");
            sql.append(head).append(shared[0]);
            appendLiteral(sql, row.oldJson());
            sql.append(", ");
            appendLiteral(sql, row.newJson());
            sql.append(shared[1]);
        }
        return pending.size();
    }

    /** Per shape: its command, schema and table as literals, and its column types and change vector ending the row. */
    private static final Map<LogRowShape, String[]> SHARED = new ConcurrentHashMap<>();

    private static String[] sharedLiterals(LogRowShape shape) {
        String[] shared = SHARED.get(shape);
        if (shared != null) return shared;
        if (SHARED.size() > 10_000) SHARED.clear(); // shapes come from cached plans: this only bounds a pathological case
        shared = new String[] {
                literal(shape.command().name()) + ", " + literal(shape.schema()) + ", " + literal(shape.table()) + ", ",
                ", " + literal(shape.columnTypesJson()) + ", " + literal(shape.changeVectorJson()) + ")"};
        SHARED.put(shape, shared);
        return shared;
    }

    /**
     * MariaDB/MySQL: a string as a hexadecimal literal in utf8mb4, whatever the session's
     * sql_mode (NO_BACKSLASH_ESCAPES) and character set: nothing in it needs escaping.
     */
    static String literal(String value) {
        return appendLiteral(new StringBuilder(), value).toString();
    }

    private static StringBuilder appendLiteral(StringBuilder sql, String value) {
        if (value == null) return sql.append("NULL");
        sql.append("_utf8mb4 X'");
        return HEX.formatHex(sql, value.getBytes(StandardCharsets.UTF_8)).append('\'');
    }

    private static final HexFormat HEX = HexFormat.of();

    void flush() throws SQLException {
        if (pending.isEmpty()) return;
        try (PreparedStatement ps = connection.prepareStatement(LogInsert.sql(logTable, pending.size()))) {
            int i = 0;
            for (Pending row : pending) {
                LogRowShape shape = row.shape();
                ps.setString(++i, txId);
                ps.setString(++i, node);
                ps.setString(++i, shape.command().name());
                ps.setString(++i, shape.schema());
                ps.setString(++i, shape.table());
                ps.setString(++i, row.oldJson());
                ps.setString(++i, row.newJson());
                ps.setString(++i, shape.columnTypesJson());
                ps.setString(++i, shape.changeVectorJson());
            }
            ps.executeUpdate();
        }
        pending.clear();
    }
}
