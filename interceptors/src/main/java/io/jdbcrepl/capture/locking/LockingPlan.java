package io.jdbcrepl.capture.locking;

import io.jdbcrepl.capture.LoggedColumns;
import io.jdbcrepl.capture.TableInfo;
import io.jdbcrepl.lcr.CommandType;

/** How one INSERT, UPDATE or DELETE on one table is captured on MariaDB or H2. */
public sealed interface LockingPlan permits UpdatePlan, ReturningPlan, UpsertPlan {

    TableInfo table();

    CommandType command();

    LoggedColumns logged();

    /** What the LCR rows of this plan have in common: types and change vector. */
    LogRowShape shape();
}
