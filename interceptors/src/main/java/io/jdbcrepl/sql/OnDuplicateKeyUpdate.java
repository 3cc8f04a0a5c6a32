package io.jdbcrepl.sql;

import java.util.List;

/**
 * MySQL's {@code ON DUPLICATE KEY UPDATE a = …, b = …}: {@code clause} is the assignment list as
 * written (after UPDATE), {@code assignments} the same taken apart.
 */
public record OnDuplicateKeyUpdate(SqlFragment clause, List<Assignment> assignments) {

    public OnDuplicateKeyUpdate {
        assignments = List.copyOf(assignments);
    }

    /** The columns it assigns, in order. */
    public List<ColumnRef> updatedColumns() {
        return assignments.stream().map(Assignment::column).toList();
    }
}
