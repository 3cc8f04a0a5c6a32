package io.jdbcrepl.capture.locking;

import io.jdbcrepl.capture.LoggedColumns;
import io.jdbcrepl.capture.TableInfo;
import io.jdbcrepl.lcr.CommandType;

/** How one INSERT, UPDATE or DELETE (on one table, or MySQL's multi-table forms) is captured on MariaDB or H2. */
public sealed interface LockingPlan permits UpdatePlan, ReturningPlan, UpsertPlan, MultiTablePlan {

    TableInfo table();

    /** Every table whose rows it changes and logs ({@link MultiTablePlan}: several). */
    default java.util.List<TableInfo> tables() {
        return java.util.List.of(table());
    }

    CommandType command();

    LoggedColumns logged();

    /** What the LCR rows of this plan have in common: types and change vector. */
    LogRowShape shape();
}
