package io.jdbcrepl.dialect.mysql;

import io.jdbcrepl.log.ChangeLogSchema;
import io.jdbcrepl.log.LogTableSql;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/** MySQL's and MariaDB's driver tables: InnoDB and utf8mb4, JSON as text, the log read by epochs; a schema is a database. */
final class MySqlLogTableSql implements LogTableSql {

    private static final String OPTIONS = " ENGINE=InnoDB DEFAULT CHARSET=utf8mb4";

    @Override
    public String now() {
        return "CURRENT_TIMESTAMP(6)";
    }

    @Override
    public String secondsSince(String column) {
        return "(UNIX_TIMESTAMP(CURRENT_TIMESTAMP(6)) - UNIX_TIMESTAMP(" + column + "))";
    }

    @Override
    public String jsonType() {
        return "LONGTEXT";
    }

    @Override
    public String timestampType() {
        return "TIMESTAMP(6)";
    }

    @Override
    public String identityType() {
        return "BIGINT AUTO_INCREMENT";
    }

    @Override
    public String signatureType() {
        return "VARBINARY(32)";
    }

    @Override
    public String tableOptions() {
        return OPTIONS;
    }

    /** {@code repl_log}, with the epochs of {@code repl_tx} and {@code repl_epoch} (see {@code TableDefinitions}). */
    @Override
    public List<String> changeLog(ChangeLogSchema tables) {
        return List.of(
                "CREATE TABLE IF NOT EXISTS " + tables.table("repl_log") + " ("
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
                        + " KEY repl_log_tx (tx_id))" + OPTIONS,
                "CREATE TABLE IF NOT EXISTS " + tables.table("repl_tx") + " ("
                        + "tx_id VARCHAR(64) NOT NULL PRIMARY KEY,"
                        + " epoch BIGINT NOT NULL,"
                        + " last_position BIGINT NOT NULL,"
                        + " committed_at TIMESTAMP(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6),"
                        + " KEY repl_tx_epoch (epoch, last_position))" + OPTIONS,
                "CREATE TABLE IF NOT EXISTS " + tables.table("repl_epoch") + " ("
                        + "id INT NOT NULL PRIMARY KEY, epoch BIGINT NOT NULL)" + OPTIONS,
                "INSERT IGNORE INTO " + tables.table("repl_epoch") + " (id, epoch) VALUES (1, 1)");
    }

    @Override
    public String upsertVersion(String table) {
        return "INSERT INTO " + table + " (id, version) VALUES (1, ?) ON DUPLICATE KEY UPDATE version = VALUES(version)";
    }

    /** A schema is a database: {@code <current database>_name}. */
    @Override
    public String defaultSchema(Connection connection, String name) throws SQLException {
        try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery("SELECT DATABASE()")) {
            rs.next();
            String database = rs.getString(1);
            return database == null ? null : database + "_" + name;
        }
    }

    @Override
    public String schemaExists() {
        return "SELECT 1 FROM INFORMATION_SCHEMA.SCHEMATA WHERE SCHEMA_NAME = ?";
    }

    /** A database takes the server's default character set unless told (latin1 on some servers). */
    @Override
    public String createSchema(String schema) {
        return "CREATE DATABASE IF NOT EXISTS `" + schema.replace("`", "``") + "` CHARACTER SET utf8mb4";
    }

    @Override
    public String insertIfAbsent(String insert, String key) {
        return insert.replaceFirst("INSERT", "INSERT IGNORE");
    }
}
