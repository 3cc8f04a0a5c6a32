package io.jdbcrepl.capture.locking;

import io.jdbcrepl.intercept.SqlState;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Writes one statement's row LCRs into repl_log, in multi-row INSERTs of a bounded number of rows.
 * While the connection streams a result ({@link #beginReading}) it cannot run the INSERTs: the LCRs
 * past one INSERT's worth go to a temporary file and are written when the result has ended.
 */
final class ChangeLogWriter implements AutoCloseable {

    static final int ROWS_PER_INSERT = 100;

    private final Connection connection;
    private final String logTable;
    private final String txId;
    private final String node;
    private final LogRowShape shape;
    private final List<Pending> pending = new ArrayList<>();
    private boolean reading;
    private Overflow overflow;

    /** Where the LCRs set aside go: the JVM's temporary directory (java.io.tmpdir); tests set their own. */
    static volatile Path overflowDirectory = null;

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
        if (pending.size() < ROWS_PER_INSERT) return;
        if (!reading) {
            flush();
            return;
        }
        if (overflow == null) overflow = new Overflow();
        overflow.write(pending);
        pending.clear();
    }

    /** The connection is reading a streamed result until {@link #endReading}: no INSERT meanwhile. */
    void beginReading() {
        reading = true;
    }

    /** The result has ended: the LCRs set aside are written, in the order they came; the last ones may stay pending. */
    void endReading() throws SQLException {
        reading = false;
        if (overflow == null) return;
        List<Pending> last = new ArrayList<>(pending);
        pending.clear();
        try (Overflow rows = overflow) {
            overflow = null;
            rows.readBack(row -> {
                pending.add(row);
                if (pending.size() == ROWS_PER_INSERT) flush();
            });
        }
        for (Pending row : last) add(row.shape(), row.oldJson(), row.newJson());
    }

    /** Deletes the LCRs set aside, if the statement failed before {@link #endReading}. */
    @Override
    public void close() {
        if (overflow != null) overflow.close();
        overflow = null;
    }

    /** LCRs in a temporary file: their shapes by index, their JSON as UTF-8 with a length (-1: null). */
    private static final class Overflow implements AutoCloseable {
        private final Path file;
        private final DataOutputStream out;
        private final List<LogRowShape> shapes = new ArrayList<>();

        Overflow() throws SQLException {
            try {
                Path directory = overflowDirectory;
                file = directory == null ? Files.createTempFile("repl-lcrs-", ".bin")
                        : Files.createTempFile(directory, "repl-lcrs-", ".bin");
                out = new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(file), 1 << 16));
            } catch (IOException e) {
                throw SqlState.IO_ERROR.exception(
                        "Cannot create a temporary file for the LCRs of a large result: " + e.getMessage(), e);
            }
        }

        void write(List<Pending> rows) throws SQLException {
            try {
                for (Pending row : rows) {
                    int shape = shapes.indexOf(row.shape());
                    if (shape < 0) {
                        shape = shapes.size();
                        shapes.add(row.shape());
                    }
                    out.writeInt(shape);
                    writeText(row.oldJson());
                    writeText(row.newJson());
                }
            } catch (IOException e) {
                throw failed(e);
            }
        }

        private void writeText(String text) throws IOException {
            if (text == null) {
                out.writeInt(-1);
                return;
            }
            byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
            out.writeInt(bytes.length);
            out.write(bytes);
        }

        interface RowConsumer {
            void accept(Pending row) throws SQLException;
        }

        void readBack(RowConsumer consumer) throws SQLException {
            try {
                out.close();
                try (DataInputStream in = new DataInputStream(new BufferedInputStream(Files.newInputStream(file), 1 << 16))) {
                    while (true) {
                        int shape;
                        try {
                            shape = in.readInt();
                        } catch (EOFException end) {
                            return;
                        }
                        String oldJson = readText(in);
                        consumer.accept(new Pending(shapes.get(shape), oldJson, readText(in)));
                    }
                }
            } catch (IOException e) {
                throw failed(e);
            }
        }

        private static String readText(DataInputStream in) throws IOException {
            int length = in.readInt();
            return length < 0 ? null : new String(in.readNBytes(length), StandardCharsets.UTF_8);
        }

        private SQLException failed(IOException e) {
            return SqlState.IO_ERROR.exception("Cannot use the temporary file " + file + " for the LCRs of a large result: "
                    + e.getMessage(), e);
        }

        @Override
        public void close() {
            try {
                out.close();
            } catch (IOException ignored) {
                // the file goes anyway
            }
            try {
                Files.deleteIfExists(file);
            } catch (IOException ignored) {
                // a temporary file left behind holds only this failed statement's LCRs
            }
        }
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
