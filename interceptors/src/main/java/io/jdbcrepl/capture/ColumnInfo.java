package io.jdbcrepl.capture;

import io.jdbcrepl.lcr.ValueType;

/**
 * A column of a replicated table as its database stores it.
 *
 * @param name     the stored name (case as the database keeps it)
 * @param type     its portable type
 * @param typeName the database's type name, for dialect-specific SQL
 * @param nullable whether NULL is allowed
 * @param generated whether the database computes it (GENERATED ALWAYS / virtual): never assigned
 */
public record ColumnInfo(String name, ValueType type, String typeName, boolean nullable, boolean generated) {
}
