package io.jdbcrepl.config;

import io.jdbcrepl.api.ConflictType;
import io.jdbcrepl.api.DmlOperation;

import java.sql.SQLException;
import java.util.List;
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

    /**
     * SPEC 5.3's rules across the handlers of one table: one {@code *} list and each column in at
     * most one list per (operation, conflict), and a {@code *} list's resolution column in no
     * other list. SQLState 22023 naming the keys.
     *
     * @param handlers handlers that are all for one table
     */
    public static void checkLists(List<HandlerDefinition> handlers) throws SQLException {
        for (int i = 0; i < handlers.size(); i++) {
            HandlerDefinition a = handlers.get(i);
            for (int j = i + 1; j < handlers.size(); j++) {
                HandlerDefinition b = handlers.get(j);
                if (a.operation() != b.operation() || a.conflict() != b.conflict()) {
                    continue;
                }
                String scope = " for table " + a.table() + ", " + a.operation() + "/" + a.conflict();
                if (a.columns().star() && b.columns().star()) {
                    throw ConfigErrors.invalid("Handlers " + a.name() + " and " + b.name() + " both take the * list"
                            + scope + " (" + HandlerRules.key(a.name(), ReplProperty.HANDLER_COLUMNS) + "=*, "
                            + HandlerRules.key(b.name(), ReplProperty.HANDLER_COLUMNS) + "=*): only one * list is allowed");
                }
                starResolutionOutsideOtherLists(a, b, scope);
                starResolutionOutsideOtherLists(b, a, scope);
                for (String column : a.columns().columns()) {
                    if (b.columns().names(column, false) || b.columns().names(column, true)) {
                        throw ConfigErrors.invalid("Column " + column + " is in the lists of handlers " + a.name()
                                + " and " + b.name() + scope + " (" + HandlerRules.key(a.name(), ReplProperty.HANDLER_COLUMNS) + "="
                                + a.columns() + ", " + HandlerRules.key(b.name(), ReplProperty.HANDLER_COLUMNS) + "=" + b.columns()
                                + "): a column is in at most one list");
                    }
                }
            }
        }
    }

    /** A * list's resolution column must be in the * list, so in no other list of its group. */
    private static void starResolutionOutsideOtherLists(HandlerDefinition star, HandlerDefinition other, String scope)
            throws SQLException {
        if (star.columns().star() && star.resolution() != null
                && (other.columns().names(star.resolution(), false) || other.columns().names(star.resolution(), true))) {
            throw ConfigErrors.invalid("Handler " + star.name() + "'s resolution column "
                    + HandlerRules.key(star.name(), ReplProperty.HANDLER_RESOLUTION) + "=" + star.resolution() + " is in handler "
                    + other.name() + "'s list " + HandlerRules.key(other.name(), ReplProperty.HANDLER_COLUMNS) + "=" + other.columns()
                    + scope + ", so not in the * list of " + star.name()
                    + ": the resolution column must be one of the list's columns");
        }
    }
}
