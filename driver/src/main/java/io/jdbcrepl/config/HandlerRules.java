package io.jdbcrepl.config;

import io.jdbcrepl.api.ConflictType;
import io.jdbcrepl.api.DmlOperation;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Turns the {@code repl.handler.*} and {@code repl.dmlhandler.*} keys of each name into
 * definitions and enforces SPEC 5.3's rules that need no database. Rules that need the table
 * (DELTA on a numeric column, a {@code *} list's resolution column) belong to the apply side.
 */
final class HandlerRules {

    private HandlerRules() {}

    /** @param byName each handler's typed values by property, names in sorted order */
    static List<HandlerDefinition> prebuilt(Map<String, Map<ReplProperty, Object>> byName) throws SQLException {
        List<HandlerDefinition> out = new ArrayList<>();
        for (Map.Entry<String, Map<ReplProperty, Object>> e : byName.entrySet()) {
            out.add(prebuilt(e.getKey(), e.getValue()));
        }
        checkLists(out);
        return List.copyOf(out);
    }

    private static HandlerDefinition prebuilt(String name, Map<ReplProperty, Object> v) throws SQLException {
        TableName table = (TableName) required(name, "handler", v, ReplProperty.HANDLER_TABLE);
        HandlerType type = HandlerType.valueOf((String) required(name, "handler", v, ReplProperty.HANDLER_TYPE));
        DmlOperation op = DmlOperation.valueOf((String) value(v, ReplProperty.HANDLER_OPERATION));
        ConflictType conflict = ConflictType.valueOf((String) value(v, ReplProperty.HANDLER_CONFLICT));
        ColumnSet columns = (ColumnSet) value(v, ReplProperty.HANDLER_COLUMNS);
        String resolution = (String) v.get(ReplProperty.HANDLER_RESOLUTION);
        String where = "Handler " + name + " (repl.handler." + name + ".*, " + op + "/" + conflict + ", type " + type + "): ";

        if (HandlerType.allowedFor(op, conflict).isEmpty()) {
            throw ConfigErrors.invalid(where + key(name, ReplProperty.HANDLER_OPERATION) + "=" + op + " with "
                    + key(name, ReplProperty.HANDLER_CONFLICT) + "=" + conflict + " is not a valid combination");
        }
        if (!HandlerType.allowedFor(op, conflict).contains(type)) {
            throw ConfigErrors.invalid(where + key(name, ReplProperty.HANDLER_TYPE) + "=" + type + " is not valid for "
                    + op + "/" + conflict + "; valid types: " + HandlerType.allowedFor(op, conflict));
        }
        if ((conflict == ConflictType.ROW_MISSING || op == DmlOperation.DELETE) && !columns.star()) {
            throw ConfigErrors.invalid(where + key(name, ReplProperty.HANDLER_COLUMNS) + "=" + columns
                    + ": ROW_MISSING and DELETE handlers take only the * list");
        }
        if (type.needsResolution()) {
            if (resolution == null) {
                throw ConfigErrors.invalid(where + key(name, ReplProperty.HANDLER_RESOLUTION) + " is required for " + type);
            }
            if (!columns.star() && !columns.names(resolution, false) && !columns.names(resolution, true)) {
                throw ConfigErrors.invalid(where + key(name, ReplProperty.HANDLER_RESOLUTION) + "=" + resolution
                        + " is not one of its columns " + key(name, ReplProperty.HANDLER_COLUMNS) + "=" + columns);
            }
        } else if (resolution != null) {
            throw ConfigErrors.invalid(where + key(name, ReplProperty.HANDLER_RESOLUTION) + "=" + resolution
                    + " is only for MAXIMUM and MINIMUM");
        }
        return new HandlerDefinition(name, table, type, columns, resolution, op, conflict);
    }

    /** SPEC 5.3's list rules, per table as the keys name it (emp and hr.emp are checked at connect). */
    private static void checkLists(List<HandlerDefinition> handlers) throws SQLException {
        List<HandlerDefinition> left = new ArrayList<>(handlers);
        while (!left.isEmpty()) {
            TableName table = left.get(0).table();
            List<HandlerDefinition> same = left.stream().filter(h -> h.table().sameAs(table)).toList();
            HandlerDefinition.checkLists(same);
            left.removeAll(same);
        }
    }

    static List<DmlHandlerDefinition> custom(Map<String, Map<ReplProperty, Object>> byName) throws SQLException {
        List<DmlHandlerDefinition> out = new ArrayList<>();
        for (Map.Entry<String, Map<ReplProperty, Object>> e : byName.entrySet()) {
            String name = e.getKey();
            Map<ReplProperty, Object> v = e.getValue();
            TableName table = (TableName) required(name, "custom handler", v, ReplProperty.DMLHANDLER_TABLE);
            String className = (String) required(name, "custom handler", v, ReplProperty.DMLHANDLER_CLASS);
            DmlOperation op = DmlOperation.valueOf((String) value(v, ReplProperty.DMLHANDLER_OPERATION));
            boolean errorHandler = (Boolean) value(v, ReplProperty.DMLHANDLER_ERROR_HANDLER);
            DmlHandlerDefinition d = new DmlHandlerDefinition(name, table, op, className, errorHandler);
            for (DmlHandlerDefinition other : out) {
                if (other.table().sameAs(table) && other.operation() == op && other.errorHandler() == errorHandler) {
                    throw ConfigErrors.invalid("Custom handlers " + other.name() + " and " + name + " are both for table "
                            + table + ", operation " + op + ", error_handler=" + errorHandler + " ("
                            + dmlKey(other.name()) + ", " + dmlKey(name)
                            + "): at most one per table, operation and error_handler");
                }
            }
            out.add(d);
        }
        return List.copyOf(out);
    }

    private static Object required(String name, String what, Map<ReplProperty, Object> v, ReplProperty p)
            throws SQLException {
        Object value = v.get(p);
        if (value == null) {
            String given = v.keySet().stream().map(k -> key(name, k)).collect(Collectors.joining(", "));
            throw ConfigErrors.invalid("The " + what + " " + name + " needs " + key(name, p) + " (given: " + given + ")");
        }
        return value;
    }

    /** The given value, else the property's default parsed as the reader would have. */
    private static Object value(Map<ReplProperty, Object> v, ReplProperty p) throws SQLException {
        Object value = v.get(p);
        return value != null ? value : Values.parse(p, p.key(), p.defaultValue());
    }

    static String key(String name, ReplProperty p) {
        return p.key().replace("<name>", name);
    }

    private static String dmlKey(String name) {
        return "repl.dmlhandler." + name + ".*";
    }
}
