package io.jdbcrepl.verify;

import io.jdbcrepl.capture.ColumnInfo;
import io.jdbcrepl.capture.TableInfo;
import io.jdbcrepl.dialect.Dialect;
import io.jdbcrepl.intercept.SqlState;
import io.jdbcrepl.lcr.ValueType;
import io.jdbcrepl.node.TableCatalog;
import io.jdbcrepl.verify.CanonicalValue.KeyPart;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Compares one table's rows on two or more nodes: each node's rows are read once, ordered by key,
 * and merged, so memory does not grow with the table; rows are compared by {@link CanonicalValue}
 * column by column. Lists the keys that are missing somewhere or whose rows differ (up to a
 * limit, counting all), and per node the row count and an order-independent checksum of its rows.
 * A table without primary key is keyed by every comparable column (SPEC 3.3) and compared as a
 * multiset: identical rows are counted, and a row there a different number of times differs.
 */
public final class TableVerifier {

    /** One node's database: a plain (not capturing) connection of it. */
    public record Side(String node, Connection connection, Dialect dialect) {
    }

    /**
     * How a key differs: missing on some nodes, or its row differs on some nodes, or (a table
     * without key) its identical rows are there a different number of times on some nodes.
     */
    public enum Kind { MISSING, DIFFERENT, COUNT }

    /**
     * @param key     the key's values, canonical text
     * @param nodes   the nodes where the row is missing ({@code MISSING}) or differs from the first
     *                node that has it ({@code DIFFERENT})
     * @param columns for {@code DIFFERENT}: the columns whose values differ
     */
    public record Difference(List<String> key, Kind kind, List<String> nodes, List<String> columns) {
    }

    public record NodeSummary(String node, String table, long rows, String checksum) {
    }

    /**
     * @param differingKeys every differing key, also those past the listing limit
     * @param keyless       the table has no primary key: keyed by every comparable column, compared as a multiset
     */
    public record Report(String table, List<String> keyColumns, List<NodeSummary> nodes, List<Difference> differences,
            long differingKeys, boolean keyless) {

        public boolean agree() {
            return differingKeys == 0;
        }
    }

    private static final int FETCH_SIZE = 1_000;

    private final int limit;

    /** @param limit how many differing keys to list at most (all are counted) */
    public TableVerifier(int limit) {
        this.limit = limit;
    }

    /**
     * Compares {@code table} ({@code schema.table} or {@code table} in each side's current schema,
     * matched exactly, then as each database folds names, then ignoring case).
     */
    public Report compare(List<Side> sides, String table) throws SQLException {
        if (sides.size() < 2) throw SqlState.INVALID_PARAMETER_VALUE.exception("verify needs at least two nodes, got " + sides.size());
        List<TableInfo> infos = new ArrayList<>();
        for (Side side : sides) infos.add(resolve(side, table));
        TableInfo first = infos.get(0);
        // The key first: each reader's first columns are the key it orders and merges by.
        List<String> columns = new ArrayList<>(first.key());
        for (ColumnInfo c : first.columns()) if (!first.isKey(c.name())) columns.add(c.name());
        for (int i = 1; i < sides.size(); i++) sameShape(sides.get(0), first, sides.get(i), infos.get(i));

        List<Reader> readers = new ArrayList<>();
        try {
            // A column that is JSON on any node is compared as a document on every node (MariaDB's
            // JSON is a LONGTEXT to its driver).
            boolean[] json = new boolean[columns.size()];
            for (int c = 0; c < columns.size(); c++) {
                for (TableInfo info : infos) json[c] |= find(info, columns.get(c)).map(ci -> ci.type() == ValueType.JSON).orElse(false);
            }
            for (int i = 0; i < sides.size(); i++) readers.add(new Reader(sides.get(i), infos.get(i), first, columns, json));
            return merge(sides, readers, first, columns);
        } finally {
            SQLException failure = null;
            for (Reader r : readers) {
                try {
                    r.close();
                } catch (SQLException e) {
                    failure = e;
                }
            }
            if (failure != null) throw failure;
        }
    }

    private Report merge(List<Side> sides, List<Reader> readers, TableInfo first, List<String> columns)
            throws SQLException {
        Comparator<List<KeyPart>> order = CanonicalValue.keyOrder();
        List<Difference> differences = new ArrayList<>();
        long differing = 0;
        for (Reader r : readers) r.advance();
        while (true) {
            List<KeyPart> smallest = null;
            for (Reader r : readers) {
                if (r.key != null && (smallest == null || order.compare(r.key, smallest) < 0)) smallest = r.key;
            }
            if (smallest == null) break;
            List<String> missing = new ArrayList<>();
            Reader reference = null;
            List<String> differ = new ArrayList<>();
            List<String> counted = new ArrayList<>();
            List<String> differentColumns = new ArrayList<>();
            for (Reader r : readers) {
                if (r.key == null || order.compare(r.key, smallest) != 0) {
                    missing.add(r.side.node());
                    continue;
                }
                if (reference == null) {
                    reference = r;
                    continue;
                }
                if (reference.group.size() != r.group.size()) {
                    counted.add(r.side.node());
                    continue;
                }
                List<String> cols = new ArrayList<>();
                for (int g = 0; g < r.group.size(); g++) {
                    for (String c : differingColumns(columns, reference.group.get(g), r.group.get(g))) {
                        if (!cols.contains(c)) cols.add(c);
                    }
                }
                if (!cols.isEmpty()) {
                    differ.add(r.side.node());
                    for (String c : cols) if (!differentColumns.contains(c)) differentColumns.add(c);
                }
            }
            List<String> keyText = smallest.stream().map(KeyPart::toString).toList();
            if (!missing.isEmpty() || !differ.isEmpty() || !counted.isEmpty()) {
                differing++;
                if (differences.size() < limit) {
                    if (!missing.isEmpty()) differences.add(new Difference(keyText, Kind.MISSING, missing, List.of()));
                    if (!counted.isEmpty()) differences.add(new Difference(keyText, Kind.COUNT, counted, List.of()));
                    if (!differ.isEmpty()) differences.add(new Difference(keyText, Kind.DIFFERENT, differ, differentColumns));
                }
            }
            for (Reader r : readers) {
                if (r.key != null && order.compare(r.key, smallest) == 0) r.advance();
            }
        }
        List<NodeSummary> nodes = new ArrayList<>();
        for (Reader r : readers) {
            nodes.add(new NodeSummary(r.side.node(), r.info.qualifiedName(), r.rows, String.format("%016x", r.checksum)));
        }
        return new Report(first.name(), first.key(), nodes, differences, differing, first.keyless());
    }

    private static List<String> differingColumns(List<String> columns, String[] a, String[] b) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < columns.size(); i++) {
            if (a[i] == null ? b[i] != null : !a[i].equals(b[i])) out.add(columns.get(i));
        }
        return out;
    }

    /** The same columns (ignoring case) and the same key on both nodes, else a clear error. */
    private static void sameShape(Side a, TableInfo ta, Side b, TableInfo tb) throws SQLException {
        for (ColumnInfo c : ta.columns()) {
            if (find(tb, c.name()).isEmpty()) {
                throw SqlState.UNDEFINED_COLUMN.exception("Table " + ta.name() + ": column " + c.name() + " is on node " + a.node()
                        + " but not on node " + b.node() + ": verify compares tables of the same columns");
            }
        }
        for (ColumnInfo c : tb.columns()) {
            if (find(ta, c.name()).isEmpty()) {
                throw SqlState.UNDEFINED_COLUMN.exception("Table " + ta.name() + ": column " + c.name() + " is on node " + b.node()
                        + " but not on node " + a.node() + ": verify compares tables of the same columns");
            }
        }
        List<String> ka = ta.key().stream().map(k -> k.toLowerCase(Locale.ROOT)).toList();
        List<String> kb = tb.key().stream().map(k -> k.toLowerCase(Locale.ROOT)).toList();
        if (!ka.equals(kb)) {
            throw SqlState.INVALID_COLUMN_REFERENCE.exception(
                    "Table " + ta.name() + " has key " + ta.key() + " on node " + a.node() + " but "
                    + tb.key() + " on node " + b.node());
        }
    }

    private static Optional<ColumnInfo> find(TableInfo table, String column) {
        return table.columns().stream().filter(c -> c.name().equalsIgnoreCase(column)).findFirst();
    }

    // ---- finding the table on a node

    static TableInfo resolve(Side side, String table) throws SQLException {
        int dot = table.indexOf('.');
        String schema = dot < 0 ? TableCatalog.currentSchema(side.connection(), side.dialect()) : table.substring(0, dot);
        String name = dot < 0 ? table : table.substring(dot + 1);
        for (String s : candidates(side, schema, true)) {
            for (String n : candidates(side, name, false)) {
                Optional<TableInfo> info = TableCatalog.load(side.connection(), side.dialect(), s, n, null);
                if (info.isEmpty()) continue;
                try {
                    return info.get().keyedByComparableColumns();
                } catch (IllegalArgumentException e) {
                    throw SqlState.INVALID_COLUMN_REFERENCE.exception(e.getMessage());
                }
            }
        }
        throw SqlState.UNDEFINED_TABLE.exception("Table " + table + " does not exist on node " + side.node()
                + (dot < 0 ? " (in schema " + schema + ")" : ""));
    }

    /** The name as given, as the database folds it, and as stored when it differs only in case. */
    private static List<String> candidates(Side side, String given, boolean schema) throws SQLException {
        List<String> out = new ArrayList<>();
        out.add(given);
        String folded = side.dialect().fold(given);
        if (!out.contains(folded)) out.add(folded);
        DatabaseMetaData md = side.connection().getMetaData();
        boolean catalogs = side.dialect().schemasAreCatalogs();
        try (ResultSet rs = schema ? (catalogs ? md.getCatalogs() : md.getSchemas())
                : md.getTables(null, null, null, new String[] {"TABLE"})) {
            String column = schema ? (catalogs ? "TABLE_CAT" : "TABLE_SCHEM") : "TABLE_NAME";
            while (rs.next()) {
                String stored = rs.getString(column);
                if (stored != null && stored.equalsIgnoreCase(given) && !out.contains(stored)) out.add(stored);
            }
        }
        return out;
    }

    // ---- reading one node's rows in key order

    private static final class Reader {
        final Side side;
        final TableInfo info;
        final ValueType[] types;
        final int keySize;
        /** A table without key: rows with equal keys are read together ({@link #group}). */
        final boolean multiset;
        private final PreparedStatement statement;
        private final ResultSet rows_;
        /** The reader left auto-commit to stream ({@link VerifySql#streamsInTransactionOnly}): it returns to it at the end. */
        private final boolean inTransaction;
        private final MessageDigest digest;
        List<KeyPart> key;
        String[] row;
        /** The rows with the current key, ordered (one, unless the table has no key). */
        List<String[]> group;
        /** The row read past the end of the group. */
        private String[] ahead;
        long rows;
        long checksum;

        final boolean[] json;

        Reader(Side side, TableInfo info, TableInfo reference, List<String> columns, boolean[] json) throws SQLException {
            this.json = json;
            this.side = side;
            this.info = info;
            this.keySize = reference.key().size();
            this.multiset = reference.keyless();
            Connection c = side.connection();
            VerifySql verifySql = side.dialect().part(VerifySql.class);
            List<ColumnInfo> ordered = new ArrayList<>();
            for (String name : columns) ordered.add(find(info, name).orElseThrow());
            types = ordered.stream().map(ColumnInfo::type).toArray(ValueType[]::new);
            StringBuilder sql = new StringBuilder("SELECT ");
            for (int i = 0; i < ordered.size(); i++) {
                if (i > 0) sql.append(", ");
                // a large object by its content: its number is the node's own
                sql.append(side.dialect().readValue(ordered.get(i).type(), quote(side.dialect(), ordered.get(i).name())));
            }
            sql.append(" FROM ").append(quote(side.dialect(), info.schema())).append('.')
                    .append(quote(side.dialect(), info.name())).append(" ORDER BY ");
            for (int i = 0; i < keySize; i++) {
                if (i > 0) sql.append(", ");
                sql.append(orderTerm(side.dialect(), ordered.get(i)));
                // NULL first, as CanonicalValue orders
                if (multiset) sql.append(verifySql.nullsFirst());
            }
            inTransaction = verifySql.streamsInTransactionOnly() && c.getAutoCommit();
            if (inTransaction) c.setAutoCommit(false);
            statement = c.prepareStatement(sql.toString(), ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_READ_ONLY);
            statement.setFetchSize(verifySql.streamingFetchSize(c, FETCH_SIZE));
            rows_ = statement.executeQuery();
            try {
                digest = MessageDigest.getInstance("SHA-256");
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException(e);
            }
        }

        /** Reads the next key: its row, or (a table without key) every row with that key. */
        void advance() throws SQLException {
            String[] values = ahead != null ? ahead : next();
            ahead = null;
            if (values == null) {
                key = null;
                row = null;
                group = null;
                return;
            }
            List<KeyPart> next = keyOf(values);
            if (key != null && CanonicalValue.keyOrder().compare(key, next) >= 0) {
                throw SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE.exception(
                        "Node " + side.node() + " returned the keys of " + info.qualifiedName()
                        + " out of order (" + key + " then " + next + "): its collation orders them differently"
                        + " from the other nodes");
            }
            List<String[]> same = new ArrayList<>();
            same.add(values);
            while (multiset) {
                String[] more = next();
                if (more == null) break;
                if (CanonicalValue.keyOrder().compare(next, keyOf(more)) != 0) {
                    ahead = more;
                    break;
                }
                same.add(more);
            }
            same.sort(TableVerifier::compareRows); // identical in the key, maybe not in a LOB
            key = next;
            row = values;
            group = same;
        }

        /** The next row's canonical values, counted and summed into the checksum; null at the end. */
        private String[] next() throws SQLException {
            if (!rows_.next()) return null;
            String[] values = new String[types.length];
            for (int i = 0; i < types.length; i++) {
                Object value = types[i].read(rows_, i + 1);
                values[i] = json[i] && value != null ? CanonicalValue.json(value.toString()) : CanonicalValue.of(types[i], value);
            }
            rows++;
            checksum += hash(values);
            return values;
        }

        /** The first {@code keySize} columns. */
        private List<KeyPart> keyOf(String[] values) {
            List<KeyPart> out = new ArrayList<>(keySize);
            for (int i = 0; i < keySize; i++) out.add(new KeyPart(types[i], values[i]));
            return out;
        }

        /** An order-independent checksum: the sum of the rows' 64-bit hashes. */
        private long hash(String[] values) {
            digest.reset();
            for (String v : values) {
                if (v == null) {
                    digest.update((byte) 0);
                } else {
                    byte[] bytes = v.getBytes(StandardCharsets.UTF_8);
                    digest.update((byte) 1);
                    digest.update(java.nio.ByteBuffer.allocate(4).putInt(bytes.length).array());
                    digest.update(bytes);
                }
            }
            return java.nio.ByteBuffer.wrap(digest.digest()).getLong();
        }

        void close() throws SQLException {
            try {
                rows_.close();
                statement.close();
            } finally {
                if (inTransaction) {
                    side.connection().rollback();
                    side.connection().setAutoCommit(true);
                }
            }
        }
    }

    /** Rows in a fixed order, NULL first: the rows of one key of a table without key, to compare as multisets. */
    private static int compareRows(String[] a, String[] b) {
        for (int i = 0; i < a.length; i++) {
            if (a[i] == null || b[i] == null) {
                if (a[i] != b[i]) return a[i] == null ? -1 : 1;
                continue;
            }
            int c = a[i].compareTo(b[i]);
            if (c != 0) return c;
        }
        return 0;
    }

    private static String orderTerm(Dialect dialect, ColumnInfo column) {
        String quoted = quote(dialect, column.name());
        if (column.type() != ValueType.STRING && column.type() != ValueType.UUID_) return quoted;
        return dialect.part(VerifySql.class).orderTerm(quoted, column.type());
    }

    private static String quote(Dialect dialect, String identifier) {
        return dialect.quote(identifier);
    }
}
