package io.jdbcrepl.dialect.mysql;

import io.jdbcrepl.dialect.Dialect;

import java.util.List;

/** A MySQL-family server (MySQL 8, or MariaDB) through MySQL Connector/J. */
public class MySqlDialect extends Dialect {

    @Override
    protected List<String> subprotocols() {
        return List.of("mysql");
    }

    /** A backslash escapes in MySQL's strings (unless {@code NO_BACKSLASH_ESCAPES}), so it is doubled too. */
    @Override
    public String stringLiteral(String text) {
        return "'" + text.replace("\\", "\\\\").replace("'", "''") + "'";
    }

    @Override
    public String quote(String identifier) {
        return "`" + identifier.replace("`", "``") + "`";
    }

    /** Case rules depend on the server ({@code lower_case_table_names}): names are kept as written, matched case-insensitively. */
    @Override
    protected String foldUnquoted(String name) {
        return name;
    }

    // ---- log, mview ----

    @Override
    public boolean schemasAreCatalogs() {
        return true;
    }

    @Override
    public String product() {
        return "MySQL/MariaDB";
    }

    // ---- capture ----

    @Override
    protected List<Object> parts() {
        return List.of(new MySqlSyntax(), new MySqlLockingSql(mysqlConnector()));
    }

    /**
     * Whether this dialect's connector is MySQL Connector/J ({@code jdbc:mysql:}), whose answers to
     * executeQuery/executeUpdate capture follows; MariaDB's dialect, of MariaDB Connector/J, says no.
     */
    protected boolean mysqlConnector() {
        return true;
    }

    /** {@code TIMESTAMP} holds an instant shown in the session's time zone; {@code DATETIME} a wall time. */
    @Override
    public boolean timestampInSessionZone(String typeName) {
        return typeName != null && typeName.trim().toUpperCase(java.util.Locale.ROOT).startsWith("TIMESTAMP");
    }
}
