package io.jdbcrepl.api;

/** The kinds of conflict of SPEC 5.1, as {@code repl_conflict} names them. */
public enum ConflictKind {
    /** UPDATE, ROW_EXISTS: an old value differs from the current one. */
    UPDATE,
    /** INSERT, ROW_EXISTS: the primary key, substitute key or a unique constraint is taken. */
    UNIQUENESS,
    /** UPDATE or DELETE, ROW_MISSING; and DELETE, ROW_EXISTS (the row differs from the old values). */
    DELETE,
    /** The change violates a foreign key (found by the apply side from the SQLState). */
    FOREIGN_KEY
}
