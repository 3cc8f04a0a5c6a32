package io.jdbcrepl.dialect.postgresql;

import io.jdbcrepl.node.Catalogs;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** PostgreSQL's catalog: constraints and unique indexes from {@code pg_constraint} and {@code pg_index}. */
final class PostgresCatalogs implements Catalogs {

    @Override
    public String currentSchema(Connection connection) throws SQLException {
        return connection.getSchema();
    }

    /** For {@code ON CONFLICT ON CONSTRAINT}. */
    @Override
    public Map<String, List<String>> constraints(Connection connection, String schema, String table) throws SQLException {
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

    /** Which decide whether an UPDATE takes a key-strength row lock. */
    @Override
    public Set<String> uniqueColumns(Connection connection, String schema, String table) throws SQLException {
        Set<String> out = new HashSet<>();
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
}
