package io.jdbcrepl.sql;

/**
 * A relation of an {@code UPDATE … FROM} or {@code DELETE … USING} list.
 *
 * @param name      what the statement calls it: its alias, else its table name, as written
 * @param table     a table or view (its rows have a named row type), not a subquery, VALUES list or WITH query
 * @param tableName a table's name as written (without schema), else null
 */
public record FromRelation(String name, boolean table, String tableName) {

    /** A subquery or VALUES list. */
    public FromRelation(String name) {
        this(name, false, null);
    }
}
