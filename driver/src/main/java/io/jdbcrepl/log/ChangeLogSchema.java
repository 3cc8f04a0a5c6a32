package io.jdbcrepl.log;

import io.jdbcrepl.dialect.Dialect;

/**
 * How SQL names the driver's tables in {@code repl.schema} ({@link TableDefinitions} lists them,
 * {@link SchemaInstaller} installs them), and the server-side time they are stamped with.
 */
public final class ChangeLogSchema {

    private final Dialect dialect;
    private final String schema;

    /** @param schema the schema (database on MySQL) of the driver's tables, as stored ({@link DriverSchema}) */
    public ChangeLogSchema(Dialect dialect, String schema) {
        this.dialect = dialect;
        this.schema = schema;
    }

    /** A driver table's name, quoted and qualified for SQL. */
    public String table(String name) {
        return quote(schema) + "." + quote(dialect.kind() == Dialect.Kind.H2 ? name.toUpperCase() : name);
    }

    /**
     * The database server's current time, for the driver's own timestamp columns: written by the
     * server's clock, never from the JVM's zone (a JVM in UTC-8 writing a wall time into a MariaDB
     * TIMESTAMP made a live subscriber look eight hours silent to a purge in UTC).
     */
    public String now() {
        return dialect.kind() == Dialect.Kind.POSTGRESQL ? "clock_timestamp()" : "CURRENT_TIMESTAMP(6)";
    }

    /** Seconds (with fraction) from a timestamp column of the driver's tables to {@link #now()}, on the server. */
    public String secondsSince(String column) {
        return switch (dialect.kind()) {
            case POSTGRESQL -> "extract(epoch FROM clock_timestamp() - " + column + ")";
            case MYSQL -> "(UNIX_TIMESTAMP(CURRENT_TIMESTAMP(6)) - UNIX_TIMESTAMP(" + column + "))";
            case H2 -> "(EXTRACT(EPOCH FROM CURRENT_TIMESTAMP(6)) - EXTRACT(EPOCH FROM " + column + "))";
        };
    }

    public String quote(String identifier) {
        return dialect.quote(identifier);
    }

    public String schema() {
        return schema;
    }
}
