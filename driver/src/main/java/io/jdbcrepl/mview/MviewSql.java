package io.jdbcrepl.mview;

import java.util.List;

/**
 * What differs per database in materialized views' DDL and sessions ({@code dialect.part(MviewSql.class)}):
 * the column types of the logs and the catalog (answers with a default are those of most databases), the row triggers that fill a log, the key of a
 * view's table, and how the database's own objects and names meet the driver's.
 */
public interface MviewSql {

    /** SEQUENCE$$: a BIGINT the database numbers. */
    String sequenceType();

    /** SNAPTIME$$ and the catalog's refresh times: a timestamp with microseconds, without a zone. */
    String timestampType();

    /** CHANGE_VECTOR$$: bytes. */
    String binaryType();

    /** The catalog's long texts (queries, column lists). */
    String textType();

    /** What follows a CREATE TABLE's column list (MySQL: the character set, whatever the server's default), or "". */
    default String tableOptions() {
        return "";
    }

    /** How {@code ALTER TABLE t} adds a column: {@code ADD COLUMN } or {@code ADD }. */
    default String addColumn() {
        return "ADD COLUMN ";
    }

    /** The statements that create the row triggers of a log on its master. */
    List<String> createTriggers(LogTrigger trigger);

    /** The statements that drop them (if they exist). */
    List<String> dropTriggers(LogTrigger trigger);

    /** Why a log WITH ROWID cannot use the database's own row identifier. */
    String rowidReason();

    /**
     * The statements that key the table of a view without aggregates by the master's key
     * ({@code columns}, quoted): a unique index named {@code index}, or the primary key.
     */
    List<String> viewKey(String table, String index, String columns);

    /** The database has materialized views of its own (PostgreSQL): a DROP of one the driver does not know is the database's. */
    default boolean ownMaterializedViews() {
        return false;
    }

    /** Table names match case-insensitively (MySQL, as {@code lower_case_table_names} says: the safe side). */
    default boolean namesIgnoreCase() {
        return false;
    }

    /**
     * A transaction locks the catalog rows of a master's views before its first change to the
     * master, not only at commit (MariaDB: see {@code Refresher#lockMaster}).
     */
    default boolean locksMastersFirst() {
        return false;
    }
}
