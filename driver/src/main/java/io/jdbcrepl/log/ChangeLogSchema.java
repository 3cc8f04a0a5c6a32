package io.jdbcrepl.log;

import io.jdbcrepl.capture.sql.Dialect;
import io.jdbcrepl.config.InstallMode;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * The driver's tables in a node's database, created when missing ({@code repl.install=auto}) or
 * required to exist ({@code none}).
 *
 * <p>{@code repl_log} holds one row per row LCR. On PostgreSQL its key is (transaction id,
 * position): the apply side reads it in batches bounded by transaction snapshots (PgQ's technique),
 * which needs the range scan by transaction id. On MySQL/MariaDB and H2 every committing
 * transaction stamps a row of {@code repl_tx} with the current epoch of {@code repl_epoch} while
 * it holds a shared lock on it; a reader closes an epoch by incrementing it, which waits for those
 * commits: every transaction of a closed epoch is committed, so nothing is skipped.
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
        return quote(schema) + "." + quote(dialect == Dialect.H2 ? name.toUpperCase() : name);
    }

    /**
     * The database server's current time, for the driver's own timestamp columns: written by the
     * server's clock, never from the JVM's zone (a JVM in UTC-8 writing a wall time into a MariaDB
     * TIMESTAMP made a live subscriber look eight hours silent to a purge in UTC).
     */
    public String now() {
        return dialect == Dialect.POSTGRESQL ? "clock_timestamp()" : "CURRENT_TIMESTAMP(6)";
    }

    /** Seconds (with fraction) from a timestamp column of the driver's tables to {@link #now()}, on the server. */
    public String secondsSince(String column) {
        return switch (dialect) {
            case POSTGRESQL -> "extract(epoch FROM clock_timestamp() - " + column + ")";
            case MYSQL -> "(UNIX_TIMESTAMP(CURRENT_TIMESTAMP(6)) - UNIX_TIMESTAMP(" + column + "))";
            case H2 -> "(EXTRACT(EPOCH FROM CURRENT_TIMESTAMP(6)) - EXTRACT(EPOCH FROM " + column + "))";
        };
    }

    public String quote(String identifier) {
        return dialect.quote(identifier);
    }

    /** Creates the tables when missing, or checks they exist. */
    public void install(Connection connection, InstallMode mode) throws SQLException {
        if (mode == InstallMode.NONE) {
            DriverSchema.ensure(connection, dialect, schema, mode);
            if (!exists(connection, "repl_log")) {
                throw new SQLException("The driver's table repl_log does not exist in schema " + schema
                        + " and repl.install=none: create it with the CLI's install command, or set repl.install=auto",
                        "42P01");
            }
            return;
        }
        if (exists(connection, "repl_log") && (dialect == Dialect.POSTGRESQL || exists(connection, "repl_epoch"))) {
            addMissingColumn(connection, "repl_log", "signature", signatureType());
            return;
        }
        boolean autoCommit = connection.getAutoCommit();
        try (Statement s = connection.createStatement()) {
            if (dialect == Dialect.POSTGRESQL) {
                // Concurrent CREATE ... IF NOT EXISTS can still collide on PostgreSQL's catalogs.
                connection.setAutoCommit(false);
                s.execute("SELECT pg_advisory_xact_lock(" + ("jdbc:repl install " + schema).hashCode() + ")");
            }
            try {
                DriverSchema.ensure(connection, dialect, schema, mode);
            } catch (SQLException e) {
                throw new SchemaMissing(e);
            }
            for (String ddl : ddl()) s.execute(ddl);
            if (!connection.getAutoCommit()) connection.commit();
        } catch (SchemaMissing e) {
            if (!connection.getAutoCommit()) connection.rollback();
            throw (SQLException) e.getCause();
        } catch (SQLException e) {
            if (!connection.getAutoCommit()) connection.rollback();
            throw new SQLException("Could not create the driver's tables in schema " + schema + ": " + e.getMessage()
                    + " (create them with the CLI's install command as a user who may)", e.getSQLState(), e);
        } finally {
            connection.setAutoCommit(autoCommit);
        }
    }

    /** The type of the {@code signature} column (repl.log.key's HMAC-SHA-256, SPEC 8.7). */
    public String signatureType() {
        return dialect == Dialect.POSTGRESQL ? "bytea" : "VARBINARY(32)";
    }

    /**
     * An install of an earlier version lacks a column added since: added (nullable, so instant on
     * PostgreSQL and MariaDB). Looked up in the metadata first: MySQL 8 has no ADD COLUMN IF NOT EXISTS.
     */
    public void addMissingColumn(Connection connection, String table, String column, String type) throws SQLException {
        String storedTable = dialect == Dialect.H2 ? table.toUpperCase() : table;
        String storedColumn = dialect == Dialect.H2 ? column.toUpperCase() : column;
        try (ResultSet rs = connection.getMetaData().getColumns(dialect == Dialect.MYSQL ? schema : null,
                dialect == Dialect.MYSQL ? null : schema, storedTable, storedColumn)) {
            while (rs.next()) {
                if (storedColumn.equals(rs.getString("COLUMN_NAME"))) return;
            }
        }
        try (Statement s = connection.createStatement()) {
            s.execute("ALTER TABLE " + table(table) + " ADD COLUMN " + quote(storedColumn) + " " + type);
        } catch (SQLException e) {
            throw new SQLException("Could not add the column " + column + " to the driver's table " + schema + "." + table
                    + " (installed by an earlier version): " + e.getMessage() + " (add it as a user who may: ALTER TABLE "
                    + table(table) + " ADD COLUMN " + quote(storedColumn) + " " + type + ")", e.getSQLState(), e);
        }
    }

    /** The driver's schema could not be created: its own message says what to do. */
    private static final class SchemaMissing extends SQLException {
        SchemaMissing(SQLException cause) {
            super(cause.getMessage(), cause.getSQLState(), cause);
        }
    }

    public String schema() {
        return schema;
    }

    private boolean exists(Connection connection, String table) throws SQLException {
        String stored = dialect == Dialect.H2 ? table.toUpperCase() : table;
        String catalog = dialect == Dialect.MYSQL ? schema : null;
        String schemaPattern = dialect == Dialect.MYSQL ? null : schema;
        try (ResultSet rs = connection.getMetaData().getTables(catalog, schemaPattern, stored, null)) {
            while (rs.next()) {
                if (stored.equals(rs.getString("TABLE_NAME"))) return true;
            }
            return false;
        }
    }

    List<String> ddl() {
        return switch (dialect) {
            case POSTGRESQL -> List.of(
                    "CREATE TABLE IF NOT EXISTS " + table("repl_log") + " ("
                            + "position bigserial NOT NULL,"
                            + " tx_id xid8 NOT NULL DEFAULT pg_current_xact_id(),"
                            + " source_node varchar(128) NOT NULL,"
                            + " command_type varchar(6) NOT NULL,"
                            + " schema_name varchar(128),"
                            + " table_name varchar(128) NOT NULL,"
                            + " old_values json,"
                            + " new_values json,"
                            + " column_types json NOT NULL,"
                            + " change_vector json,"
                            + " user_name varchar(128) NOT NULL DEFAULT current_user,"
                            + " tag bytea,"
                            + " created_at timestamptz NOT NULL DEFAULT clock_timestamp(),"
                            + " signature bytea,"
                            + " PRIMARY KEY (tx_id, position))");
            case MYSQL -> List.of(
                    "CREATE TABLE IF NOT EXISTS " + table("repl_log") + " ("
                            + "position BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,"
                            + " tx_id VARCHAR(64) NOT NULL,"
                            + " source_node VARCHAR(128) NOT NULL,"
                            + " command_type VARCHAR(6) NOT NULL,"
                            + " schema_name VARCHAR(128),"
                            + " table_name VARCHAR(128) NOT NULL,"
                            + " old_values LONGTEXT,"
                            + " new_values LONGTEXT,"
                            + " column_types LONGTEXT NOT NULL,"
                            + " change_vector TEXT,"
                            + " user_name VARCHAR(128) NOT NULL DEFAULT (CURRENT_USER()),"
                            + " tag VARBINARY(2000),"
                            + " created_at TIMESTAMP(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6),"
                            + " signature VARBINARY(32),"
                            + " KEY repl_log_tx (tx_id)) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4",
                    "CREATE TABLE IF NOT EXISTS " + table("repl_tx") + " ("
                            + "tx_id VARCHAR(64) NOT NULL PRIMARY KEY,"
                            + " epoch BIGINT NOT NULL,"
                            + " last_position BIGINT NOT NULL,"
                            + " committed_at TIMESTAMP(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6),"
                            + " KEY repl_tx_epoch (epoch, last_position)) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4",
                    "CREATE TABLE IF NOT EXISTS " + table("repl_epoch") + " ("
                            + "id INT NOT NULL PRIMARY KEY, epoch BIGINT NOT NULL) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4",
                    "INSERT IGNORE INTO " + table("repl_epoch") + " (id, epoch) VALUES (1, 1)");
            case H2 -> List.of(
                    "CREATE TABLE IF NOT EXISTS " + table("repl_log") + " ("
                            + "POSITION BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,"
                            + " TX_ID VARCHAR(64) NOT NULL,"
                            + " SOURCE_NODE VARCHAR(128) NOT NULL,"
                            + " COMMAND_TYPE VARCHAR(6) NOT NULL,"
                            + " SCHEMA_NAME VARCHAR(128),"
                            + " TABLE_NAME VARCHAR(128) NOT NULL,"
                            + " OLD_VALUES CHARACTER LARGE OBJECT,"
                            + " NEW_VALUES CHARACTER LARGE OBJECT,"
                            + " COLUMN_TYPES CHARACTER LARGE OBJECT NOT NULL,"
                            + " CHANGE_VECTOR VARCHAR(100000),"
                            + " USER_NAME VARCHAR(128) DEFAULT CURRENT_USER NOT NULL,"
                            + " TAG VARBINARY(2000),"
                            + " CREATED_AT TIMESTAMP(6) WITH TIME ZONE DEFAULT CURRENT_TIMESTAMP(6) NOT NULL,"
                            + " SIGNATURE VARBINARY(32))",
                    "CREATE INDEX IF NOT EXISTS " + quote("REPL_LOG_TX") + " ON " + table("repl_log") + " (TX_ID)",
                    "CREATE TABLE IF NOT EXISTS " + table("repl_tx") + " ("
                            + "TX_ID VARCHAR(64) NOT NULL PRIMARY KEY,"
                            + " EPOCH BIGINT NOT NULL,"
                            + " LAST_POSITION BIGINT NOT NULL,"
                            + " COMMITTED_AT TIMESTAMP(6) WITH TIME ZONE DEFAULT CURRENT_TIMESTAMP(6) NOT NULL)",
                    "CREATE INDEX IF NOT EXISTS " + quote("REPL_TX_EPOCH") + " ON " + table("repl_tx") + " (EPOCH, LAST_POSITION)",
                    "CREATE TABLE IF NOT EXISTS " + table("repl_epoch") + " (ID INT NOT NULL PRIMARY KEY, EPOCH BIGINT NOT NULL)",
                    "MERGE INTO " + table("repl_epoch") + " (ID, EPOCH) KEY (ID) SELECT 1, 1 WHERE NOT EXISTS (SELECT 1 FROM "
                            + table("repl_epoch") + ")");
        };
    }
}
