package io.jdbcrepl.conflict;

import io.jdbcrepl.lcr.RowImage;
import io.jdbcrepl.lcr.TypedValue;
import java.util.Collection;
import java.util.Locale;
import java.util.Map;

/**
 * Column names across nodes: an LCR from PostgreSQL says {@code salary}, an H2 destination
 * {@code SALARY}, a key says {@code Salary}. Names are unquoted identifiers, so they match
 * ignoring case (a table with two columns that differ only in case is not supported).
 */
final class Columns {

    private Columns() {}

    static boolean same(String a, String b) {
        return a.equalsIgnoreCase(b) || a.toLowerCase(Locale.ROOT).equals(b.toLowerCase(Locale.ROOT));
    }

    static boolean contains(Collection<String> names, String column) {
        for (String n : names) {
            if (same(n, column)) {
                return true;
            }
        }
        return false;
    }

    /** The image's value of the column, exact name first; null when it has none. */
    static TypedValue get(RowImage image, String column) {
        if (image == null) {
            return null;
        }
        TypedValue v = image.get(column);
        if (v != null) {
            return v;
        }
        for (Map.Entry<String, TypedValue> e : image.asMap().entrySet()) {
            if (same(e.getKey(), column)) {
                return e.getValue();
            }
        }
        return null;
    }

    /** The image's own spelling of the column, or null. */
    static String nameIn(RowImage image, String column) {
        if (image == null) {
            return null;
        }
        if (image.has(column)) {
            return column;
        }
        for (String c : image.asMap().keySet()) {
            if (same(c, column)) {
                return c;
            }
        }
        return null;
    }
}
