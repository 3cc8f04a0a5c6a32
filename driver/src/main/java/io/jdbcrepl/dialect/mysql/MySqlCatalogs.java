package io.jdbcrepl.dialect.mysql;

import io.jdbcrepl.node.Catalogs;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** MySQL's and MariaDB's catalog: a schema is a database, which JDBC calls a catalog. */
final class MySqlCatalogs implements Catalogs {

    @Override
    public String currentSchema(Connection connection) throws SQLException {
        try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery("SELECT DATABASE()")) {
            rs.next();
            return rs.getString(1);
        }
    }

    /** Not asked: the apply side does not name constraints here. */
    @Override
    public Map<String, List<String>> constraints(Connection connection, String schema, String table) {
        return Map.of();
    }

    /** Not asked: every column may be in one. */
    @Override
    public Set<String> uniqueColumns(Connection connection, String schema, String table) {
        return null;
    }
}
