package io.jdbcrepl.config;

import java.util.List;

/**
 * A column list as a key gives it: named columns, or {@link #STAR} for "all columns" (whose exact
 * meaning depends on the key: for a handler, all columns in no other list).
 *
 * @param star true for {@code *}
 * @param columns the named columns as written, in order; empty for {@code *}
 */
public record ColumnSet(boolean star, List<String> columns) {

    public static final ColumnSet STAR = new ColumnSet(true, List.of());

    public ColumnSet {
        columns = List.copyOf(columns);
        if (star != columns.isEmpty()) {
            throw new IllegalArgumentException("a column set is either * or a non-empty list");
        }
    }

    public static ColumnSet of(List<String> columns) {
        return new ColumnSet(false, columns);
    }

    /** Whether the column is named here (unquoted folding); false for {@code *}. */
    public boolean names(String column, boolean foldsToUpper) {
        return columns.stream().anyMatch(c -> Identifiers.same(c, column, foldsToUpper));
    }

    @Override
    public String toString() {
        return star ? "*" : String.join(",", columns);
    }
}
