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
 * @param sql     the statement; its result columns are {@code columns}, in order
 * @param columns every column of the table, in table order
 */
public record ReturningPlan(TableInfo table, CommandType command, LoggedColumns logged, LogRowShape shape,
        PlannedSql sql, List<String> columns) implements LockingPlan {
}
