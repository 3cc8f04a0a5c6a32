package io.jdbcrepl.node;

import io.jdbcrepl.capture.ColumnInfo;
import io.jdbcrepl.capture.TableInfo;
import io.jdbcrepl.dialect.Dialect;
import io.jdbcrepl.lcr.ValueType;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/** Reads a table's columns and key from the database's metadata. */
public final class TableCatalog {

    private TableCatalog() {
    }

    /** The connection's current schema (the database, on MySQL/MariaDB). */
    public static String currentSchema(Connection connection, Dialect dialect) throws SQLException {
        if (dialect.kind() == Dialect.Kind.MYSQL) {
            try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery("SELECT DATABASE()")) {
                rs.next();
                return rs.getString(1);
            }
        }
        return connection.getSchema();
    }

    /**
     * Loads a table, or empty when it does not exist. {@code schema} and {@code table} are stored
     * names (already folded); {@code keyOverride} is the substitute key, or null for the primary key.
     */
    public static Optional<TableInfo> load(Connection connection, Dialect dialect, String schema, String table,
            List<String> keyOverride) throws SQLException {
        DatabaseMetaData md = connection.getMetaData();
        String escape = md.getSearchStringEscape();
        String tablePattern = escapePattern(table, escape);
        // MySQL and MariaDB call a schema a catalog in JDBC.
        String catalog = dialect.kind() == Dialect.Kind.MYSQL ? schema : null;
        String schemaPattern = dialect.kind() == Dialect.Kind.MYSQL ? null : escapePattern(schema, escape);

        List<ColumnInfo> columns = new ArrayList<>();
        try (ResultSet rs = md.getColumns(catalog, schemaPattern, tablePattern, null)) {
            TreeMap<Integer, ColumnInfo> ordered = new TreeMap<>();
            while (rs.next()) {
                if (!table.equals(rs.getString("TABLE_NAME"))) continue; // the pattern is LIKE-ish
                String name = rs.getString("COLUMN_NAME");
                int jdbcType = rs.getInt("DATA_TYPE");
                String typeName = rs.getString("TYPE_NAME");
                boolean nullable = rs.getInt("NULLABLE") != DatabaseMetaData.columnNoNulls;
                boolean generated = "YES".equalsIgnoreCase(safeString(rs, "IS_GENERATEDCOLUMN"));
                ordered.put(rs.getInt("ORDINAL_POSITION"),
                        new ColumnInfo(name, ValueType.of(jdbcType, typeName), typeName, nullable, generated));
            }
            columns.addAll(ordered.values());
        }
        if (columns.isEmpty()) return Optional.empty();

        List<String> key = keyOverride;
        if (key == null || key.isEmpty()) {
            TreeMap<Integer, String> pk = new TreeMap<>();
            try (ResultSet rs = md.getPrimaryKeys(catalog, dialect.kind() == Dialect.Kind.MYSQL ? null : schema, table)) {
                while (rs.next()) pk.put(rs.getInt("KEY_SEQ"), rs.getString("COLUMN_NAME"));
            }
            key = new ArrayList<>(pk.values());
        }
        Map<String, List<String>> constraints = dialect.kind() == Dialect.Kind.POSTGRESQL
                ? constraints(connection, schema, table) : Map.of();
        java.util.Set<String> uniqueColumns = switch (dialect.kind()) {
            case POSTGRESQL -> uniqueIndexColumns(connection, schema, table);
            case H2 -> uniqueIndexColumns(md, schema, table);
            default -> null;
        };
        return Optional.of(new TableInfo(schema, table, columns, key, constraints, uniqueColumns));
    }

    /**
     * PostgreSQL: the primary key, unique and exclusion constraints of a table and their columns in
     * index order (those on expressions left out), for {@code ON CONFLICT ON CONSTRAINT}.
     */
    private static Map<String, List<String>> constraints(Connection connection, String schema, String table)
            throws SQLException {
        Map<String, List<String>> out = new LinkedHashMap<>();
        String sql = "SELECT c.conname, a.attname"
                + " FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid"
                + " JOIN pg_namespace n ON n.oid = t.relnamespace"
                + " CROSS JOIN LATERAL unnest(c.conkey) WITH ORDINALITY AS k(attnum, pos)"
                + " JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum"
                + " WHERE n.nspname = ? AND t.relname = ? AND c.contype IN ('p', 'u', 'x')"
                + " AND 0 <> ALL (c.conkey) ORDER BY c.conname, k.pos";
        try (PreparedStatement ps = ofTable(connection, sql, schema, table); ResultSet rs = ps.executeQuery()) {
            while (rs.next()) out.computeIfAbsent(rs.getString(1), k -> new ArrayList<>()).add(rs.getString(2));
        }
        return out;
    }

    /**
     * PostgreSQL: the columns of the table's unique indexes (which decide whether an UPDATE takes a
     * key-strength row lock), or null when one of them is on an expression.
     */
    private static java.util.Set<String> uniqueIndexColumns(Connection connection, String schema, String table)
            throws SQLException {
        java.util.Set<String> out = new java.util.HashSet<>();
        String sql = "SELECT a.attname, i.indexprs IS NOT NULL"
                + " FROM pg_index i JOIN pg_class t ON t.oid = i.indrelid JOIN pg_namespace n ON n.oid = t.relnamespace"
                + " CROSS JOIN LATERAL unnest(i.indkey) AS k(attnum)"
                + " LEFT JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum"
                + " WHERE n.nspname = ? AND t.relname = ? AND i.indisunique";
        try (PreparedStatement ps = ofTable(connection, sql, schema, table); ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                if (rs.getBoolean(2) || rs.getString(1) == null) return null;
                out.add(rs.getString(1));
            }
        }
        return out;
    }

    /**
     * H2: the columns of the table's unique indexes (an UPDATE assigning one is not run a page at a
     * time: H2 checks unique indexes once a statement has changed all its rows), or null when an
     * index has an expression.
     */
    private static java.util.Set<String> uniqueIndexColumns(DatabaseMetaData md, String schema, String table)
            throws SQLException {
        java.util.Set<String> out = new java.util.HashSet<>();
        for (List<String> columns : uniqueIndexes(md, null, schema, table).values()) {
            if (columns.contains(null)) return null;
            out.addAll(columns);
        }
        return out;
    }

    /**
     * The table's unique indexes (the primary key among them) by name, each with its columns as
     * stored; an expression stands as a null column. {@code catalog} and {@code schema} as
     * {@link DatabaseMetaData#getIndexInfo} takes them (MySQL and MariaDB: the database is the catalog).
     */
    public static Map<String, List<String>> uniqueIndexes(DatabaseMetaData md, String catalog, String schema, String table)
            throws SQLException {
        Map<String, List<String>> out = new LinkedHashMap<>();
        try (ResultSet rs = md.getIndexInfo(catalog, schema, table, true, true)) {
            while (rs.next()) {
                if (rs.getBoolean("NON_UNIQUE") || rs.getString("INDEX_NAME") == null) continue;
                out.computeIfAbsent(rs.getString("INDEX_NAME"), i -> new ArrayList<>()).add(rs.getString("COLUMN_NAME"));
            }
        }
        return out;
    }

    /** A catalog query whose two parameters are the schema and the table name. */
    private static PreparedStatement ofTable(Connection connection, String sql, String schema, String table)
            throws SQLException {
        PreparedStatement ps = connection.prepareStatement(sql);
        try {
            ps.setString(1, schema);
            ps.setString(2, table);
            return ps;
        } catch (SQLException e) {
            ps.close();
            throw e;
        }
    }

    private static String safeString(ResultSet rs, String column) {
        try {
            return rs.getString(column);
        } catch (SQLException e) {
            return null; // an older driver without JDBC 4.1's IS_GENERATEDCOLUMN
        }
    }

    /** Escapes LIKE wildcards: {@code t_pk} must not match {@code t1pk}. */
    static String escapePattern(String name, String escape) {
        if (name == null || escape == null || escape.isEmpty()) return name;
        StringBuilder out = new StringBuilder();
        for (char c : name.toCharArray()) {
            if (c == '_' || c == '%' || escape.indexOf(c) == 0) out.append(escape);
            out.append(c);
        }
        return out.toString();
    }
}
