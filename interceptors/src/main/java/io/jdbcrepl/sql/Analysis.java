package io.jdbcrepl.sql;

/**
 * What {@link SqlClassifier#analyze} found a statement to be: {@link NotDml} (pass it through),
 * {@link Opaque} (it may change rows the SQL does not name) or {@link Dml} (a single-table INSERT,
 * UPDATE or DELETE a capture plan can handle), {@link MultiTableDml} (a MySQL multi-table UPDATE or
 * DELETE) or {@link WithDml} (WITH queries or a main statement that change rows, each such a
 * single-table change).
 */
public sealed interface Analysis permits NotDml, Opaque, Dml, MultiTableDml, WithDml {
}
