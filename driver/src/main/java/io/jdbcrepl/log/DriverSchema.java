package io.jdbcrepl.log;

import io.jdbcrepl.dialect.Dialect;
import io.jdbcrepl.config.InstallMode;
import io.jdbcrepl.intercept.SqlState;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The schema of the driver's own tables ({@code repl.schema}, SPEC 2): a schema of their own, so
 * that schema tools (Flyway, Liquibase, Hibernate) see only the application's tables. By default
 * {@code repl} on PostgreSQL and H2, and on MariaDB/MySQL, where a schema is a database, the
 * database {@code <current database>_repl}.
 */
public final class DriverSchema {

    /** The default on PostgreSQL and H2, and the suffix of the default database on MariaDB/MySQL. */
    public static final String DEFAULT = "repl";

    private DriverSchema() {
    }

    /**
     * The driver schema, as stored: {@code configured} folded the database's way, else the default
     * for the database {@code connection} is in.
     *
     * @param configured {@code repl.schema} as written, or null
     */
    public static String resolve(Dialect dialect, String configured, Connection connection) throws SQLException {
        String schema = resolveOrNull(dialect, configured, connection);
        if (schema == null) {
            throw SqlState.INVALID_CATALOG_NAME.exception(
                    "repl.schema is not set and the connection has no current database, so the driver's"
                    + " database <database>_" + DEFAULT + " has no name: name a database in the URL or set repl.schema");
        }
        return schema;
    }

    /** As {@link #resolve}, but null on MariaDB/MySQL when the connection has no current database. */
    public static String resolveOrNull(Dialect dialect, String configured, Connection connection) throws SQLException {
        if (configured != null) return dialect.fold(configured);
        return dialect.part(LogTableSql.class).defaultSchema(connection, dialect.fold(DEFAULT));
    }

    /** Whether the schema (the database, on MariaDB/MySQL) exists. */
    public static boolean exists(Connection connection, Dialect dialect, String schema) throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement(dialect.part(LogTableSql.class).schemaExists())) {
            ps.setString(1, schema);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        }
    }

    /**
     * Creates the schema when missing ({@code repl.install=auto}), or fails naming it ({@code none}).
     * A user who may not create it is told which schema to create, or to set {@code repl.schema}.
     */
    public static void ensure(Connection connection, Dialect dialect, String schema, InstallMode mode) throws SQLException {
        if (exists(connection, dialect, schema)) return;
        if (mode == InstallMode.NONE) {
            throw SqlState.INVALID_SCHEMA_NAME.exception(
                    "The driver's schema " + schema + " does not exist and repl.install=none: create it"
                    + " (" + createSql(dialect, schema) + ") and the driver's tables with the CLI's install command,"
                    + " set repl.install=auto, or set repl.schema to the schema that holds them");
        }
        try (Statement s = connection.createStatement()) {
            s.execute(createSql(dialect, schema));
        } catch (SQLException e) {
            throw new SQLException("Could not create the driver's schema " + schema + " (repl.schema): " + e.getMessage()
                    + " (create it as a user who may: " + createSql(dialect, schema) + ", and let this user create"
                    + " tables in it; or set repl.schema to a schema where this user may)", e.getSQLState(), e);
        }
    }

    private static String createSql(Dialect dialect, String schema) {
        return dialect.part(LogTableSql.class).createSchema(schema);
    }
}
