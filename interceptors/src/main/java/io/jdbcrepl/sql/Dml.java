package io.jdbcrepl.sql;

import io.jdbcrepl.lcr.CommandType;

import java.util.List;

/**
 * A single-table INSERT, UPDATE or DELETE taken apart for a capture plan. Every text is cut from
 * {@link #sql()} as written; every {@link SqlFragment} carries the 1-based indexes of the JDBC
 * {@code ?} parameters inside it. Components that do not apply to the command are null (or empty
 * lists, or false).
 *
 * @param sql                  the original statement
 * @param command              INSERT, UPDATE or DELETE
 * @param target               the table it changes
 * @param only                 PostgreSQL {@code UPDATE ONLY t} / {@code DELETE FROM ONLY t}: inheritance
 *                             children excluded
 * @param ignore               MySQL's IGNORE modifier ({@code INSERT IGNORE}, {@code UPDATE IGNORE},
 *                             {@code DELETE IGNORE})
 * @param assignedColumns      UPDATE: the SET columns in order; INSERT: the column list in order, empty
 *                             when it has none (every column, in table order); DELETE: empty
 * @param set                  UPDATE: the SET list as written (after SET)
 * @param assignments          UPDATE: the SET list taken apart, one per column
 * @param insertSource         INSERT: VALUES rows, query or DEFAULT VALUES
 * @param onConflict           INSERT … ON CONFLICT (PostgreSQL)
 * @param onDuplicateKeyUpdate INSERT … ON DUPLICATE KEY UPDATE (MySQL)
 * @param from                 UPDATE … FROM / DELETE … USING: the list of other tables as written
 * @param fromRelations        the relations of the FROM / USING list, in order; empty when there is none
 * @param where                UPDATE/DELETE: the WHERE condition as written
 * @param whereHasSubquery     the WHERE contains a SELECT
 * @param orderBy              UPDATE/DELETE … ORDER BY (MySQL): the list after ORDER BY
 * @param limit                UPDATE/DELETE … LIMIT (MySQL): what follows LIMIT
 * @param returning            the RETURNING items in order, empty when none
 * @param returningAll         RETURNING includes {@code *} (or the target's {@code t.*})
 * @param parameterCount       the number of JDBC {@code ?} parameters in the whole statement
 * @param delta                H2: the query over this statement's data change delta table whose
 *                             select list is {@link #returning} ({@code SELECT … FROM FINAL TABLE (INSERT …)});
 *                             {@link #sql} is then the statement inside it; null otherwise
 */
public record Dml(String sql, CommandType command, TableRef target, boolean only, boolean ignore,
                  List<ColumnRef> assignedColumns, SqlFragment set, List<Assignment> assignments,
                  InsertSource insertSource, OnConflict onConflict, OnDuplicateKeyUpdate onDuplicateKeyUpdate,
                  SqlFragment from, List<FromRelation> fromRelations, SqlFragment where, boolean whereHasSubquery, SqlFragment orderBy,
                  SqlFragment limit, List<SqlFragment> returning, boolean returningAll, int parameterCount,
                  DeltaTable delta)
        implements Analysis {

    /**
     * H2's {@code SELECT <returning> FROM <kind> TABLE (<the statement>) <alias>}.
     *
     * @param kind  {@code FINAL} (an INSERT's rows as stored) or {@code OLD} (a DELETE's)
     * @param alias what follows the closing parenthesis as written ({@code AS x}), or ""
     */
    public record DeltaTable(String kind, String alias) {
    }

    /** A statement of its own (not inside a query). */
    public Dml(String sql, CommandType command, TableRef target, boolean only, boolean ignore,
            List<ColumnRef> assignedColumns, SqlFragment set, List<Assignment> assignments, InsertSource insertSource,
            OnConflict onConflict, OnDuplicateKeyUpdate onDuplicateKeyUpdate, SqlFragment from,
            List<FromRelation> fromRelations, SqlFragment where, boolean whereHasSubquery, SqlFragment orderBy,
            SqlFragment limit, List<SqlFragment> returning, boolean returningAll, int parameterCount) {
        this(sql, command, target, only, ignore, assignedColumns, set, assignments, insertSource, onConflict,
                onDuplicateKeyUpdate, from, fromRelations, where, whereHasSubquery, orderBy, limit, returning, returningAll,
                parameterCount, null);
    }

    /** This statement inside H2's {@code SELECT items FROM kind TABLE (…) alias}. */
    public Dml inDeltaQuery(List<SqlFragment> items, boolean all, DeltaTable table) {
        return new Dml(sql, command, target, only, ignore, assignedColumns, set, assignments, insertSource, onConflict,
                onDuplicateKeyUpdate, from, fromRelations, where, whereHasSubquery, orderBy, limit, items, all,
                parameterCount, table);
    }

    public Dml {
        assignedColumns = List.copyOf(assignedColumns);
        assignments = List.copyOf(assignments);
        returning = List.copyOf(returning);
        fromRelations = List.copyOf(fromRelations);
    }

    /** The same INSERT with a column list: {@code INSERT INTO t SELECT …} as the columns it fills. */
    public Dml withAssignedColumns(List<ColumnRef> columns) {
        return new Dml(sql, command, target, only, ignore, columns, set, assignments, insertSource, onConflict,
                onDuplicateKeyUpdate, from, fromRelations, where, whereHasSubquery, orderBy, limit, returning,
                returningAll, parameterCount, delta);
    }

    /**
     * The same statement inside a WITH whose queries are named {@code queries} (lower case): a FROM
     * or USING relation that names one of them is a WITH query's rows, not a table's.
     */
    public Dml inWith(java.util.Set<String> queries) {
        List<FromRelation> relations = fromRelations.stream().map(r -> r.table() && r.tableName() != null
                && queries.contains(r.tableName().toLowerCase(java.util.Locale.ROOT)) ? new FromRelation(r.name()) : r)
                .toList();
        return new Dml(sql, command, target, only, ignore, assignedColumns, set, assignments, insertSource, onConflict,
                onDuplicateKeyUpdate, from, relations, where, whereHasSubquery, orderBy, limit, returning,
                returningAll, parameterCount, delta);
    }

    /** The WHERE condition as written, or null. */
    public String whereText() {
        return where == null ? null : where.text();
    }

    /** UPDATE … FROM / DELETE … USING list as written, or "" when none. */
    public String fromItemsText() {
        return from == null ? "" : from.text();
    }

    /** The ORDER BY list as written, or null. */
    public String orderByText() {
        return orderBy == null ? null : orderBy.text();
    }

    /** What follows LIMIT as written, or null. */
    public String limitText() {
        return limit == null ? null : limit.text();
    }

    /** The RETURNING items as written, empty when none. */
    public List<String> returningTexts() {
        return returning.stream().map(SqlFragment::text).toList();
    }

    /** The parameter indexes of UPDATE's SET list (empty for INSERT and DELETE). */
    public List<Integer> setParameters() {
        return set == null ? List.of() : set.parameters();
    }

    /** The parameter indexes of the WHERE condition (empty when none). */
    public List<Integer> whereParameters() {
        return where == null ? List.of() : where.parameters();
    }
}
