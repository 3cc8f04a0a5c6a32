package io.jdbcrepl.config;

import java.util.Objects;

/**
 * A prebuilt conflict handler, {@code repl.handler.<name>.*} (SPEC 5.3), checked against the rules
 * that need no database.
 *
 * @param name the handler's name (the middle of its keys)
 * @param table the table it is for
 * @param type the resolution method
 * @param columns its column list, or {@code *}
 * @param resolution the resolution column for MAXIMUM and MINIMUM, else null
 * @param operation INSERT, UPDATE or DELETE
 * @param conflict ROW_EXISTS or ROW_MISSING
 */
public record HandlerDefinition(String name, TableName table, HandlerType type, ColumnSet columns,
        String resolution, DmlOperation operation, ConflictType conflict) {

    public HandlerDefinition {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(table, "table");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(columns, "columns");
        Objects.requireNonNull(operation, "operation");
        Objects.requireNonNull(conflict, "conflict");
    }
}
