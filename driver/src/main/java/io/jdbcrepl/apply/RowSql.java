package io.jdbcrepl.apply;

import io.jdbcrepl.capture.pg.LargeObjects;
import io.jdbcrepl.capture.sql.Dialect;

import java.util.List;
import java.util.stream.Collectors;

/**
 * The statements that apply row LCRs, per dialect: key columns compared with {@code =}, other
 * compared columns NULL-safely ({@code IS NOT DISTINCT FROM}, MariaDB {@code <=>}).
 */
final class RowSql {

    private RowSql() {
    }

    static String quote(Dialect dialect, String identifier) {
        return dialect == Dialect.MYSQL ? "`" + identifier.replace("`", "``") + "`"
                : "\"" + identifier.replace("\"", "\"\"") + "\"";
    }

    static String table(Dialect dialect, String schema, String table) {
        return (schema == null ? "" : quote(dialect, schema) + ".") + quote(dialect, table);
    }

    static String insert(Dialect d, TableMap.LocalTable table, List<String> columns) {
        return "INSERT INTO " + table.sql() + " (" + list(d, columns, "", ", ") + ") VALUES ("
                + columns.stream().map(c -> LargeObjects.assigned(table.columnInfo(c), "?"))
                        .collect(Collectors.joining(", ")) + ")";
    }

    static String update(Dialect d, TableMap.LocalTable table, List<String> set, List<String> key, List<String> compared) {
        return "UPDATE " + table.sql() + " SET "
                + set.stream().map(c -> quote(d, c) + " = " + LargeObjects.assigned(table.columnInfo(c), "?"))
                        .collect(Collectors.joining(", "))
                + where(d, key, compared);
    }

    static String delete(Dialect d, String table, List<String> key, List<String> compared) {
        return "DELETE FROM " + table + where(d, key, compared);
    }

    /** The current row by key: {@code columns} in order. */
    static String select(Dialect d, TableMap.LocalTable table, List<String> columns, List<String> key) {
        return "SELECT " + columns.stream().map(c -> LargeObjects.selectItem(table.columnInfo(c), quote(d, c)))
                .collect(Collectors.joining(", ")) + " FROM " + table.sql() + where(d, key, List.of());
    }

    /**
     * The row by key, locked until the transaction ends: a conflict is resolved from the row as it
     * is then, and no local transaction may change it between that read and the resolution's write
     * (which finds the row by key alone), or its change would be lost here and nowhere else.
     */
    static String selectForUpdate(Dialect d, TableMap.LocalTable table, List<String> columns, List<String> key) {
        return select(d, table, columns, key) + " FOR UPDATE";
    }

    private static String where(Dialect d, List<String> key, List<String> compared) {
        String nullSafe = d == Dialect.MYSQL ? " <=> ?" : " IS NOT DISTINCT FROM ?";
        String out = " WHERE " + list(d, key, " = ?", " AND ");
        return compared.isEmpty() ? out : out + " AND " + list(d, compared, nullSafe, " AND ");
    }

    private static String list(Dialect d, List<String> columns, String suffix, String separator) {
        return columns.stream().map(c -> quote(d, c) + suffix).collect(Collectors.joining(separator));
    }
}
