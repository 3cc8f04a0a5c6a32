package io.jdbcrepl.sql;

import io.jdbcrepl.dialect.Identifiers;

import io.jdbcrepl.dialect.Dialect;

/** A column as a statement names it: the name without quotes, and whether it was quoted. */
public record ColumnRef(String name, boolean quoted) {

    /** From a name as written, {@code a} or {@code "A"} or {@code `a`}. */
    public static ColumnRef of(String asWritten) {
        return new ColumnRef(Identifiers.unquote(asWritten), Identifiers.isQuoted(asWritten));
    }

    /** The name as the database stores it (see {@link Dialect#fold(String, boolean)}). */
    public String folded(Dialect dialect) {
        return dialect.fold(name, quoted);
    }
}
