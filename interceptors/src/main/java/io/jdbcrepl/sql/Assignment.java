package io.jdbcrepl.sql;

/** One {@code column = value} of a SET list ({@code SET (a, b) = (x, y)} gives two). */
public record Assignment(ColumnRef column, SqlFragment value) {
}
