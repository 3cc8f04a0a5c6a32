package io.jdbcrepl.config;

/** The conflict a prebuilt handler resolves (Oracle's conflict_type). */
public enum ConflictType {
    /** The row is there but differs (update conflict) or already exists (uniqueness conflict). */
    ROW_EXISTS,
    /** The row to update or delete is not there. */
    ROW_MISSING
}
