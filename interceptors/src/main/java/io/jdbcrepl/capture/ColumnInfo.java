package io.jdbcrepl.capture;

import io.jdbcrepl.dialect.Dialect;
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

    /** Type names of large objects, which a table without key does not match rows by (SPEC 3.3). */
    private static final java.util.regex.Pattern LARGE = java.util.regex.Pattern.compile(
            "(?i).*(blob|clob|large object|bytea|longtext|xml).*");

    /**
     * Whether rows can be matched by this column with {@code =} on every supported database: not a
     * LOB, JSON or large binary (Oracle's rule for the key of a table without one).
     */
    public boolean comparable() {
        return type != ValueType.JSON && (typeName == null || !LARGE.matcher(typeName).matches());
    }

    /** Whether the column holds references to values kept outside the row (PostgreSQL's large objects, {@code oid}/{@code lo}). */
    public boolean isLargeObject() {
        return type == ValueType.LARGE_OBJECT;
    }

    /** Whether it holds an instant shown as the session's wall time (see {@link Dialect#timestampInSessionZone}), logged as a TIMESTAMPTZ. */
    public boolean holdsInstant(Dialect dialect) {
        return type == ValueType.TIMESTAMP && dialect.timestampInSessionZone(typeName);
    }

    /** The type its values are logged as: an instant as a TIMESTAMPTZ, every other column as its own type. */
    public ValueType loggedType(Dialect dialect) {
        return holdsInstant(dialect) ? ValueType.TIMESTAMPTZ : type;
    }
}
