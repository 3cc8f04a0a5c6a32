package io.jdbcrepl.dialect.h2;

import io.jdbcrepl.ddl.TableDdl;
import io.jdbcrepl.ddl.TableDefinition;
import io.jdbcrepl.lcr.ValueType;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/** H2's column definitions from its {@code INFORMATION_SCHEMA.COLUMNS}. */
final class H2TableDdl implements TableDdl {

    /** Types written with a length. */
    private static final Set<String> LENGTH = Set.of("CHARACTER", "CHARACTER VARYING", "VARCHAR_IGNORECASE", "BINARY",
            "BINARY VARYING", "CHARACTER LARGE OBJECT", "BINARY LARGE OBJECT");
    /** Types written with a precision of fractional seconds, before any WITH TIME ZONE. */
    private static final Set<String> FRACTION = Set.of("TIME", "TIMESTAMP", "TIME WITH TIME ZONE", "TIMESTAMP WITH TIME ZONE");
    /** Types whose definition the column view does not hold (ENUM's values, an ARRAY's element type). */
    private static final Set<String> NOT_READ = Set.of("ENUM", "ARRAY", "ROW", "GEOMETRY", "INTERVAL");

    @Override
    public Map<String, NativeColumn> nativeColumns(Connection connection, String schema, String table) throws SQLException {
        String sql = "SELECT COLUMN_NAME, DATA_TYPE, CHARACTER_MAXIMUM_LENGTH, NUMERIC_PRECISION, NUMERIC_SCALE,"
                + " DATETIME_PRECISION, COLUMN_DEFAULT, IS_IDENTITY, IDENTITY_GENERATION, IS_GENERATED, GENERATION_EXPRESSION"
                + " FROM INFORMATION_SCHEMA.COLUMNS WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? ORDER BY ORDINAL_POSITION";
        Map<String, NativeColumn> out = new LinkedHashMap<>();
        try (PreparedStatement ps = connection.prepareStatement(sql)) {
            ps.setString(1, schema);
            ps.setString(2, table);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String type = type(rs.getString(2), rs.getObject(3), rs.getObject(4), rs.getObject(5), rs.getObject(6));
                    boolean computed = "ALWAYS".equals(rs.getString(10));
                    Identity id = !"YES".equals(rs.getString(8)) ? Identity.NONE
                            : "ALWAYS".equals(rs.getString(9)) ? Identity.ALWAYS : Identity.BY_DEFAULT;
                    String def = rs.getString(7);
                    if (computed && type != null) {
                        type = type + " GENERATED ALWAYS AS (" + rs.getString(11) + ")";
                        def = null;
                    }
                    out.put(rs.getString(1), new NativeColumn(type, def, id, computed, null, -1));
                }
            }
        }
        return out;
    }

    @Override
    public Map<String, String> uniqueConstraints(Connection connection, String schema, String table) throws SQLException {
        Map<String, String> out = new LinkedHashMap<>();
        try (PreparedStatement ps = connection.prepareStatement("SELECT INDEX_NAME, CONSTRAINT_NAME FROM INFORMATION_SCHEMA.TABLE_CONSTRAINTS"
                + " WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? AND CONSTRAINT_TYPE = 'UNIQUE'")) {
            ps.setString(1, schema);
            ps.setString(2, table);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) out.put(rs.getString(1), rs.getString(2));
            }
        }
        return out;
    }

    private static String type(String name, Object length, Object precision, Object scale, Object fraction) {
        if (NOT_READ.contains(name)) return null;
        if (LENGTH.contains(name)) return length == null ? name : name + "(" + length + ")";
        if (name.equals("NUMERIC") || name.equals("DECIMAL")) return name + "(" + precision + ", " + scale + ")";
        if (name.equals("DECFLOAT")) return name + "(" + precision + ")";
        if (FRACTION.contains(name)) {
            int space = name.indexOf(' ');
            String p = "(" + fraction + ")";
            return space < 0 ? name + p : name.substring(0, space) + p + name.substring(space);
        }
        return name;
    }

    @Override
    public String mappedType(ValueType type, TableDefinition.Column column, boolean indexed) {
        return switch (type) {
            case BOOLEAN -> "BOOLEAN";
            case INTEGER -> switch (column.integerBytes()) {
                case 1 -> "TINYINT";
                case 2 -> "SMALLINT";
                case 4 -> "INTEGER";
                case 8 -> "BIGINT";
                default -> "NUMERIC(20)";
            };
            // H2's NUMERIC without precision has scale 0: an unbounded decimal is a DECFLOAT
            case DECIMAL -> column.boundedDecimal() ? "NUMERIC(" + column.size() + ", " + column.scale() + ")" : "DECFLOAT";
            case FLOAT -> column.jdbcType() == java.sql.Types.REAL ? "REAL" : "DOUBLE PRECISION";
            case STRING -> column.length() > 0 ? "CHARACTER VARYING(" + column.length() + ")" : "CHARACTER VARYING";
            case DATE -> "DATE";
            case TIME -> "TIME(" + column.fraction() + ")";
            case TIMESTAMP -> "TIMESTAMP(" + column.fraction() + ")";
            case TIMESTAMPTZ -> "TIMESTAMP(" + column.fraction() + ") WITH TIME ZONE";
            case BINARY -> column.length() > 0 ? "BINARY VARYING(" + column.length() + ")" : "BINARY VARYING";
            case LARGE_OBJECT -> "BINARY LARGE OBJECT";
            case UUID_ -> "UUID";
            case JSON -> "JSON";
        };
    }
}
