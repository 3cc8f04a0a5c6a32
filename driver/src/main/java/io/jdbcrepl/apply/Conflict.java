package io.jdbcrepl.apply;

import io.jdbcrepl.config.ConflictType;
import io.jdbcrepl.lcr.CommandType;

import java.util.List;
import java.util.Map;

/**
 * A conflict met applying one row LCR (SPEC 5.1), as a value a handler can resolve: its type
 * ({@code ROW_EXISTS}, {@code ROW_MISSING}; null for a foreign key conflict), kind, operation, the
 * conflicting columns and the destination's current row (empty when the row is missing).
 */
public record Conflict(ConflictType type, Kind kind, CommandType operation, List<String> columns,
        Map<String, Object> currentRow, String detail) {

    public enum Kind { UPDATE, UNIQUENESS, DELETE, FOREIGN_KEY }

    public Conflict {
        columns = List.copyOf(columns);
        currentRow = currentRow == null ? Map.of() : java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(currentRow));
    }

    /** What the error queue records as {@code error_code}. */
    public String errorCode() {
        return kind == Kind.FOREIGN_KEY ? "FOREIGN_KEY" : type.name();
    }

    public String message() {
        return operation + " " + errorCode() + (columns.isEmpty() ? "" : " on columns " + columns) + ": " + detail;
    }
}
