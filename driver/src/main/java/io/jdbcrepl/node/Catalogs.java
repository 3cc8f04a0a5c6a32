package io.jdbcrepl.node;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What {@link TableCatalog} reads differently per database: how it names the current schema,
 * whether JDBC's metadata calls a schema a catalog, and what it knows of a table's unique
 * constraints and indexes beyond the primary key. A part ({@code dialect.part(Catalogs.class)}).
 */
public interface Catalogs {

    /** The connection's current schema (MySQL and MariaDB: the current database). */
    String currentSchema(Connection connection) throws SQLException;


    /**
     * The table's primary key, unique and exclusion constraints by name, each with its columns in
     * index order (those on expressions left out), where the apply side names them
     * ({@code ON CONFLICT ON CONSTRAINT}); empty where it does not.
     */
    Map<String, List<String>> constraints(Connection connection, String schema, String table) throws SQLException;

    /**
     * The columns of the table's unique indexes (an UPDATE assigning one is run differently), or
     * null when not known: one of them is on an expression, or the database is not asked (then
     * every column may be one).
     */
    Set<String> uniqueColumns(Connection connection, String schema, String table) throws SQLException;
}
