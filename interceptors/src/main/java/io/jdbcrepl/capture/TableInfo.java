package io.jdbcrepl.capture;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * A replicated table as capture and apply see it: its columns in table order and its key (the
 * primary key, or the substitute key of {@code repl.key.<table>}) and, on PostgreSQL, its primary key
 * and unique constraints by name ({@code ON CONFLICT ON CONSTRAINT}).
 */
public final class TableInfo {

    private final String schema;
    private final String name;
    private final List<ColumnInfo> columns;
    private final List<String> key;
    private final Map<String, ColumnInfo> byFoldedName = new LinkedHashMap<>();
    private final Map<String, List<String>> constraints;
    /** Whether the key is every comparable column: the table has neither primary nor substitute key (SPEC 3.3). */
    private final boolean keyless;
    /** Columns of the table's unique indexes, or null when not known (then every column may be one). */
    private final java.util.Set<String> uniqueIndexColumns;

    public TableInfo(String schema, String name, List<ColumnInfo> columns, List<String> key) {
        this(schema, name, columns, key, Map.of());
    }

    /** @param constraints constraint name (as stored) to its columns (stored names, in index order) */
    public TableInfo(String schema, String name, List<ColumnInfo> columns, List<String> key,
            Map<String, List<String>> constraints) {
        this(schema, name, columns, key, constraints, null);
    }

    /**
     * @param uniqueIndexColumns stored names of the columns of every unique index, or null when not
     *                           known (an index on an expression, or not read)
     */
    public TableInfo(String schema, String name, List<ColumnInfo> columns, List<String> key,
            Map<String, List<String>> constraints, java.util.Set<String> uniqueIndexColumns) {
        this(schema, name, columns, key, constraints, uniqueIndexColumns, false);
    }

    private TableInfo(String schema, String name, List<ColumnInfo> columns, List<String> key,
            Map<String, List<String>> constraints, java.util.Set<String> uniqueIndexColumns, boolean keyless) {
        this.keyless = keyless;
        this.schema = schema;
        this.name = name;
        this.columns = List.copyOf(columns);
        for (ColumnInfo c : columns) byFoldedName.put(c.name().toLowerCase(Locale.ROOT), c);
        List<String> stored = new ArrayList<>();
        for (String k : key) {
            ColumnInfo c = column(k).orElseThrow(() -> new IllegalArgumentException(
                    "Key column " + k + " is not a column of " + qualifiedName()));
            stored.add(c.name());
        }
        this.key = List.copyOf(stored);
        Map<String, List<String>> copy = new LinkedHashMap<>();
        constraints.forEach((n, cols) -> copy.put(n, List.copyOf(cols)));
        this.constraints = java.util.Collections.unmodifiableMap(copy);
        this.uniqueIndexColumns = uniqueIndexColumns == null ? null : java.util.Set.copyOf(uniqueIndexColumns);
    }

    /**
     * This table as replicated without a primary or substitute key: its key is every comparable
     * column (Oracle's rule, SPEC 3.3); a table with a key is returned as it is.
     *
     * @throws IllegalArgumentException when no column can be compared (only LOB or JSON columns)
     */
    public TableInfo keyedByComparableColumns() {
        if (!key.isEmpty()) return this;
        List<String> comparable = columns.stream().filter(ColumnInfo::comparable).map(ColumnInfo::name).toList();
        if (comparable.isEmpty()) {
            throw new IllegalArgumentException("Table " + qualifiedName() + " has no primary key, no substitute key"
                    + " and no column that rows can be matched by (only LOB or JSON columns " + columns.stream()
                            .map(ColumnInfo::name).toList() + "): add a primary key or name a substitute key with repl.key."
                    + name + "=<columns>, or leave the table out with repl.exclude");
        }
        return new TableInfo(schema, name, columns, comparable, constraints, uniqueIndexColumns, true);
    }

    /**
     * Whether the table has neither primary nor substitute key, so that its key is every comparable
     * column: rows may be identical, and a change by key changes one of them.
     */
    public boolean keyless() {
        return keyless;
    }

    /**
     * Whether a change of this column may count as a key change (PostgreSQL's row locks; H2's paging) (the
     * column is in a unique index, or the indexes are not known): an UPDATE that changes one takes
     * {@code FOR UPDATE} strength, any other {@code FOR NO KEY UPDATE}.
     */
    public boolean mayBeLockKey(String column) {
        return uniqueIndexColumns == null || column(column).map(c -> uniqueIndexColumns.contains(c.name())).orElse(true);
    }

    /** The columns of the constraint with this stored name, or null when the table has none so named. */
    public List<String> constraintColumns(String constraint) {
        return constraints.get(constraint);
    }

    public String schema() {
        return schema;
    }

    public String name() {
        return name;
    }

    public String qualifiedName() {
        return schema == null ? name : schema + "." + name;
    }

    public List<ColumnInfo> columns() {
        return columns;
    }

    /**
     * The key columns' stored names, in key order; never empty for a replicated table (every
     * comparable column of a {@link #keyless} one).
     */
    public List<String> key() {
        return key;
    }

    public boolean isKey(String column) {
        return column(column).map(c -> key.contains(c.name())).orElse(false);
    }

    /** A column by name, matched case-insensitively (names that differ only by case are not supported). */
    public Optional<ColumnInfo> column(String name) {
        return Optional.ofNullable(byFoldedName.get(name.toLowerCase(Locale.ROOT)));
    }

    /** The stored name of a column, or an exception naming the table. */
    public String storedName(String column) {
        return column(column).map(ColumnInfo::name).orElseThrow(() -> new IllegalArgumentException(
                "Column " + column + " is not a column of " + qualifiedName()));
    }

    @Override
    public String toString() {
        return qualifiedName() + columns.stream().map(ColumnInfo::name).toList() + (keyless ? " keyless " : " key ") + key;
    }
}
