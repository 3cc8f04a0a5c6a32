package io.jdbcrepl.sql;

import io.jdbcrepl.lcr.CommandType;

import java.util.List;

/**
 * A MySQL/MariaDB multi-table UPDATE or DELETE taken apart for a capture plan:
 * {@code UPDATE a JOIN b ON … SET a.x = b.y WHERE …}, {@code UPDATE a, b SET …},
 * {@code DELETE a, b FROM a JOIN b …}, {@code DELETE FROM a USING a JOIN b …}. Texts are cut from
 * {@link #sql()} as written, each {@link SqlFragment} with the JDBC parameters inside it.
 *
 * @param sql            the original statement
 * @param command        UPDATE or DELETE
 * @param ignore         the IGNORE modifier
 * @param tables         the tables of the join (not its subqueries), in order
 * @param changed        the tables the statement changes: UPDATE those a SET column belongs to,
 *                       DELETE those it lists; each once, in the order the statement names them
 * @param assignments    UPDATE: the SET list, one per column, each with the table it belongs to
 * @param head           the statement up to its WHERE (or the whole statement when it has none)
 * @param where          the WHERE condition as written, or null
 * @param join           the table references (the join) as written
 * @param parameterCount the number of JDBC {@code ?} parameters in the whole statement
 */
public record MultiTableDml(String sql, CommandType command, boolean ignore, List<JoinedTable> tables,
        List<JoinedTable> changed, List<TableAssignment> assignments, SqlFragment head, SqlFragment where,
        SqlFragment join, int parameterCount) implements Analysis {

    /**
     * A table of the join.
     *
     * @param table    as the statement names it (with its alias)
     * @param nullable on the outer side of a LEFT or RIGHT JOIN (or inside a parenthesised join
     *                 that has one): a row of the join may carry no row of it
     */
    public record JoinedTable(TableRef table, boolean nullable) {
    }

    /** One {@code t.column = value} of the SET list. */
    public record TableAssignment(JoinedTable table, ColumnRef column, SqlFragment value) {
    }

    public MultiTableDml {
        tables = List.copyOf(tables);
        changed = List.copyOf(changed);
        assignments = List.copyOf(assignments);
    }

    /** The tables it changes, as named. */
    public List<TableRef> changedTables() {
        return changed.stream().map(JoinedTable::table).toList();
    }
}
