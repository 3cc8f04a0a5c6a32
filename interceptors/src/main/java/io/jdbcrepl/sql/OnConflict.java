package io.jdbcrepl.sql;

import java.util.List;

/**
 * PostgreSQL's {@code ON CONFLICT [(columns) [WHERE …] | ON CONSTRAINT name] DO NOTHING | DO UPDATE
 * SET … [WHERE …]}.
 *
 * @param clause          the whole clause as written, from ON to its end
 * @param targetColumns   the conflict target's columns, empty when none is given or a constraint is named
 * @param constraint      the constraint named by ON CONSTRAINT (as written), else null
 * @param targetWhere     the WHERE of the conflict target (partial unique index), else null
 * @param doNothing       DO NOTHING rather than DO UPDATE
 * @param assignments     DO UPDATE's SET list, empty for DO NOTHING
 * @param where           DO UPDATE's WHERE, else null
 */
public record OnConflict(SqlFragment clause, List<ColumnRef> targetColumns, String constraint,
                         SqlFragment targetWhere, boolean doNothing, List<Assignment> assignments,
                         SqlFragment where) {

    public OnConflict {
        targetColumns = List.copyOf(targetColumns);
        assignments = List.copyOf(assignments);
    }

    /** The columns DO UPDATE assigns, in order. */
    public List<ColumnRef> updatedColumns() {
        return assignments.stream().map(Assignment::column).toList();
    }
}
