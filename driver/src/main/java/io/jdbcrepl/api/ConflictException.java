package io.jdbcrepl.api;

import java.sql.SQLException;

/**
 * A conflict the prebuilt handlers did not resolve, as {@link DmlContext#execute}
 * throws it, with SQLState 23000 (integrity constraint violation, the class a conflict is
 * closest to) and the resolution's one-line reason as the message.
 */
public final class ConflictException extends SQLException {

    private static final long serialVersionUID = 1L;

    private final transient Conflict conflict;

    public ConflictException(String message, Conflict conflict) {
        super(message, "23000"); // SqlState.INTEGRITY_CONSTRAINT_VIOLATION; the api needs nothing internal
        this.conflict = conflict;
    }

    public Conflict conflict() {
        return conflict;
    }
}
