package io.jdbcrepl.apply;

import io.jdbcrepl.dialect.Dialect;

import java.util.List;
import java.util.stream.Collectors;

/**
 * The statements that apply row LCRs, per dialect: key columns compared with {@code =}, other
 * compared columns NULL-safely ({@link ApplySql#nullSafeEquals}); the key of a
 * table without one (every comparable column) NULL-safely too, one row of several identical ones.
 */
final class RowSql {

    private RowSql() {
    }

    static String quote(Dialect dialect, String identifier) {
        return dialect.quote(identifier);
    }

    static String table(Dialect dialect, String schema, String table) {
        return (schema == null ? "" : quote(dialect, schema) + ".") + quote(dialect, table);
    }

    static String insert(Dialect d, TableMap.LocalTable table, List<String> columns) {
        return "INSERT INTO " + table.sql() + " (" + list(d, columns, "", ", ") + ")"
                + (table.overridesIdentity() ? " OVERRIDING SYSTEM VALUE" : "") + " VALUES ("
                + columns.stream().map(c -> d.writeValue(table.columnInfo(c).type(), "?"))
                        .collect(Collectors.joining(", ")) + ")";
    }

    /**
     * A table without key but every comparable column ({@code TableInfo.keyless}): the key is matched
     * NULL-safely and, of several identical rows, one is changed.
     */
    static String update(Dialect d, TableMap.LocalTable table, List<String> set, List<String> key, List<String> compared) {
        String head = "UPDATE " + table.sql() + " SET "
                + set.stream().map(c -> quote(d, c) + " = " + d.writeValue(table.columnInfo(c).type(), "?"))
                        .collect(Collectors.joining(", "));
        return table.info().keyless() ? head + oneOf(d, table.sql(), key, compared) : head + where(d, key, compared, false);
    }

    static String delete(Dialect d, String table, List<String> key, List<String> compared, boolean keyless) {
        String head = "DELETE FROM " + table;
        return keyless ? head + oneOf(d, table, key, compared) : head + where(d, key, compared, false);
    }

    /** The current row by key: {@code columns} in order (of a table without key, one of the identical rows). */
    static String select(Dialect d, TableMap.LocalTable table, List<String> columns, List<String> key) {
        boolean keyless = table.info().keyless();
        return "SELECT " + columns.stream().map(c -> d.readValue(table.columnInfo(c).type(), quote(d, c)))
                .collect(Collectors.joining(", ")) + " FROM " + table.sql() + where(d, key, List.of(), keyless)
                + (keyless ? " LIMIT 1" : "");
    }

    /**
     * The row by key, locked until the transaction ends: a conflict is resolved from the row as it
     * is then, and no local transaction may change it between that read and the resolution's write
     * (which finds the row by key alone), or its change would be lost here and nowhere else.
     */
    static String selectForUpdate(Dialect d, TableMap.LocalTable table, List<String> columns, List<String> key) {
        return select(d, table, columns, key) + " FOR UPDATE";
    }

    /**
     * The WHERE of a change of one row of a table without key (SPEC 3.3: an apply that matches
     * several identical rows changes one of them), as the database picks one ({@link ApplySql#oneRowOf}).
     */
    private static String oneOf(Dialect d, String table, List<String> key, List<String> compared) {
        return d.part(ApplySql.class).oneRowOf(table, where(d, key, compared, true));
    }

    /** @param nullSafeKey also the key matched NULL-safely (a table without key, whose key columns may be NULL) */
    private static String where(Dialect d, List<String> key, List<String> compared, boolean nullSafeKey) {
        String nullSafe = d.part(ApplySql.class).nullSafeEquals();
        String out = " WHERE " + list(d, key, nullSafeKey ? nullSafe : " = ?", " AND ");
        return compared.isEmpty() ? out : out + " AND " + list(d, compared, nullSafe, " AND ");
    }

    private static String list(Dialect d, List<String> columns, String suffix, String separator) {
        return columns.stream().map(c -> quote(d, c) + suffix).collect(Collectors.joining(separator));
    }
}
