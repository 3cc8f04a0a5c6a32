package io.jdbcrepl.capture.locking;

import io.jdbcrepl.capture.TableInfo;
import io.jdbcrepl.dialect.Dialect;
import io.jdbcrepl.intercept.GeneratedKeys;
import io.jdbcrepl.lcr.TypedValue;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/** The key rows the executions of a captured statement read back since the last reset: one execution's, or a whole batch's. */
final class GeneratedKeyRows {

    private final List<List<TypedValue>> rows = new ArrayList<>();
    /** Where each execution's rows start in {@link #rows}. */
    private final List<Integer> executionStarts = new ArrayList<>();
    private int autoIncrement = -1;

    /** One execution's key rows; {@code autoIncrementColumn} the 1-based position of the auto-increment column in them, or -1. */
    void add(List<List<TypedValue>> execution, int autoIncrementColumn) {
        executionStarts.add(rows.size());
        rows.addAll(execution);
        autoIncrement = autoIncrementColumn;
    }

    void clear() {
        rows.clear();
        executionStarts.clear();
    }

    /** The keys, shaped as the real driver shapes them; {@code columns} those of the rows, null when the plan reads back none. */
    ResultSet result(Connection connection, Dialect dialect, TableInfo table, List<String> columns, GeneratedKeys request)
            throws SQLException {
        if (columns == null || rows.isEmpty()) return GeneratedKeysResult.empty(connection, dialect, table);
        return GeneratedKeysResult.of(connection, dialect, table, columns, rows, executionStarts, autoIncrement, request);
    }
}
