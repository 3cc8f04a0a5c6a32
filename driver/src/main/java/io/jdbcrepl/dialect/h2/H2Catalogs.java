package io.jdbcrepl.dialect.h2;

import io.jdbcrepl.node.Catalogs;
import io.jdbcrepl.node.TableCatalog;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** H2's catalog, read through JDBC's metadata. */
final class H2Catalogs implements Catalogs {

    @Override
    public String currentSchema(Connection connection) throws SQLException {
        return connection.getSchema();
    }

    /** Not asked: the apply side does not name constraints here. */
    @Override
    public Map<String, List<String>> constraints(Connection connection, String schema, String table) {
        return Map.of();
    }

    /**
     * An UPDATE assigning one is not run a page at a time: H2 checks unique indexes once a
     * statement has changed all its rows.
     */
    @Override
    public Set<String> uniqueColumns(Connection connection, String schema, String table) throws SQLException {
        Set<String> out = new HashSet<>();
        for (List<String> columns : TableCatalog.uniqueIndexes(connection.getMetaData(), null, schema, table).values()) {
            if (columns.contains(null)) return null;
            out.addAll(columns);
        }
        return out;
    }
}
