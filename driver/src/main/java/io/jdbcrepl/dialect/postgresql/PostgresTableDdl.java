package io.jdbcrepl.dialect.postgresql;

import io.jdbcrepl.ddl.TableDdl;
import io.jdbcrepl.ddl.TableDefinition;
import io.jdbcrepl.lcr.ValueType;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * PostgreSQL's column definitions from {@code pg_attribute} ({@code format_type}: {@code numeric(12,3)},
 * {@code timestamp(6) with time zone}); a {@code serial} (a default taking {@code nextval}) becomes an
 * identity, so that no sequence of the donor's name is needed here.
 */
final class PostgresTableDdl implements TableDdl {

    @Override
    public Map<String, NativeColumn> nativeColumns(Connection connection, String schema, String table) throws SQLException {
        String sql = "SELECT a.attname, format_type(a.atttypid, a.atttypmod), pg_get_expr(d.adbin, d.adrelid),"
                + " a.attidentity, a.attgenerated, ty.typtype = 'e'"
                + " FROM pg_attribute a JOIN pg_class t ON t.oid = a.attrelid JOIN pg_namespace n ON n.oid = t.relnamespace"
                + " JOIN pg_type ty ON ty.oid = a.atttypid"
                + " LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum"
                + " WHERE n.nspname = ? AND t.relname = ? AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum";
        Map<String, NativeColumn> out = new LinkedHashMap<>();
        try (PreparedStatement ps = connection.prepareStatement(sql)) {
            ps.setString(1, schema);
            ps.setString(2, table);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String type = rs.getString(2);
                    String def = rs.getString(3);
                    String identity = rs.getString(4);
                    boolean computed = "s".equals(rs.getString(5));
                    Identity id = "a".equals(identity) ? Identity.ALWAYS : "d".equals(identity) ? Identity.BY_DEFAULT : Identity.NONE;
                    if (def != null && def.startsWith("nextval(")) { // serial: an identity here
                        id = Identity.BY_DEFAULT;
                        def = null;
                    }
                    if (computed) {
                        type = type + " GENERATED ALWAYS AS (" + def + ") STORED";
                        def = null;
                    }
                    String note = rs.getBoolean(6) ? "its enum type " + type + " becomes a text type: the allowed values are not kept" : null;
                    out.put(rs.getString(1), new NativeColumn(type, def, id, computed, note, -1));
                }
            }
        }
        return out;
    }

    @Override
    public Map<String, String> uniqueConstraints(Connection connection, String schema, String table) throws SQLException {
        String sql = "SELECT i.relname, c.conname FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid"
                + " JOIN pg_namespace n ON n.oid = t.relnamespace JOIN pg_class i ON i.oid = c.conindid"
                + " WHERE n.nspname = ? AND t.relname = ? AND c.contype = 'u'";
        Map<String, String> out = new LinkedHashMap<>();
        try (PreparedStatement ps = connection.prepareStatement(sql)) {
            ps.setString(1, schema);
            ps.setString(2, table);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) out.put(rs.getString(1), rs.getString(2));
            }
        }
        return out;
    }

    @Override
    public String mappedType(ValueType type, TableDefinition.Column column, boolean indexed) {
        return switch (type) {
            case BOOLEAN -> "boolean";
            case INTEGER -> switch (column.integerBytes()) {
                case 1, 2 -> "smallint";
                case 4 -> "integer";
                case 8 -> "bigint";
                default -> "numeric(20)";
            };
            case DECIMAL -> column.boundedDecimal() ? "numeric(" + column.size() + "," + column.scale() + ")" : "numeric";
            case FLOAT -> column.jdbcType() == java.sql.Types.REAL ? "real" : "double precision";
            case STRING -> column.length() > 0 ? "varchar(" + column.length() + ")" : "text";
            case DATE -> "date";
            case TIME -> "time(" + column.fraction() + ")";
            case TIMESTAMP -> "timestamp(" + column.fraction() + ")";
            case TIMESTAMPTZ -> "timestamp(" + column.fraction() + ") with time zone";
            case BINARY, LARGE_OBJECT -> "bytea";
            case UUID_ -> "uuid";
            case JSON -> "jsonb";
        };
    }
}
