package io.jdbcrepl.dialect.postgresql;

import io.jdbcrepl.lcr.ValueType;

/**
 * PostgreSQL large objects in SQL. A column of type {@code oid} (or the lo module's {@code lo})
 * holds the number of an object in {@code pg_largeobject}, which names nothing on another database:
 * the change log carries the object's bytes ({@link ValueType#LARGE_OBJECT}), read where the row is
 * read, and apply creates an object of the destination's own with those bytes. Only the SQL
 * functions are used (no pgjdbc API), so nothing here loads a vendor class.
 */
final class LargeObjects {

    private LargeObjects() {
    }

    /** The bytes of the object a column expression names ({@code NULL} for NULL). */
    static String content(String columnSql) {
        return "lo_get(" + columnSql + ")";
    }

    /** A new object holding the bytes bound to {@code placeholder}; its number ({@code NULL} for NULL). */
    static String create(String placeholder) {
        return "lo_from_bytea(0, " + placeholder + ")";
    }
}
