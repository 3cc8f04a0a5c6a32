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
        PlannedSql sql, List<String> columns, Pages pages, int applicationColumns) implements LockingPlan {

    /**
     * H2: a DELETE run a page of rows at a time, in key order, so that memory does not grow with the
     * rows it deletes: the first page; when it was full, the key of the last row of the range, locked
     * ({@code lastRow}); then pages up to it ({@code next}, driver values: the end's key) until one is
     * not full. Each page deletes and returns its rows in one statement.
     */
    public record Pages(int size, PlannedSql first, PlannedSql lastRow, PlannedSql next) {
    }

    /** Not paged. */
    public ReturningPlan(TableInfo table, CommandType command, LoggedColumns logged, LogRowShape shape, PlannedSql sql,
            List<String> columns) {
        this(table, command, logged, shape, sql, columns, null, 0);
    }
}
