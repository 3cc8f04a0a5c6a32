package io.jdbcrepl.sql;

/**
 * What {@link SqlClassifier#analyze} found a statement to be: {@link NotDml} (pass it through),
 * {@link Opaque} (it may change rows the SQL does not name) or {@link Dml} (a single-table INSERT,
 * UPDATE or DELETE a capture plan can handle) or {@link MultiTableDml} (a MySQL multi-table UPDATE or DELETE).
 */
public sealed interface Analysis permits NotDml, Opaque, Dml, MultiTableDml {
}
