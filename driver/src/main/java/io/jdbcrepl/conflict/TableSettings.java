package io.jdbcrepl.conflict;

import io.jdbcrepl.config.ColumnSet;
import java.util.List;
import java.util.Objects;

/**
 * What conflict handling needs to know about one destination table, found by the apply side
 * from the configuration and the table's metadata.
 *
 * @param schema the destination schema (for messages and history), may be null
 * @param table the destination table
 * @param keyColumns the key: {@code repl.key.<table>}, else the primary key (SPEC 3.3)
 * @param noCompare {@code repl.nocompare.<table>}: non-key columns not compared, {@code *} for
 *     all non-key columns; null when not set. A key column listed here is compared all the same
 * @param notNullColumns the columns declared NOT NULL (an UPDATE turned into an INSERT needs them)
 * @param paddedColumns CHAR(n) columns, whose strings compare without trailing spaces
 */
public record TableSettings(String schema, String table, List<String> keyColumns, ColumnSet noCompare,
        List<String> notNullColumns, List<String> paddedColumns) {

    public TableSettings {
        Objects.requireNonNull(table, "table");
        keyColumns = List.copyOf(keyColumns);
        if (keyColumns.isEmpty()) {
            throw new IllegalArgumentException("Table " + table + " has no key");
        }
        notNullColumns = List.copyOf(notNullColumns == null ? List.of() : notNullColumns);
        paddedColumns = List.copyOf(paddedColumns == null ? List.of() : paddedColumns);
    }

    /** A table with a key and nothing else set. */
    public static TableSettings of(String schema, String table, List<String> keyColumns) {
        return new TableSettings(schema, table, keyColumns, null, List.of(), List.of());
    }

    public boolean isKey(String column) {
        return Columns.contains(keyColumns, column);
    }

    /** Whether the column's old value is compared: always for the key, else unless nocompare names it. */
    public boolean compared(String column) {
        if (isKey(column) || noCompare == null) {
            return true;
        }
        return !noCompare.star() && !Columns.contains(noCompare.columns(), column);
    }

    boolean padded(String column) {
        return Columns.contains(paddedColumns, column);
    }

    String qualifiedName() {
        return schema == null ? table : schema + "." + table;
    }
}
