package io.jdbcrepl.mview;

import java.util.List;

/**
 * What differs per database in a refresh ({@code dialect.part(RefreshSql.class)}): how it reads
 * the latest rows, takes log rows out, binds keys, and writes a view's rows in place (answers
 * with a default are those of most databases).
 */
public interface RefreshSql {

    /**
     * What ends a read of the log or the master that must see the rows other refreshes committed
     * after this transaction's snapshot (MariaDB: a locking read), or "".
     */
    default String currentRead() {
        return "";
    }

    /** A query that deletes the rows of {@code table} matching {@code condition} and returns {@code columns} of each, distinct or not. */
    default String deleteReturning(String table, String condition, String columns) {
        return "DELETE FROM " + table + " WHERE " + condition + " RETURNING " + columns;
    }

    /** One key column without NULLs is matched with {@code = ANY(?)} and one array parameter. */
    boolean arrayParameters();

    /** Times and timestamps read from a log are bound again as text (MySQL Connector/J drops their fraction on MariaDB). */
    default boolean temporalsAsText() {
        return false;
    }

    /**
     * The statements that refresh in place the rows of a view table keyed uniquely: those of
     * {@code inView}'s keys that {@code rows} (the keys' rows computed from the master) no longer
     * has go; the others are inserted or updated.
     *
     * @param view the view's table, quoted
     */
    List<BoundSql> refreshInPlace(String view, ViewTable table, KeyMatch inView, BoundSql rows);
}
