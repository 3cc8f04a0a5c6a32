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

    private final LogTableSql sql;
    private final ChangeLogSchema tables;

    TableDefinitions(Dialect dialect, ChangeLogSchema tables) {
        this.sql = dialect.part(LogTableSql.class);
        this.tables = tables;
    }

    /**
     * Every statement, in order: the change log ({@code repl_log}, and on MySQL/MariaDB and H2
     * {@code repl_tx} and {@code repl_epoch}), the apply side's tables, {@code repl_version}.
     */
    List<String> create() {
        List<String> all = new ArrayList<>(sql.changeLog(tables));
        all.addAll(applySide());
        all.add("CREATE TABLE IF NOT EXISTS " + tables.table("repl_version")
                + " (id INT NOT NULL PRIMARY KEY, version INT NOT NULL)"
                + sql.tableOptions());
        return all;
    }

    /**
     * The apply side's: {@code repl_progress} (what this node has applied from each source),
     * {@code repl_subscriber} (who consumes this node's log, and how far), the error queue
     * {@code repl_error} / {@code repl_error_lcr}, the conflict history {@code repl_conflict}
     * (SPEC 5.5), and those of one database ({@link LogTableSql#applySideTables}).
     */
    private List<String> applySide() {
        String json = sql.jsonType();
        String ts = sql.timestampType();
        String now = tables.now();
        String identity = sql.identityType();
        String engine = sql.tableOptions();
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
                        + " change_vector " + json + ", created_at " + ts + ", signature " + sql.signatureType() + ","
                        + " PRIMARY KEY (error_id, seq))" + engine,
                ifNotExists + tables.table("repl_conflict") + " (id " + identity + " PRIMARY KEY,"
                        + " conflict_time " + ts + " NOT NULL, source_database VARCHAR(128),"
                        + " source_transaction_id VARCHAR(64), source_position BIGINT, schema_name VARCHAR(128),"
                        + " table_name VARCHAR(128) NOT NULL, key_values " + json + ", operation VARCHAR(6) NOT NULL,"
                        + " conflict_type VARCHAR(16), conflict_kind VARCHAR(16) NOT NULL, conflicting_columns " + json + ","
                        + " handler_name VARCHAR(128), handler_type VARCHAR(16), outcome VARCHAR(32) NOT NULL,"
                        + " detail VARCHAR(4000), old_values " + json + ", new_values " + json + ", row_before " + json + ")"
                        + engine,
                // SPEC 8.1: a join's state ('*'), its start position per source, and per table copied
                // ('' its state, each source its snapshot's position), see apply.JoinState
                ifNotExists + tables.table("repl_join") + " (table_name VARCHAR(512) NOT NULL,"
                        + " source_node VARCHAR(128) NOT NULL, position VARCHAR(4000) NOT NULL, donor VARCHAR(128) NOT NULL,"
                        + " copied_rows BIGINT DEFAULT 0 NOT NULL, updated_at " + ts + ", PRIMARY KEY (table_name, source_node))"
                        + engine,
                // SPEC 8.2: this node's key scheme, which peers compare with theirs (one row, the node's own)
                ifNotExists + tables.table("repl_keys") + " (node_name VARCHAR(128) NOT NULL PRIMARY KEY,"
                        + " key_step INT NOT NULL, key_offset INT NOT NULL, updated_at " + ts + ")" + engine,
                // SPEC 8.3: DDL that commits on its own, under way ('capture': run here, its LCR not yet
                // written; 'apply': a peer's transaction applied up to its DDL LCR lcr_number), see capture.ddl
                ifNotExists + tables.table("repl_ddl") + " (kind VARCHAR(8) NOT NULL, source_node VARCHAR(128) NOT NULL,"
                        + " tx_id VARCHAR(64) NOT NULL, lcr_number BIGINT, session_id VARCHAR(64), tables_json " + json + ","
                        + " schema_name VARCHAR(128), table_name VARCHAR(128), new_values " + json + ","
                        + " fingerprint VARCHAR(64) NOT NULL, created_at " + ts + ", PRIMARY KEY (kind, source_node, tx_id))"
                        + engine));
        ddl.addAll(sql.applySideTables(tables));
        return ddl;
    }
}
