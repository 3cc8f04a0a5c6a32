package io.jdbcrepl.log;

import io.jdbcrepl.dialect.Dialect;

import java.util.ArrayList;
import java.util.List;

/**
 * The driver's tables as {@link SchemaVersion#CURRENT} has them: one {@code CREATE ... IF NOT
 * EXISTS} statement each (and the one row of {@code repl_epoch}), so running them again changes
 * nothing. Their columns are described in the README ("What capture writes", "The tables").
 *
 * <p>{@code repl_log} holds one row per row LCR. On PostgreSQL its key is (transaction id,
 * position): the apply side reads it in batches bounded by transaction snapshots (PgQ's technique),
 * which needs the range scan by transaction id. On MySQL/MariaDB and H2 every committing
 * transaction stamps a row of {@code repl_tx} with the current epoch of {@code repl_epoch} while
 * it holds a shared lock on it; a reader closes an epoch by incrementing it, which waits for those
 * commits: every transaction of a closed epoch is committed, so nothing is skipped.
 */
final class TableDefinitions {

    private final Dialect dialect;
    private final ChangeLogSchema tables;

    TableDefinitions(Dialect dialect, ChangeLogSchema tables) {
        this.dialect = dialect;
        this.tables = tables;
    }

    /** The type of the {@code signature} columns (repl.log.key's HMAC-SHA-256, SPEC 8.7). */
    static String signatureType(Dialect dialect) {
        return dialect.kind() == Dialect.Kind.POSTGRESQL ? "bytea" : "VARBINARY(32)";
    }

    /** Every statement, in order: the change log, the apply side's tables, {@code repl_version}. */
    List<String> create() {
        List<String> all = new ArrayList<>(changeLog());
        all.addAll(applySide());
        all.add("CREATE TABLE IF NOT EXISTS " + tables.table("repl_version")
                + " (id INT NOT NULL PRIMARY KEY, version INT NOT NULL)"
                + (dialect.kind() == Dialect.Kind.MYSQL ? " ENGINE=InnoDB DEFAULT CHARSET=utf8mb4" : ""));
        return all;
    }

    /** The change log: {@code repl_log}, and on MySQL/MariaDB and H2 {@code repl_tx} and {@code repl_epoch}. */
    private List<String> changeLog() {
        return switch (dialect.kind()) {
            case POSTGRESQL -> List.of(
                    "CREATE TABLE IF NOT EXISTS " + tables.table("repl_log") + " ("
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
                            + " KEY repl_log_tx (tx_id)) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4",
                    "CREATE TABLE IF NOT EXISTS " + tables.table("repl_tx") + " ("
                            + "tx_id VARCHAR(64) NOT NULL PRIMARY KEY,"
                            + " epoch BIGINT NOT NULL,"
                            + " last_position BIGINT NOT NULL,"
                            + " committed_at TIMESTAMP(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6),"
                            + " KEY repl_tx_epoch (epoch, last_position)) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4",
                    "CREATE TABLE IF NOT EXISTS " + tables.table("repl_epoch") + " ("
                            + "id INT NOT NULL PRIMARY KEY, epoch BIGINT NOT NULL) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4",
                    "INSERT IGNORE INTO " + tables.table("repl_epoch") + " (id, epoch) VALUES (1, 1)");
            case H2 -> List.of(
                    "CREATE TABLE IF NOT EXISTS " + tables.table("repl_log") + " ("
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
                    "CREATE INDEX IF NOT EXISTS " + tables.quote("REPL_LOG_TX") + " ON " + tables.table("repl_log") + " (TX_ID)",
                    "CREATE TABLE IF NOT EXISTS " + tables.table("repl_tx") + " ("
                            + "TX_ID VARCHAR(64) NOT NULL PRIMARY KEY,"
                            + " EPOCH BIGINT NOT NULL,"
                            + " LAST_POSITION BIGINT NOT NULL,"
                            + " COMMITTED_AT TIMESTAMP(6) WITH TIME ZONE DEFAULT CURRENT_TIMESTAMP(6) NOT NULL)",
                    "CREATE INDEX IF NOT EXISTS " + tables.quote("REPL_TX_EPOCH") + " ON " + tables.table("repl_tx")
                            + " (EPOCH, LAST_POSITION)",
                    "CREATE TABLE IF NOT EXISTS " + tables.table("repl_epoch")
                            + " (ID INT NOT NULL PRIMARY KEY, EPOCH BIGINT NOT NULL)",
                    "MERGE INTO " + tables.table("repl_epoch") + " (ID, EPOCH) KEY (ID) SELECT 1, 1 WHERE NOT EXISTS"
                            + " (SELECT 1 FROM " + tables.table("repl_epoch") + ")");
        };
    }

    /**
     * The apply side's: {@code repl_progress} (what this node has applied from each source),
     * {@code repl_subscriber} (who consumes this node's log, and how far), the error queue
     * {@code repl_error} / {@code repl_error_lcr}, the conflict history {@code repl_conflict}
     * (SPEC 5.5), and on H2 {@code repl_apply_lock} (the row an applier holds locked).
     */
    private List<String> applySide() {
        String json = switch (dialect.kind()) {
            case POSTGRESQL -> "json";
            case MYSQL -> "LONGTEXT";
            case H2 -> "CHARACTER LARGE OBJECT";
        };
        String ts = switch (dialect.kind()) {
            case POSTGRESQL -> "timestamptz";
            case MYSQL -> "TIMESTAMP(6)";
            case H2 -> "TIMESTAMP(6) WITH TIME ZONE";
        };
        String now = tables.now();
        String identity = switch (dialect.kind()) {
            case POSTGRESQL, H2 -> "BIGINT GENERATED BY DEFAULT AS IDENTITY";
            case MYSQL -> "BIGINT AUTO_INCREMENT";
        };
        String engine = dialect.kind() == Dialect.Kind.MYSQL ? " ENGINE=InnoDB DEFAULT CHARSET=utf8mb4" : "";
        String ifNotExists = "CREATE TABLE IF NOT EXISTS ";
        List<String> ddl = new ArrayList<>(List.of(
                ifNotExists + tables.table("repl_progress") + " (source_node VARCHAR(128) NOT NULL PRIMARY KEY,"
                        + " position VARCHAR(4000) NOT NULL, tx_id VARCHAR(64),"
                        + " applied_transactions BIGINT DEFAULT 0 NOT NULL, queued_transactions BIGINT DEFAULT 0 NOT NULL,"
                        + " applied_at " + ts + ", subscribed VARCHAR(4000), rewound VARCHAR(4000))" + engine,
                ifNotExists + tables.table("repl_subscriber") + " (name VARCHAR(128) NOT NULL PRIMARY KEY,"
                        + " position VARCHAR(4000) NOT NULL, updated_at " + ts + " NOT NULL, dropped_at " + ts + ")" + engine,
                ifNotExists + tables.table("repl_error") + " (id " + identity + " PRIMARY KEY,"
                        + " source_database VARCHAR(128) NOT NULL, source_transaction_id VARCHAR(64) NOT NULL,"
                        + " source_position BIGINT NOT NULL, message_number INT NOT NULL, message_count INT NOT NULL,"
                        + " error_code VARCHAR(64) NOT NULL, error_message VARCHAR(4000),"
                        + " created_at " + ts + " DEFAULT " + now + " NOT NULL)" + engine,
                ifNotExists + tables.table("repl_error_lcr") + " (error_id BIGINT NOT NULL, seq INT NOT NULL,"
                        + " position BIGINT NOT NULL, tx_id VARCHAR(64) NOT NULL, source_node VARCHAR(128) NOT NULL,"
                        + " command_type VARCHAR(6) NOT NULL, schema_name VARCHAR(128), table_name VARCHAR(128) NOT NULL,"
                        + " old_values " + json + ", new_values " + json + ", column_types " + json + " NOT NULL,"
                        + " change_vector " + json + ", created_at " + ts + ", signature " + signatureType(dialect) + ","
                        + " PRIMARY KEY (error_id, seq))" + engine,
                ifNotExists + tables.table("repl_conflict") + " (id " + identity + " PRIMARY KEY,"
                        + " conflict_time " + ts + " NOT NULL, source_database VARCHAR(128),"
                        + " source_transaction_id VARCHAR(64), source_position BIGINT, schema_name VARCHAR(128),"
                        + " table_name VARCHAR(128) NOT NULL, key_values " + json + ", operation VARCHAR(6) NOT NULL,"
                        + " conflict_type VARCHAR(16), conflict_kind VARCHAR(16) NOT NULL, conflicting_columns " + json + ","
                        + " handler_name VARCHAR(128), handler_type VARCHAR(16), outcome VARCHAR(32) NOT NULL,"
                        + " detail VARCHAR(4000), old_values " + json + ", new_values " + json + ", row_before " + json + ")"
                        + engine));
        if (dialect.kind() == Dialect.Kind.H2) {
            ddl.add(ifNotExists + tables.table("repl_apply_lock") + " (name VARCHAR(200) NOT NULL PRIMARY KEY)");
        }
        return ddl;
    }
}
