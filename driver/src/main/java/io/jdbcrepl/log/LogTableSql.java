package io.jdbcrepl.log;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;

/**
 * The driver's own tables on one database ({@code dialect.part(LogTableSql.class)}): the types and
 * clauses of their DDL, the change log's tables (PostgreSQL reads them by transaction snapshots,
 * the others by epochs: see {@link TableDefinitions}), the server's clock, and how the driver's
 * schema is named, found and made.
 */
public interface LogTableSql {

    /**
     * The database server's current time, for the driver's timestamp columns: written by the
     * server's clock, never from the JVM's zone.
     */
    String now();

    /** Seconds (with fraction) from a timestamp {@code column} of the driver's tables to {@link #now()}, on the server. */
    String secondsSince(String column);

    /** The type of a column holding a JSON document. */
    String jsonType();

    /** A bind parameter for a JSON column of the driver's tables (PostgreSQL casts text to json). */
    default String jsonParameter() {
        return "?";
    }

    /** The type of a timestamp column: microseconds, and an instant whatever the session's zone. */
    String timestampType();

    /** The type of a BIGINT key the database numbers. */
    String identityType();

    /** The type of the {@code signature} columns (repl.log.key's HMAC-SHA-256, SPEC 8.7). */
    String signatureType();

    /** What follows the column list of each {@code CREATE TABLE} (MySQL: the engine and character set), or "". */
    default String tableOptions() {
        return "";
    }

    /** The change log's statements: {@code repl_log}, and where the log has epochs {@code repl_tx} and {@code repl_epoch} with its one row. */
    List<String> changeLog(ChangeLogSchema tables);

    /** The apply side's tables beyond those all databases have (H2: {@code repl_apply_lock}, the row an applier holds locked). */
    default List<String> applySideTables(ChangeLogSchema tables) {
        return List.of();
    }

    /** Inserts or updates {@code repl_version}'s one row (id 1) to the version bound as the one parameter. */
    String upsertVersion(String table);

    /**
     * The driver's schema when {@code repl.schema} is not set: {@code name} (the default, folded),
     * or on MySQL, where a schema is a database, {@code <current database>_name}, null when the
     * connection has no current database.
     */
    default String defaultSchema(Connection connection, String name) throws SQLException {
        return name;
    }

    /** Selects a row when the schema bound as the one parameter exists. */
    String schemaExists();

    /** Creates the schema when missing. */
    default String createSchema(String schema) {
        return "CREATE SCHEMA IF NOT EXISTS \"" + schema.replace("\"", "\"\"") + "\"";
    }

    /** A statement that makes concurrent installs of {@code schema} wait for each other (in a transaction), when they would collide. */
    default Optional<String> installLock(String schema) {
        return Optional.empty();
    }

    /**
     * {@code insert}, an {@code INSERT ... VALUES}, made to do nothing when a row with the same
     * {@code key} exists; as it is where the database has no such form (a race then fails it).
     */
    String insertIfAbsent(String insert, String key);
}
