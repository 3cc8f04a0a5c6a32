package io.jdbcrepl.node;

import io.jdbcrepl.capture.ColumnInfo;
import io.jdbcrepl.capture.TableInfo;
import io.jdbcrepl.dialect.Dialect;
import io.jdbcrepl.lcr.ValueType;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
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
        return dialect.part(Catalogs.class).currentSchema(connection);
    }

    /**
     * Loads a table, or empty when it does not exist or is temporary. {@code schema} and {@code table} are stored
     * names (already folded); {@code keyOverride} is the substitute key, or null for the primary key.
     */
    public static Optional<TableInfo> load(Connection connection, Dialect dialect, String schema, String table,
            List<String> keyOverride) throws SQLException {
        Catalogs catalogs = dialect.part(Catalogs.class);
        DatabaseMetaData md = connection.getMetaData();
        String escape = md.getSearchStringEscape();
        String tablePattern = escapePattern(table, escape);
        // MySQL and MariaDB call a schema a catalog in JDBC.
        String catalog = dialect.schemasAreCatalogs() ? schema : null;
        String schemaPattern = dialect.schemasAreCatalogs() ? null : escapePattern(schema, escape);

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
        // A temporary table's rows live in one session (Hibernate's tables of ids for bulk HQL): not
        // replicated, as PostgreSQL's and MariaDB's, which these look-ups do not find, are not
        try (ResultSet rs = md.getTables(catalog, schemaPattern, tablePattern, null)) {
            while (rs.next()) {
                String type = rs.getString("TABLE_TYPE");
                if (table.equals(rs.getString("TABLE_NAME")) && type != null && type.toUpperCase(java.util.Locale.ROOT)
                        .contains("TEMPORARY")) {
                    return Optional.empty();
                }
            }
        }

        List<String> key = keyOverride;
        if (key == null || key.isEmpty()) {
            TreeMap<Integer, String> pk = new TreeMap<>();
            try (ResultSet rs = md.getPrimaryKeys(catalog, dialect.schemasAreCatalogs() ? null : schema, table)) {
                while (rs.next()) pk.put(rs.getInt("KEY_SEQ"), rs.getString("COLUMN_NAME"));
            }
            key = new ArrayList<>(pk.values());
        }
        Map<String, List<String>> constraints = catalogs.constraints(connection, schema, table);
        java.util.Set<String> uniqueColumns = catalogs.uniqueColumns(connection, schema, table);
        return Optional.of(new TableInfo(schema, table, columns, key, constraints, uniqueColumns));
    }

    /** Whether the table exists. {@code schema} and {@code table} are stored names (already folded). */
    public static boolean exists(Connection connection, Dialect dialect, String schema, String table) throws SQLException {
        DatabaseMetaData md = connection.getMetaData();
        String escape = md.getSearchStringEscape();
        String catalog = dialect.schemasAreCatalogs() ? schema : null;
        String schemaPattern = dialect.schemasAreCatalogs() ? null : escapePattern(schema, escape);
        try (ResultSet rs = md.getTables(catalog, schemaPattern, escapePattern(table, escape), null)) {
            while (rs.next()) {
                if (table.equals(rs.getString("TABLE_NAME"))) return true; // the pattern is LIKE-ish
            }
        }
        return false;
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

    private static String safeString(ResultSet rs, String column) {
        try {
            return rs.getString(column);
        } catch (SQLException e) {
            return null; // an older driver without JDBC 4.1's IS_GENERATEDCOLUMN
        }
    }

    /** Escapes LIKE wildcards for a metadata pattern: {@code t_pk} must not match {@code t1pk}. */
    public static String escapePattern(String name, String escape) {
        if (name == null || escape == null || escape.isEmpty()) return name;
        StringBuilder out = new StringBuilder();
        for (char c : name.toCharArray()) {
            if (c == '_' || c == '%' || escape.indexOf(c) == 0) out.append(escape);
            out.append(c);
        }
        return out.toString();
    }
}
