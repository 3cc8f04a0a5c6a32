package io.jdbcrepl.log;

import io.jdbcrepl.dialect.Dialect;

/**
 * How SQL names the driver's tables in {@code repl.schema} ({@link TableDefinitions} lists them,
 * {@link SchemaInstaller} installs them), and the server-side time they are stamped with.
 */
public final class ChangeLogSchema {

    private final Dialect dialect;
    private final LogTableSql sql;
    private final String schema;

    /** @param schema the schema (database on MySQL) of the driver's tables, as stored ({@link DriverSchema}) */
    public ChangeLogSchema(Dialect dialect, String schema) {
        this.dialect = dialect;
        this.sql = dialect.part(LogTableSql.class);
        this.schema = schema;
    }

    /** A driver table's name (lower case, as unquoted SQL names it), quoted and qualified for SQL. */
    public String table(String name) {
        return quote(schema) + "." + quote(dialect.fold(name, false));
    }

    /**
     * The database server's current time, for the driver's own timestamp columns: written by the
     * server's clock, never from the JVM's zone (a JVM in UTC-8 writing a wall time into a MariaDB
     * TIMESTAMP made a live subscriber look eight hours silent to a purge in UTC).
     */
    public String now() {
        return sql.now();
    }

    /** Seconds (with fraction) from a timestamp column of the driver's tables to {@link #now()}, on the server. */
    public String secondsSince(String column) {
        return sql.secondsSince(column);
    }

    public String quote(String identifier) {
        return dialect.quote(identifier);
    }

    public String schema() {
        return schema;
    }
}
