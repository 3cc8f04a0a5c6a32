package io.jdbcrepl.config;

import java.util.Objects;

/**
 * A table named in a key or value: {@code schema.table}, or {@code table} for the connection's
 * current schema. Kept as the user wrote it; compared the way the database folds unquoted
 * identifiers.
 *
 * @param schema the schema as written, or null for the connection's current schema
 * @param table the table as written
 */
public record TableName(String schema, String table) {

    public TableName {
        Objects.requireNonNull(table, "table");
    }

    /**
     * Parses {@code schema.table} or {@code table} (unquoted identifiers).
     *
     * @throws IllegalArgumentException with the reason, when the text is not such a name
     */
    public static TableName parse(String text) {
        String[] parts = text.split("\\.", -1);
        if (parts.length > 2) {
            throw new IllegalArgumentException("expected schema.table or table, not more than one dot");
        }
        for (String part : parts) {
            if (!Identifiers.isIdentifier(part)) {
                throw new IllegalArgumentException("'" + part + "' is not an unquoted identifier");
            }
        }
        return parts.length == 2 ? new TableName(parts[0], parts[1]) : new TableName(null, parts[0]);
    }

    /**
     * Whether this name denotes the given table.
     *
     * @param schema the table's schema, or null when it was referenced without one
     * @param table the table's name
     * @param currentSchema the connection's current schema, or null when unknown; an unqualified
     *     name then matches the table in any schema
     * @param foldsToUpper whether the database folds unquoted identifiers to upper case (H2) or
     *     lower case (PostgreSQL)
     */
    public boolean matches(String schema, String table, String currentSchema, boolean foldsToUpper) {
        if (!Identifiers.same(this.table, table, foldsToUpper)) {
            return false;
        }
        return schemaMatches(this.schema, schema, currentSchema, foldsToUpper, false);
    }

    /** Same text ignoring case: used to reject two keys that name one table twice. */
    boolean sameAs(TableName other) {
        return Identifiers.same(table, other.table)
                && (schema == null ? other.schema == null : other.schema != null && Identifiers.same(schema, other.schema));
    }

    /** Shared by names and patterns: how a written schema (or its absence) meets a table's schema. */
    static boolean schemaMatches(String written, String schema, String currentSchema, boolean foldsToUpper,
            boolean glob) {
        String actual = schema != null ? schema : currentSchema;
        if (written == null) {
            // "table" means the current schema; unknown current schema or unqualified reference: any
            return currentSchema == null || schema == null || Identifiers.same(schema, currentSchema, foldsToUpper);
        }
        if (actual == null) {
            return glob && written.equals("*");
        }
        return glob ? TablePattern.globMatches(written, actual, foldsToUpper)
                : Identifiers.same(written, actual, foldsToUpper);
    }

    @Override
    public String toString() {
        return schema == null ? table : schema + "." + table;
    }
}
