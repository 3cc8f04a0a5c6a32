package io.jdbcrepl.metrics;

/**
 * What a conflict counter counts: the table ({@code schema.table}), the conflict's kind (SPEC 5.1),
 * the handler that met it (null: none) and what came of it ({@code RESOLVED}, {@code ROLLED_BACK}, ...).
 */
public record ConflictKey(String table, String kind, String handler, String outcome) {

    /** The handler as a tag value: {@code none} when no handler met the conflict. */
    public String handlerTag() {
        return handler == null ? "none" : handler;
    }
}
