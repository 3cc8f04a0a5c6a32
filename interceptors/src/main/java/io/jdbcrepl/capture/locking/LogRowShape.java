package io.jdbcrepl.capture.locking;

import io.jdbcrepl.capture.ColumnInfo;
import io.jdbcrepl.capture.LoggedColumns;
import io.jdbcrepl.capture.TableInfo;
import io.jdbcrepl.dialect.Dialect;
import io.jdbcrepl.lcr.CommandType;
import io.jdbcrepl.lcr.Json;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The parts of a statement's LCR rows that are the same for every row, written as PostgresCapture
 * writes them so that the apply side reads both alike: column types of the union of old and new
 * columns in table order, and the change vector as a JSON array (null when empty).
 */
public record LogRowShape(CommandType command, String schema, String table, String columnTypesJson,
        String changeVectorJson) {

    public static LogRowShape of(CommandType command, TableInfo table, LoggedColumns logged, Dialect dialect) {
        Map<String, Object> types = new LinkedHashMap<>();
        for (ColumnInfo c : table.columns()) {
            if (logged.oldColumns().contains(c.name()) || logged.newColumns().contains(c.name())) {
                types.put(c.name(), c.loggedType(dialect).logName());
            }
        }
        String vector = logged.changeVector().isEmpty() ? null : Json.write(logged.changeVector());
        return new LogRowShape(command, table.schema(), table.name(), Json.write(types), vector);
    }
}
