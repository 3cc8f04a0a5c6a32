package io.jdbcrepl.ddl;

import io.jdbcrepl.dialect.Dialect;
import io.jdbcrepl.lcr.ValueType;
import io.jdbcrepl.node.TableCatalog;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * A table's definition as JDBC's metadata gives it (columns, primary key, indexes, foreign keys),
 * with each column's exact definition from its own database ({@link TableDdl#nativeColumns}).
 * Stored names throughout.
 */
public record TableDefinition(String schema, String name, List<Column> columns, String primaryKeyName,
        List<String> primaryKey, List<Index> indexes, List<ForeignKey> foreignKeys) {

    /**
     * A column. {@code size} and {@code scale} are JDBC's {@code COLUMN_SIZE} and
     * {@code DECIMAL_DIGITS}; {@code type} the portable type its values are logged as.
     */
    public record Column(String name, int jdbcType, String typeName, int size, int scale, boolean nullable,
            ValueType type, TableDdl.NativeColumn definition) {

        /** The bytes of an integer column's values: 1, 2, 4, 8, or 16 for an unsigned 64-bit one. */
        public int integerBytes() {
            boolean unsigned = typeName != null && typeName.toLowerCase(Locale.ROOT).contains("unsigned");
            int bytes = switch (jdbcType) {
                case Types.TINYINT -> 1;
                case Types.SMALLINT -> 2;
                case Types.INTEGER -> 4;
                case Types.BIGINT -> 8;
                default -> 2; // a year
            };
            return unsigned ? bytes * 2 : bytes;
        }

        /** The length of a character or binary column that has one, else 0 (text, CLOB, BLOB). */
        public int length() {
            boolean bounded = switch (jdbcType) {
                case Types.CHAR, Types.NCHAR, Types.VARCHAR, Types.NVARCHAR, Types.BINARY, Types.VARBINARY -> true;
                default -> false;
            };
            return bounded && size > 0 && size <= MAX_LENGTH ? size : 0;
        }

        /** Whether a decimal column has a precision (PostgreSQL's plain {@code numeric} has none). */
        public boolean boundedDecimal() {
            return size > 0 && size < MAX_DECIMAL_PRECISION;
        }

        /** The fractional digits of a time or timestamp, 0 to 6. */
        public int fraction() {
            int digits = definition != null && definition.fraction() >= 0 ? definition.fraction() : scale;
            return Math.max(0, Math.min(6, digits));
        }

        /** Whether it holds character data (not a type JDBC calls OTHER: an interval, an array, a range). */
        public boolean character() {
            return switch (jdbcType) {
                case Types.CHAR, Types.NCHAR, Types.VARCHAR, Types.NVARCHAR, Types.LONGVARCHAR, Types.LONGNVARCHAR,
                        Types.CLOB, Types.NCLOB -> true;
                default -> false;
            };
        }
    }

    /** Longest length read as a bound (PostgreSQL's varchar limit): beyond it a column is unbounded text. */
    static final int MAX_LENGTH = 10_485_760;
    /** PostgreSQL's plain numeric reads with this precision (or 0). */
    static final int MAX_DECIMAL_PRECISION = 1000;

    /** An index: unique or not, a unique constraint's or its own, its columns in order, each with whether it descends. */
    public record Index(String name, boolean unique, boolean constraint, List<String> columns, List<Boolean> descending) {
    }

    /** A foreign key and its actions ({@link DatabaseMetaData#importedKeyCascade} ...). */
    public record ForeignKey(String name, List<String> columns, String referencedSchema, String referencedTable,
            List<String> referencedColumns, int onDelete, int onUpdate) {
    }

    /** Whether a column is in the primary key or an index. */
    public boolean indexed(String column) {
        return primaryKey.contains(column) || indexes.stream().anyMatch(i -> i.columns().contains(column));
    }

    /** Reads a table's definition; empty columns when it does not exist. */
    public static TableDefinition read(Connection connection, Dialect dialect, String schema, String table) throws SQLException {
        DatabaseMetaData md = connection.getMetaData();
        String catalog = dialect.schemasAreCatalogs() ? schema : null;
        String schem = dialect.schemasAreCatalogs() ? null : schema;
        TableDdl ddl = dialect.part(TableDdl.class);
        Map<String, TableDdl.NativeColumn> natives = ddl.nativeColumns(connection, schema, table);

        TreeMap<Integer, Column> columns = new TreeMap<>();
        String escape = md.getSearchStringEscape();
        try (ResultSet rs = md.getColumns(catalog, TableCatalog.escapePattern(schem, escape), TableCatalog.escapePattern(table, escape), null)) {
            while (rs.next()) {
                if (!table.equals(rs.getString("TABLE_NAME"))) continue;
                String name = rs.getString("COLUMN_NAME");
                int jdbcType = rs.getInt("DATA_TYPE");
                String typeName = rs.getString("TYPE_NAME");
                ValueType type = ValueType.of(jdbcType, typeName);
                if (type == ValueType.TIMESTAMP && dialect.timestampInSessionZone(typeName)) type = ValueType.TIMESTAMPTZ;
                TableDdl.NativeColumn definition = natives.get(name);
                // a JSON type the connector reports as text (MariaDB's LONGTEXT with a check)
                if (type == ValueType.STRING && definition != null && "JSON".equalsIgnoreCase(definition.type())) type = ValueType.JSON;
                columns.put(rs.getInt("ORDINAL_POSITION"), new Column(name, jdbcType, typeName, rs.getInt("COLUMN_SIZE"),
                        rs.getInt("DECIMAL_DIGITS"), rs.getInt("NULLABLE") != DatabaseMetaData.columnNoNulls, type,
                        definition));
            }
        }

        TreeMap<Integer, String> pk = new TreeMap<>();
        String pkName = null;
        try (ResultSet rs = md.getPrimaryKeys(catalog, schem, table)) {
            while (rs.next()) {
                pk.put(rs.getInt("KEY_SEQ"), rs.getString("COLUMN_NAME"));
                pkName = rs.getString("PK_NAME");
            }
        }
        List<String> primaryKey = new ArrayList<>(pk.values());
        return new TableDefinition(schema, table, new ArrayList<>(columns.values()), pkName, primaryKey,
                indexes(md, catalog, schem, table, primaryKey, ddl.uniqueConstraints(connection, schema, table)),
                foreignKeys(md, catalog, schem, table));
    }

    /** The indexes but the primary key's, in the order the metadata lists them, named as the constraints they enforce. */
    private static List<Index> indexes(DatabaseMetaData md, String catalog, String schema, String table, List<String> primaryKey,
            Map<String, String> constraintNames) throws SQLException {
        Map<String, TreeMap<Integer, String[]>> columns = new LinkedHashMap<>();
        Map<String, Boolean> unique = new LinkedHashMap<>();
        try (ResultSet rs = md.getIndexInfo(catalog, schema, table, false, false)) {
            while (rs.next()) {
                String name = rs.getString("INDEX_NAME");
                if (name == null || rs.getShort("TYPE") == DatabaseMetaData.tableIndexStatistic) continue;
                unique.put(name, !rs.getBoolean("NON_UNIQUE"));
                columns.computeIfAbsent(name, n -> new TreeMap<>()).put((int) rs.getShort("ORDINAL_POSITION"),
                        new String[] {rs.getString("COLUMN_NAME"), rs.getString("ASC_OR_DESC")});
            }
        }
        List<Index> out = new ArrayList<>();
        for (Map.Entry<String, TreeMap<Integer, String[]>> e : columns.entrySet()) {
            List<String> names = e.getValue().values().stream().map(c -> c[0]).toList();
            boolean isUnique = unique.get(e.getKey());
            if (isUnique && names.equals(primaryKey)) continue;
            String constraint = constraintNames.get(e.getKey());
            out.add(new Index(constraint != null ? constraint : e.getKey(), isUnique, constraint != null, names, e.getValue().values().stream().map(c -> "D".equals(c[1])).toList()));
        }
        return out;
    }

    private static List<ForeignKey> foreignKeys(DatabaseMetaData md, String catalog, String schema, String table) throws SQLException {
        Map<String, List<String[]>> rows = new LinkedHashMap<>();
        try (ResultSet rs = md.getImportedKeys(catalog, schema, table)) {
            while (rs.next()) {
                String refSchema = rs.getString(catalog != null ? "PKTABLE_CAT" : "PKTABLE_SCHEM");
                rows.computeIfAbsent(rs.getString("FK_NAME"), n -> new ArrayList<>()).add(new String[] {
                        rs.getString("FKCOLUMN_NAME"), refSchema, rs.getString("PKTABLE_NAME"), rs.getString("PKCOLUMN_NAME"),
                        String.valueOf(rs.getInt("DELETE_RULE")), String.valueOf(rs.getInt("UPDATE_RULE")),
                        String.valueOf(rs.getInt("KEY_SEQ"))});
            }
        }
        List<ForeignKey> out = new ArrayList<>();
        for (Map.Entry<String, List<String[]>> e : rows.entrySet()) {
            List<String[]> parts = new ArrayList<>(e.getValue());
            parts.sort((a, b) -> Integer.compare(Integer.parseInt(a[6]), Integer.parseInt(b[6])));
            String[] first = parts.get(0);
            out.add(new ForeignKey(e.getKey(), parts.stream().map(p -> p[0]).toList(), first[1], first[2],
                    parts.stream().map(p -> p[3]).toList(), Integer.parseInt(first[4]), Integer.parseInt(first[5])));
        }
        return out;
    }
}
