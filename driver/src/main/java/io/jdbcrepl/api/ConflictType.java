package io.jdbcrepl.api;

/**
 * The type of a conflict (Oracle's conflict_type), as {@code repl_error.error_code} names it: the
 * two a prebuilt handler resolves, and the foreign key conflict, which none takes (SPEC 5.2).
 */
public enum ConflictType {
    /** The row is there but differs (update conflict) or already exists (uniqueness conflict). */
    ROW_EXISTS,
    /** The row to update or delete is not there. */
    ROW_MISSING,
    /** Applying the LCR violates a foreign key: retried for {@code repl.fk.retry}, never given to a prebuilt handler. */
    FOREIGN_KEY;

    /** Whether a prebuilt handler ({@code repl.handler.<name>.conflict}) may name it. */
    public boolean isPrebuiltConflict() {
        return this != FOREIGN_KEY;
    }
}
