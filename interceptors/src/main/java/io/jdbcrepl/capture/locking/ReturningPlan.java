package io.jdbcrepl.capture.locking;

import io.jdbcrepl.capture.LoggedColumns;
import io.jdbcrepl.capture.TableInfo;
import io.jdbcrepl.dialect.Dialect;
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
 * @param keyed   H2, a DELETE without its own result, and MariaDB's {@code DELETE x FROM t x} (which takes
 *                no RETURNING): run as {@link Keyed} instead of {@code sql}; else null
 * @param applicationColumns MariaDB: the result columns of the application's own RETURNING, which
 *                come first and are the application's result; 0 when it has none
 */
public record ReturningPlan(TableInfo table, CommandType command, LoggedColumns logged, LogRowShape shape,
        PlannedSql sql, List<String> columns, Keyed keyed, int applicationColumns) implements LockingPlan {

    /**
     * H2 (and MariaDB's {@code DELETE x FROM t x}): a DELETE as a locking read of its rows (every column, with the statement's WHERE, ORDER BY
     * and LIMIT: chosen and locked before any is deleted), then a DELETE by key of each {@code size}
     * rows read, whose count must be theirs. Not {@code OLD TABLE}: H2 2.4 buffers a delta table's
     * result to disk past {@code MAX_MEMORY_ROWS} and loses its last rows there (its
     * DataChangeDeltaTable never completes the result); an ordinary query's result is complete,
     * and on a file database held on disk rather than in the heap.
     */
    public record Keyed(int size, PlannedSql lockingRead, PlannedSql deletePrefix, TableInfo table, String reference,
            Dialect dialect, PlannedSql keylessFilter) {

        /** The DELETE of {@code rows} locked rows by key. */
        public PlannedSql delete(int rows) {
            return new SqlBuilder().append(deletePrefix).append(UpdatePlan.keyMatch(dialect, table, reference, rows)).build();
        }

        /**
         * A table without key ({@link TableInfo#keyless}): the DELETE of {@code rows} locked rows that
         * share one key, with the application's WHERE and {@code LIMIT rows}, so that of several
         * identical rows as many go as the statement locked.
         */
        public PlannedSql deleteSome(int rows) {
            return new SqlBuilder().append(deletePrefix).append(keylessFilter)
                    .append(UpdatePlan.keyMatch(dialect, table, reference, 1)).sql(" LIMIT " + rows).build();
        }
    }

    public ReturningPlan withKeyed(Keyed keyed) {
        return new ReturningPlan(table, command, logged, shape, sql, columns, keyed, applicationColumns);
    }

    /** Not keyed. */
    public ReturningPlan(TableInfo table, CommandType command, LoggedColumns logged, LogRowShape shape, PlannedSql sql,
            List<String> columns) {
        this(table, command, logged, shape, sql, columns, null, 0);
    }
}
