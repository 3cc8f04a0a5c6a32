package io.jdbcrepl.capture.locking;

import io.jdbcrepl.capture.ColumnInfo;

import java.util.List;

/**
 * What differs per database in locking capture: the statement forms {@link LockingPlanner} may use
 * or must refuse, the SQL texts it writes that differ, and what the executors must follow
 * ({@link #capabilities()}). A part of the dialect ({@code dialect.part(LockingSql.class)}), one
 * per database that captures by locking reads (the MySQL family, H2; PostgreSQL captures in the
 * statement and has none).
 */
public interface LockingSql {

    /** What the database and its connector do that the executors follow. */
    LockingCapabilities capabilities();

    /**
     * INSERT and DELETE {@code … RETURNING} (MariaDB); without it, the rows come from a data change
     * delta table ({@code SELECT … FROM FINAL|OLD TABLE (…)}, H2), and a DELETE's from a locking read.
     */
    default boolean returning() {
        return false;
    }

    /** {@code INSERT IGNORE} and {@code UPDATE IGNORE}, captured (the MySQL family). */
    default boolean ignore() {
        return false;
    }

    /** {@code INSERT … ON DUPLICATE KEY UPDATE}, captured with user variables and RETURNING (MariaDB). */
    default boolean onDuplicateKeyUpdate() {
        return false;
    }

    /**
     * SET is evaluated left to right, each assignment seeing the ones before (the MySQL family): a
     * key assignment must come first, for the locking read to compute the new key.
     */
    default boolean setLeftToRight() {
        return false;
    }

    /** An UPDATE of at most one row runs as one compound statement, one round trip (MariaDB's BEGIN NOT ATOMIC). */
    default boolean oneRowBlock() {
        return false;
    }

    /** {@code UPDATE … ORDER BY}: the restricted UPDATE keeps the application's order (the MySQL family). */
    default boolean updateOrderBy() {
        return false;
    }

    /**
     * Unique indexes are checked once the statement has changed all its rows (H2), not row by row:
     * an UPDATE that assigns a column of one cannot be run a page at a time.
     */
    default boolean uniqueCheckedAtStatementEnd() {
        return false;
    }

    /** The row limit of a page of a locking read, with its leading blank ({@code " LIMIT 10"}). */
    String limit(int rows);

    /** Now, with microseconds, of a type that compares correctly with {@code column}. */
    String now(ColumnInfo column);

    /** {@code value} plus one microsecond. */
    String plusMicrosecond(String value);

    /** The NULL-safe equality operator, with blanks around it ({@code " <=> "}). */
    String nullSafeEquals();

    /**
     * The rows an UPDATE changes, held in a session temporary table on the server (see
     * {@link UpdatePlan.Spill}).
     *
     * @param head         the locking read's items and FROM, each item aliased {@code repl_c1 …}
     * @param read         the whole locking read
     * @param updatePrefix the restricted UPDATE up to its WHERE
     * @param key          the key columns, qualified and quoted ({@code ref.k}), in key order
     * @param columns      the names of the read's columns ({@code repl_c1 …})
     * @param pageSize     rows per page read back
     */
    UpdatePlan.Spill spill(PlannedSql head, PlannedSql read, PlannedSql updatePrefix, List<String> key,
            List<String> columns, int pageSize);
}
