package io.jdbcrepl.capture.locking;

import io.jdbcrepl.capture.LoggedColumns;
import io.jdbcrepl.capture.TableInfo;
import io.jdbcrepl.lcr.CommandType;

import java.util.List;

/**
 * INSERT or DELETE as one statement that returns every column of the rows it changed, as stored:
 * MariaDB's {@code … RETURNING}, H2's {@code SELECT … FROM FINAL|OLD TABLE (…)}. Rows another
 * transaction commits meanwhile are changed and returned together or not at all.
 *
 * @param sql     the statement; its result columns are {@code columns}, in order, after the
 *                application's own
 * @param columns every column of the table, in table order
 * @param applicationColumns MariaDB: the result columns of the application's own RETURNING, which
 *                come first and are the application's result; 0 when it has none
 */
public record ReturningPlan(TableInfo table, CommandType command, LoggedColumns logged, LogRowShape shape,
        PlannedSql sql, List<String> columns, Pages pages, int applicationColumns, Spill spill) implements LockingPlan {

    public ReturningPlan(TableInfo table, CommandType command, LoggedColumns logged, LogRowShape shape,
            PlannedSql sql, List<String> columns, Pages pages, int applicationColumns) {
        this(table, command, logged, shape, sql, columns, pages, applicationColumns, null);
    }

    /**
     * MariaDB, a DELETE that cannot go in key order (a subquery in WHERE, ORDER BY/LIMIT) and may
     * delete more than a page: {@code probe}, the locking read of its keys (in its order, run for at
     * most a page ({@code size} rows) and one row); when that finds more than a page, {@code fill}
     * runs the same read into a session temporary table, so that every row is chosen and locked
     * before any is deleted; then a page at a time, {@code pageKeys} reads the next keys by
     * position (driver value: the last position read, 0 first; columns: the key, then the
     * position) and {@link #delete} deletes and returns their rows. {@code clear} drops the table
     * however the statement ends. Otherwise the statement runs whole ({@link #sql}).
     */
    public record Spill(int size, PlannedSql probe, PlannedSql fill, PlannedSql pageKeys, PlannedSql deletePrefix,
            PlannedSql deleteSuffix, List<String> key, String reference, LockingDialect dialect, String clear) {

        /** The DELETE of {@code rows} rows by key (MariaDB plans a single-table DELETE's IN subquery row by row: keys, not a subquery). */
        public PlannedSql delete(int rows) {
            return new SqlBuilder().append(deletePrefix).append(UpdatePlan.keyMatch(dialect, key, reference, rows))
                    .append(deleteSuffix).build();
        }
    }

    public ReturningPlan withSpill(Spill spill) {
        return new ReturningPlan(table, command, logged, shape, sql, columns, pages, applicationColumns, spill);
    }

    /**
     * A DELETE run a page of rows at a time, in key order, so that memory does not grow with the rows
     * it deletes: the first page; when it was full, the key of the last row of the range, locked
     * ({@code lastRow}); then pages up to it ({@code next}) until one is not full. Each page deletes
     * and returns its rows in one statement. The driver values of {@code next}: on MariaDB, whose pages
     * go in key order, those of {@link UpdatePlan#pageValues} (after the last key deleted, up to the
     * end); on H2 the end's key.
     *
     * @param firstInTransaction MariaDB: the first page after a savepoint ({@link #SAVEPOINT}) in the
     *                           same round trip, which a failing later page rolls back to; H2: null
     *                           (the driver sets one, without a round trip)
     */
    public record Pages(int size, PlannedSql first, PlannedSql firstInTransaction, PlannedSql lastRow, PlannedSql next) {
    }

    /** The savepoint of a paged DELETE on MariaDB; named so that it cannot meet one of the application's. */
    public static final String SAVEPOINT = "repl_capture_pages";

    /** Not paged. */
    public ReturningPlan(TableInfo table, CommandType command, LoggedColumns logged, LogRowShape shape, PlannedSql sql,
            List<String> columns) {
        this(table, command, logged, shape, sql, columns, null, 0);
    }
}
