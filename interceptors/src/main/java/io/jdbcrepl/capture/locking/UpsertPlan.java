package io.jdbcrepl.capture.locking;

import io.jdbcrepl.capture.LoggedColumns;
import io.jdbcrepl.capture.TableInfo;
import io.jdbcrepl.lcr.CommandType;

import java.util.List;

/**
 * MariaDB's {@code INSERT … ON DUPLICATE KEY UPDATE} as the application's own statement, run once:
 * its update list starts with an assignment of a column to itself that, on each row it updates,
 * counts the row in {@code @repl_n} and copies the row's old values (as the statement locked and
 * read them) into {@code @repl_o1…}; {@code RETURNING} gives every row as stored afterwards, then
 * {@code @repl_n} and the old values. A row whose count did not move was inserted. One statement:
 * a row committed concurrently is inserted or updated and logged as the statement saw it.
 *
 * <p>Result columns: {@link #columns()} (table order), the count, then {@link #oldColumns()}.
 *
 * @param logged       the INSERT LCRs' columns
 * @param updateLogged the UPDATE LCRs' columns (the update list's assignments)
 * @param inTransaction the statement within an open transaction (a compound statement that first
 *                      resets the variables)
 * @param beginning    the same, starting a transaction of its own first (auto-commit mode)
 */
public record UpsertPlan(TableInfo table, LoggedColumns logged, LogRowShape shape, LoggedColumns updateLogged,
        LogRowShape updateShape, List<String> columns, PlannedSql inTransaction, PlannedSql beginning)
        implements LockingPlan {

    public UpsertPlan {
        columns = List.copyOf(columns);
    }

    @Override
    public CommandType command() {
        return CommandType.INSERT;
    }

    /** The old values read back for an updated row, in table order. */
    public List<String> oldColumns() {
        return updateLogged.oldColumns();
    }
}
